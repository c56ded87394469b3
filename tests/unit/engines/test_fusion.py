"""Two readings of one page merge word by word: the more confident reading of each stretch of ink wins."""

from __future__ import annotations

from quire.engines.fusion import in_rows, merge_readings
from quire.engines.ocr import OcrResult, character_confidence
from quire.model import Word


def _reading(*words: tuple[str, float, float, float], rotation: int = 0) -> OcrResult:
    """Words given as (text, x0, top, confidence), each 10 points tall and 6 points a character wide."""
    boxes = tuple(Word(text, x0, top, x0 + 6 * len(text), top + 10, confidence) for text, x0, top, confidence in words)
    return OcrResult(" ".join(w.text for w in boxes), boxes, character_confidence(boxes), rotation)


def _texts(result: OcrResult) -> list[str]:
    return [w.text for w in result.words]


def test_a_word_misread_in_the_base_is_taken_from_the_other_reading() -> None:
    base = _reading(("Bureaustoel", 10, 100, 0.95), ("3", 100, 100, 0.95), ("84,79", 130, 100, 0.95),
                    ("Sueet", 10, 120, 0.17))
    other = _reading(("Bureaustoe!", 10, 100, 0.60), ("3", 100, 100, 0.96), ("84,79", 130, 100, 0.9),
                     ("Street", 10, 120, 0.93))
    merged = merge_readings(base, other)
    assert _texts(merged) == ["Bureaustoel", "3", "84,79", "Street"]
    assert merged.text == "Bureaustoel 3 84,79\nStreet"


def test_the_base_is_the_reading_with_more_confident_characters_and_keeps_its_lone_words() -> None:
    weak = _reading(("Invoice", 10, 10, 0.5))
    strong = _reading(("Invoice", 10, 10, 0.6), ("Total", 10, 40, 0.9), ("12.50", 80, 40, 0.9))
    assert _texts(merge_readings(weak, strong)) == ["Invoice", "Total", "12.50"]


def test_the_other_readings_lone_words_are_added_only_where_read_surely_and_clear_of_the_base() -> None:
    base = _reading(("Invoice", 10, 10, 0.9), ("Total", 10, 40, 0.9), ("Consulting", 10, 100, 0.95),
                    ("Hours", 100, 100, 0.95))
    other = _reading(("Invoice", 10, 10, 0.9),
                     ("Shipping", 10, 60, 0.95), ("7.50", 80, 60, 0.93),  # a row the base lost
                     (":", 200, 200, 0.4),  # a speck the base rightly ignored
                     ("Tot", 20, 47, 0.95))  # a sure word that grazes a base word: the same ink, shifted
    merged = merge_readings(base, other)
    assert _texts(merged) == ["Invoice", "Total", "Consulting", "Hours", "Shipping", "7.50"]
    assert merged.text == "Invoice\nTotal\nShipping 7.50\nConsulting Hours"
    text, words = in_rows(merged.words)
    assert text == merged.text and [w.text for w in words] == ["Invoice", "Total", "Shipping", "7.50", "Consulting",
                                                                "Hours"]


def test_a_slightly_more_confident_or_narrower_word_does_not_replace_the_base() -> None:
    base = _reading(("50,00", 10, 10, 0.77), ("Montant", 60, 10, 0.80), ("TOTAL", 10, 40, 0.99))
    other = _reading(("$0,00", 10, 10, 0.82), ("tant", 78, 10, 0.97), ("TOTAL", 10, 40, 0.2))
    assert merge_readings(base, other) is base


def test_a_word_split_in_two_by_one_reading_is_one_group() -> None:
    base = _reading(("+4452", 10, 10, 0.47), ("Tel.", 10, 40, 0.99), ("Street", 10, 60, 0.99))
    other = _reading(("+44", 10, 10, 0.95), ("52", 34, 10, 0.95))
    assert _texts(merge_readings(base, other)) == ["+44", "52", "Tel.", "Street"]


def test_readings_of_differently_turned_pages_are_not_merged() -> None:
    base = _reading(("Sueet", 10, 120, 0.17), ("Invoice", 10, 10, 0.99))
    turned = _reading(("Street", 10, 120, 0.93), rotation=90)
    assert merge_readings(base, turned) is base

"""Receipt pages are read again with their contrast stretched and the two readings merged (always, or where the
reading shows no date or no total); other pages are not."""

from __future__ import annotations

import pytest
from PIL import Image, ImageDraw

from quire.engines.contrast_reread import ContrastRereadEngine, IncompleteReceiptEngine, receipt_evidence
from quire.engines.ocr import OcrResult
from quire.model import Word

DPI = 144


class _Fixed:
    """Always the same reading; counts how often it was asked."""

    name, version = "fixed", "1"

    def __init__(self, result: OcrResult, key: str) -> None:
        self.result = result
        self.settings_key = key
        self.calls = 0

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        self.calls += 1
        return self.result


def _page(width: int, height: int) -> Image.Image:
    """A frame of ink ``width`` x ``height`` pixels: its aspect ratio is what tells a receipt's column."""
    page = Image.new("L", (width, height), 255)
    ImageDraw.Draw(page).rectangle((5, 5, width - 5, height - 5), outline=0, width=3)
    return page


def _lines(last_word: str, confidence: float, characters: int = 40) -> OcrResult:
    """Ten lines of 4-letter words (5 points a character) spanning ``characters`` characters; the last
    word of the last line is ``last_word`` at ``confidence``."""
    lefts = [*range(0, 5 * characters - 20, 25), 5 * characters - 20]
    words = [Word("ABCD", x, top, x + 20, top + 8, 0.9) for top in range(0, 100, 10) for x in lefts]
    last = words[-1]
    words[-1] = Word(last_word, last.x0, last.top, last.x1, last.bottom, confidence)
    lines = [" ".join(w.text for w in words[i:i + len(lefts)]) for i in range(0, len(words), len(lefts))]
    return OcrResult("\n".join(lines), tuple(words), 0.9)


def test_a_receipt_column_keeps_the_stretched_readings_surer_words() -> None:
    page, stretched = _Fixed(_lines("T0TL", 0.4), "page"), _Fixed(_lines("TOTL", 0.95), "stretched")
    result = ContrastRereadEngine(page, stretched).recognize(_page(100, 400), DPI)
    assert stretched.calls == 1
    assert result.words[-1].text == "TOTL" and result.text.endswith("ABCD TOTL")
    assert [w.text for w in result.words[:-1]] == ["ABCD"] * (len(result.words) - 1)


def test_a_till_roll_photographed_wider_than_it_is_is_read_again() -> None:
    page, stretched = _Fixed(_lines("T0TL", 0.4), "page"), _Fixed(_lines("TOTL", 0.95), "stretched")
    result = ContrastRereadEngine(page, stretched).recognize(_page(400, 200), DPI)
    assert stretched.calls == 1 and result.words[-1].text == "TOTL"


def test_a_full_width_page_is_read_once() -> None:
    invoice = _lines("T0TL", 0.4, characters=95)
    page, stretched = _Fixed(invoice, "page"), _Fixed(_lines("TOTL", 0.95, characters=95), "stretched")
    assert ContrastRereadEngine(page, stretched).recognize(_page(400, 200), DPI) is invoice
    assert stretched.calls == 0


def test_a_page_read_as_nothing_is_not_read_again() -> None:
    nothing = OcrResult("", (), 0.0)
    page, stretched = _Fixed(nothing, "page"), _Fixed(_lines("TOTL", 0.95), "stretched")
    assert ContrastRereadEngine(page, stretched).recognize(_page(100, 400), DPI) is nothing
    assert stretched.calls == 0


def test_the_merged_words_follow_the_merged_text_line_by_line() -> None:
    page = _lines("TOTL", 0.9)
    lost_line = Word("RECEIPT", 0, -20, 35, -12, 0.97)  # a line only the stretched reading found, above the rest
    # otherwise read less surely, so that the page reading is the base and the lost line is added to it
    unsure = tuple(Word(w.text, w.x0, w.top, w.x1, w.bottom, 0.5) for w in page.words)
    stretched = OcrResult(f"RECEIPT\n{page.text}", (lost_line, *unsure), 0.5)
    result = ContrastRereadEngine(_Fixed(page, "page"), _Fixed(stretched, "stretched")).recognize(_page(100, 400), DPI)
    assert result.text.split("\n")[0] == "RECEIPT"
    assert [w.text for w in result.words[:2]] == ["RECEIPT", "ABCD"]


def _text(*lines: str) -> OcrResult:
    """A receipt column read as ``lines`` (each word 5 points a character, lines 10 points apart)."""
    words = []
    for number, line in enumerate(lines):
        x = 0.0
        for text in line.split():
            words.append(Word(text, x, 10 * number, x + 5 * len(text), 10 * number + 8, 0.9))
            x += 5 * len(text) + 5
    return OcrResult("\n".join(lines), tuple(words), 0.9)


@pytest.mark.parametrize(("lines", "evidence"), [
    (("CHEF LEE SDN BHD", "Date: 13/02/2016", "TOTAL 96.20"), 2),
    (("Date 29-01-18 20:38", "Total (RM)", "7,838.80"), 2),  # the amount under its label
    (("Date 29-01-18", "Total (RM)", "Thank you", "7,838.80"), 1),  # no amount on or under the label
    (("Total 96.20",), 1),
    (("CHEF LEE SDN BHD", "Date: 13/O2/2O16", "T Al 96.20"), 0),
])
def test_receipt_evidence_counts_a_date_and_a_total_with_its_amount(lines: tuple[str, ...], evidence: int) -> None:
    assert receipt_evidence(_text(*lines)) == evidence


_COMPLETE = _text("CHEF LEE SDN BHD", "Date: 13/02/2016", "TOTAL 96.20")
_NO_TOTAL = _text("CHEF LEE SDN BHD", "Date: 13/02/2016", "T Al 96.20")
_NOTHING = _text("CHEF LEE SDN BHD", "Date: 13/O2/2O16", "T Al 96.20")


@pytest.mark.parametrize(("first", "fallback", "kept", "asked"), [
    (_COMPLETE, _NOTHING, _COMPLETE, 0),  # a date and a total: nothing more is read
    (_NO_TOTAL, _COMPLETE, _COMPLETE, 1),  # the fallback shows more
    (_NO_TOTAL, _text("CHEF LEE SDN BHD", "Date: 13/02/2016", "T Al 96.20"), _NO_TOTAL, 1),  # ... or it does
    # not: the first reading stays
    (_NO_TOTAL, _NOTHING, _NO_TOTAL, 1),
])
def test_an_incomplete_receipt_takes_the_fallback_only_where_it_shows_more(
        first: OcrResult, fallback: OcrResult, kept: OcrResult, asked: int) -> None:
    again = _Fixed(fallback, "fallback")
    result = IncompleteReceiptEngine(_Fixed(first, "page"), again).recognize(_page(100, 400), DPI)
    assert result is kept and again.calls == asked


def test_a_full_width_page_without_a_total_is_not_read_again() -> None:
    letter = _lines("Regards", 0.9, characters=95)
    again = _Fixed(_COMPLETE, "fallback")
    assert IncompleteReceiptEngine(_Fixed(letter, "page"), again).recognize(_page(400, 200), DPI) is letter
    assert again.calls == 0

"""Receipt pages are read again with their contrast stretched and the two readings merged; other pages are not."""

from __future__ import annotations

from PIL import Image, ImageDraw

from quire.engines.contrast_reread import ContrastRereadEngine
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

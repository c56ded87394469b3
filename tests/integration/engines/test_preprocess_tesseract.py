"""Preprocessing options with real tesseract: levelled scans keep their word boxes in the page's frame."""

from __future__ import annotations

import shutil

import pytest
from PIL import Image, ImageDraw, ImageFont

from quire.engines.ocr import TesseractEngine
from quire.engines.preprocess import Preprocessing

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed")

LINES = ("INVOICE NUMBER 40213", "DATE 12/03/2024", "SUBTOTAL 120.00", "TAX 7.20", "TOTAL AMOUNT 127.20")


def _slanted_page(degrees: float) -> Image.Image:
    font = ImageFont.load_default(size=36)
    page = Image.new("L", (1100, 120 + 80 * len(LINES)), 255)
    draw = ImageDraw.Draw(page)
    for n, line in enumerate(LINES):
        draw.text((80, 60 + 80 * n), line, fill=0, font=font)
    # rotate(-d) turns clockwise: lines run down to the right, as on a crookedly fed receipt
    return page.rotate(-degrees, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255)


def _centres(words) -> dict[str, tuple[float, float]]:
    return {w.text: ((w.x0 + w.x1) / 2, (w.top + w.bottom) / 2) for w in words}


def test_deskewed_words_stay_where_they_are_on_the_page() -> None:
    page = _slanted_page(3.0)
    options = {"min_text_height": 0, "grayscale": True}
    plain = TesseractEngine("eng", Preprocessing(**options)).recognize(page, 150)
    levelled = TesseractEngine("eng", Preprocessing(**options, deskew=True)).recognize(page, 150)
    for word in ("INVOICE", "SUBTOTAL", "TOTAL", "127.20"):
        assert word in levelled.text
    plain_at, levelled_at = _centres(plain.words), _centres(levelled.words)
    common = [w for w in ("INVOICE", "40213", "SUBTOTAL", "AMOUNT", "127.20") if w in plain_at and w in levelled_at]
    assert len(common) >= 3
    for word in common:  # both in the frame of the slanted page, in points at 150 dpi
        assert levelled_at[word][0] == pytest.approx(plain_at[word][0], abs=4)
        assert levelled_at[word][1] == pytest.approx(plain_at[word][1], abs=4)


@pytest.mark.parametrize("psm", [3, 4, 6, 11])
def test_every_supported_segmentation_mode_reads_the_page(psm: int) -> None:
    options = Preprocessing(min_text_height=0, remove_rules=True, flatten=True)
    result = TesseractEngine("eng", options, psm=psm, config=("tessedit_char_blacklist=|",)).recognize(
        _slanted_page(0.0), 150)
    assert "TOTAL AMOUNT 127.20" in result.text and "|" not in result.text

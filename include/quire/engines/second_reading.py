"""A weak reading is read again with local (Sauvola) thresholding, and the better reading is kept.

Tesseract's default global (Otsu) threshold suits most pages, but on the generated scanned invoices
(grey paper, speckle, thin row rules) it loses whole columns: page 001 of the dev corpus gave 15 of
its 40 prices and amounts at confidence 0.58, and 35 of 40 at 0.77 with Sauvola. On faint receipts
Sauvola erases text instead (bench/ocr_quality.py; see preprocess.py), so it is only a second
opinion: asked when the first reading is weak, kept only when it is more confident and has not
lost text.
"""

from __future__ import annotations

from PIL import Image

from quire.engines.ocr import OcrEngine, OcrResult

#: the second reading must keep this share of the first reading's characters (Sauvola erasing faint
#: text reads fewer, cleaner, more confident words)
MIN_KEPT_CHARACTERS = 0.9


class SecondReadingEngine:
    """``first``'s reading, or ``second``'s when the first is below ``below_confidence`` and the second is better."""

    def __init__(self, first: OcrEngine, second: OcrEngine, below_confidence: float) -> None:
        self.first = first
        self.second = second
        self.below_confidence = below_confidence
        self.name = first.name
        self.settings_key = f"{first.settings_key};below={below_confidence:g}:[{second.settings_key}]"

    @property
    def version(self) -> str:
        return self.first.version

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        first = self.first.recognize(image, dpi)
        if first.confidence >= self.below_confidence:
            return first
        second = self.second.recognize(image, dpi)
        if second.confidence > first.confidence and \
                _characters(second) >= MIN_KEPT_CHARACTERS * _characters(first):
            return second
        return first


def _characters(result: OcrResult) -> int:
    return sum(len(word.text) for word in result.words)

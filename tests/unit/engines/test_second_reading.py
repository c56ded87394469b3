"""The second reading of a weak page is kept only when it is more confident and has not lost text."""

from __future__ import annotations

import pytest
from PIL import Image

from quire.engines.ocr import OcrResult
from quire.engines.second_reading import SecondReadingEngine
from quire.model import Word


class _Engine:
    name = "fixed"
    version = "1"

    def __init__(self, words: str, confidence: float, key: str) -> None:
        self.result = OcrResult(words, tuple(Word(t, 0, 0, 10, 10, confidence) for t in words.split()), confidence)
        self.settings_key, self.calls = key, 0

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        self.calls += 1
        return self.result


@pytest.mark.parametrize(("first", "second", "kept"), [
    (("ae CO oa OO 15.00", 0.58), ("5.00 3.00 15.00", 0.77), "second"),  # weak, and the second is better
    (("5.00 3.00 15.00", 0.90), ("5.00 3.00 15.00", 0.95), "first"),  # not weak: no second reading
    (("TOTAL 12.50 CASH 20.00", 0.60), ("TOTAL", 0.90), "first"),  # the second lost most of the text
    (("TOTAL 12.50", 0.60), ("TOTAL 12.5O", 0.55), "first"),  # the second is no more confident
])
def test_second_reading(first: tuple[str, float], second: tuple[str, float], kept: str) -> None:
    engines = {"first": _Engine(*first, "otsu"), "second": _Engine(*second, "sauvola")}
    engine = SecondReadingEngine(engines["first"], engines["second"], below_confidence=0.75)
    assert engine.recognize(Image.new("L", (10, 10), 255), 300) == engines[kept].result
    assert engines["second"].calls == (first[1] < 0.75)
    assert engine.settings_key == "otsu;below=0.75:[sauvola]"

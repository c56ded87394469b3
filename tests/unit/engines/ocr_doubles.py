"""OCR engine doubles, chosen by configuration like the real engine:

    Settings(ocr_engine="tests.unit.engines.ocr_doubles:CountingOcrEngine")

With ``$QUIRE_TEST_FAULT_DIR`` set, calls are counted in a file there, so the
count (and a crash "at call k") survives process boundaries: an Airflow retry
runs in a new process and must not crash again at the same call.
"""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image

from quire.errors import EngineError
from quire.engines.ocr import OcrResult
from quire.model import Word


def _next_call_number(instance_calls: int) -> int:
    folder = os.environ.get("QUIRE_TEST_FAULT_DIR")
    if not folder:
        return instance_calls
    path = Path(folder) / "ocr-calls"
    path.parent.mkdir(parents=True, exist_ok=True)
    count = int(path.read_text()) + 1 if path.exists() else 1
    path.write_text(str(count))
    return count


class CountingOcrEngine:
    """Reads every image as ``counted call N``; ``calls`` and ``dpis`` record what it was asked."""

    name = "counting"
    version = "1"
    settings_key = "double"

    def __init__(self, settings=None) -> None:
        self.calls = 0
        self.dpis: list[int] = []

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        self.calls += 1
        self.dpis.append(dpi)
        number = _next_call_number(self.calls)
        self.on_call(number)
        return OcrResult(f"counted call {number}", (Word("counted", 10, 10, 60, 20, 0.9),
                                                    Word(f"call-{number}", 70, 10, 120, 20, 0.9)), 0.9)

    def on_call(self, number: int) -> None:
        """A hook for doubles that fail at a given call."""


class CrashingOcrEngine(CountingOcrEngine):
    """Raises :class:`EngineError` at call ``$QUIRE_TEST_OCR_CRASH_AT`` (default 2), i.e. at that OCRed page."""

    name = "crashing"

    def on_call(self, number: int) -> None:
        if number == int(os.environ.get("QUIRE_TEST_OCR_CRASH_AT", "2")):
            raise EngineError(f"OCR engine crashed at call {number} (injected fault)")

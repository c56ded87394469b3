"""Engine doubles chosen by configuration (``package.module:attribute``), as OCRmyPDF's test plugins are.

Doubles that must fail "once" across processes (an Airflow retry runs in a new
process) keep their count in a file under ``$QUIRE_TEST_FAULT_DIR``.
"""

from __future__ import annotations

import os
from pathlib import Path

from quire.errors import EngineError
from quire.sinks import TableSink


def _fault_counter(name: str) -> int:
    """Increment and return a counter kept on disk, so it survives process boundaries."""
    folder = Path(os.environ["QUIRE_TEST_FAULT_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    count = int(path.read_text()) + 1 if path.exists() else 1
    path.write_text(str(count))
    return count


def flaky_extractor(parsed, classification, **kwargs):
    """Fails with a transient EngineError on its first call, then extracts for real."""
    from quire.extraction.fields import extract_fields

    if _fault_counter("extract-calls") == 1:
        raise EngineError("extractor backend timed out (injected fault)")
    return extract_fields(parsed, classification, **kwargs)


def counting_classifier(parsed):
    """The real classifier, counting its calls (to prove a retry does not re-classify)."""
    from quire.extraction.classify import classify_document

    _fault_counter("classify-calls")
    return classify_document(parsed)


class SimulatedCrash(BaseException):
    """Stands for the process dying: not an Exception, so nothing on the way catches it."""


class CrashAfterDeliverySink(TableSink):
    """Delivers, then 'dies' before the dispatcher can mark the event published."""

    name = "crash-after-delivery"

    def __init__(self, settings, engine) -> None:
        super().__init__(engine)

    def deliver(self, idempotency_key, document_id, payload) -> None:
        super().deliver(idempotency_key, document_id, payload)
        raise SimulatedCrash(f"process killed after delivering {idempotency_key}")


def fault_count(name: str) -> int:
    path = Path(os.environ["QUIRE_TEST_FAULT_DIR"]) / name
    return int(path.read_text()) if path.exists() else 0


class FakeOcrEngine:
    """Answers instantly with a line naming the call, counting calls on disk; crashes on call ``QUIRE_TEST_CRASH_AT``.

    It lets page checkpointing be tested without tesseract's seconds per page:
    the crash comes once (the counter survives the retry's new process).
    """

    name = "fake-ocr"
    version = "1"
    settings_key = "fake"

    def __init__(self, settings) -> None:
        self.crash_at = int(os.environ.get("QUIRE_TEST_CRASH_AT", "0"))

    def recognize(self, image, dpi):
        from quire.engines.ocr import OcrResult
        from quire.model import Word

        call = _fault_counter("ocr-calls")
        if call == self.crash_at:
            raise EngineError(f"OCR engine crashed on call {call} (injected fault)")
        text = f"fake page text from call {call}"
        return OcrResult(text, (Word(text, 10, 10, 200, 22, 0.9),), 0.9)

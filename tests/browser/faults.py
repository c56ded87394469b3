"""A fault the browser test switches on and off from outside the task processes.

While ``$QUIRE_TEST_FAULT_DIR/extractor-down`` exists the extractor fails with a
terminal error (the task fails at once, no retries, the document ends FAILED);
once the file is gone it extracts for real, so "resume" has something to fix.
"""

from __future__ import annotations

import os
from pathlib import Path

from quire.errors import TerminalError

FLAG = "extractor-down"


class ExtractorDownError(TerminalError):
    """The extractor is switched off by the test."""


def extractor_down_while_flagged(parsed, classification, **kwargs):
    from quire.extraction.fields import extract_fields

    if (Path(os.environ["QUIRE_TEST_FAULT_DIR"]) / FLAG).exists():
        raise ExtractorDownError("extractor switched off by the browser test (injected fault)")
    return extract_fields(parsed, classification, **kwargs)

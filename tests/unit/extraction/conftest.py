"""Pages drawn as text: every character is one cell of a monospace grid.

``page_from_text`` turns a block of text into a PageText whose words sit exactly where
they appear in the string, so a test can draw a table and get real word geometry.
"""

from __future__ import annotations

import re

import pytest

from quire.model import PageText, ParsedDocument, TextMethod, Word

CHAR_WIDTH = 6.0
LINE_HEIGHT = 14.0
WORD_HEIGHT = 10.0


def page_from_text(text: str, page_number: int = 1, confidence: float | None = None) -> PageText:
    words = []
    for row, line in enumerate(text.splitlines()):
        for match in re.finditer(r"[^ ]+", line):
            top = row * LINE_HEIGHT
            words.append(Word(match.group(), match.start() * CHAR_WIDTH, top, match.end() * CHAR_WIDTH,
                              top + WORD_HEIGHT, confidence))
    return PageText(page_number, 612.0, 792.0, text, tuple(words), TextMethod.TEXT_LAYER, "test-grid", 1.0)


def document_from_text(*pages: str) -> ParsedDocument:
    return ParsedDocument(tuple(page_from_text(text, number) for number, text in enumerate(pages, start=1)))


@pytest.fixture
def make_document():
    return document_from_text

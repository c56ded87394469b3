"""Text-layer quality: real text passes, glyph soup and shifted-glyph garbage do not."""

from __future__ import annotations

import pytest

from quire.engines.quality import text_quality, usable_char_count


@pytest.mark.parametrize("text", [
    "The LinnSequencer is a state-of-the-art composition tool.",
    "Einführung in die Geometrie und Topologie, 31. Dezember 2016",
    "TOTAL RM 12.50  GST 6%  SDN BHD  Tel: 03-5543 1234",
    "Inhaltsverzeichnis . . . . . . . . . . . . . 111",  # dot leaders do not count against it
    "Sei X ein topologischer Raum und f: X → Y stetig, dann gilt f(x) ∈ Y für alle x ∈ X.",
])
def test_real_text_scores_high(text: str) -> None:
    assert text_quality(text) >= 0.8


@pytest.mark.parametrize("text", [
    '"7+%-',  # ocrmypdf__truetype_font_nomapping.pdf: a font without a Unicode map
    "Wklv lv d whvwlqj vbvwhp zlwk vklswhg jobskv",  # glyph ids mapped by position
    "\x03\x04\x05 \x06\x07\x08 \x0e\x0f",
    "\ufffd\ufffd\ufffd \ufffd\ufffd",
    "",
    "= + → | \\ ·",  # symbols only: nothing that proves there is text
])
def test_garbage_scores_low(text: str) -> None:
    assert text_quality(text) < 0.6


def test_usable_chars_are_letters_and_digits() -> None:
    assert usable_char_count("2021 3 31") == 7
    assert usable_char_count("  ... -- \n") == 0
    assert usable_char_count("Grüße 42") == 7

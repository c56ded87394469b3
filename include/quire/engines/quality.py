"""Is a page's text layer real text? Cheap checks that run before any OCR is considered.

A text layer can exist and still be useless: a font without a Unicode map
extracts as symbol soup (``"7+%-`` for a full page of prose), and a font whose
glyph ids were mapped by position extracts as shifted letters (``Wklv`` for
``This``). Both pass a "has text" test. :func:`text_quality` scores the share of
characters that sit in word-like tokens; :func:`usable_char_count` counts the
letters and digits, which is what "enough text on the page" means.
"""

from __future__ import annotations

import unicodedata

#: punctuation that may open or close a word without making it suspicious ("(a)", "end.", "'quoted'")
_EDGE_PUNCTUATION = "\"'`([{<«‹“‘„)]}>»›”’.,;:!?*-–—…"
_VOWELS = frozenset("aeiouyäöüàáâãåæèéêëìíîïòóôõøùúûýÿœ")
#: bad characters: control, format, private-use, unassigned, surrogate
_BAD_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs"})
#: a lower-case letter run of at least this length is expected to contain a vowel
_VOWEL_CHECK_LENGTH = 4


def usable_char_count(text: str) -> int:
    """Letters and digits in ``text`` (what a person would call its characters)."""
    return sum(1 for ch in text if ch.isalnum())


def text_quality(text: str) -> float:
    """Share (0..1) of the non-punctuation characters that belong to plausible tokens.

    Tokens made only of punctuation and symbols (dot leaders, rules, bullets,
    ``=``, ``→``) are ignored: they neither prove nor disprove that the layer is
    real text. A text with no other tokens scores 0.
    """
    plausible = counted = 0
    for token in text.split():
        core = token.strip(_EDGE_PUNCTUATION)
        if not any(ch.isalnum() or _is_bad(ch) for ch in core):
            continue
        counted += len(core)
        if _is_plausible_token(core):
            plausible += len(core)
    return plausible / counted if counted else 0.0


def _is_bad(ch: str) -> bool:
    return ch == "\ufffd" or unicodedata.category(ch) in _BAD_CATEGORIES


def _is_plausible_token(core: str) -> bool:
    """Mostly letters and digits, nothing unprintable, vowels where Latin words need them.

    Punctuation and symbols may sit inside a token (3.50, e-mail, R&D, ∆(a,b)),
    but a token that is mostly symbols (``7+%``) is not a word.
    """
    if any(_is_bad(ch) for ch in core):
        return False
    alnum = sum(1 for ch in core if ch.isalnum())
    if alnum * 2 < len(core):
        return False
    letters = "".join(ch for ch in core if ch.isalpha())
    if len(letters) >= _VOWEL_CHECK_LENGTH and letters.isascii() and not letters.isupper():
        # Latin words carry vowels; shifted glyph-id garbage ("Wklv lv") mostly does not.
        # Upper-case tokens are exempt: abbreviations (BHD, PTY, HTML) often have none.
        return any(ch in _VOWELS for ch in letters.lower())
    return True

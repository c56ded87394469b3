"""Two OCR readings of one page merged word by word.

A scan below 300 dpi is read twice (see :mod:`quire.engines.reader`): rendered at 300 dpi and at the
scanner's own resolution. Neither reading is better everywhere: one misreads a word the other reads
cleanly ("Bureaustoe!" / "Bureaustoel"). So the words of both are paired by where they stand on the
page, and of each group of overlapping words the more confident side is kept. What only one reading
found is kept from the reading with more confident characters on the whole page (the base), never from
the other, whose lone words are mostly specks the base rightly ignored.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from quire.engines.ocr import OcrResult, character_confidence, confident_characters
from quire.model import Word

#: two words are the same stretch of ink where their boxes share this much of the smaller box's area
SAME_INK = 0.5
#: the other reading's words replace the base's only this much more confident (tesseract's confidence
#: wavers by a few hundredths between renderings of the same word) ...
CONFIDENCE_MARGIN = 0.1
#: ... and only where they span as much of the line (not "tant" for "Montant")
SAME_WIDTH = 0.8


def merge_readings(first: OcrResult, second: OcrResult) -> OcrResult:
    """One reading of the page from two: the base is the one with more confident characters (``first`` on
    a tie); each group of words the two readings set on the same ink comes from the more confident side
    (mean character confidence, the base's on a tie). Readings of differently turned pages are not
    merged: the base is returned as it is."""
    base, other = (second, first) if confident_characters(second.words) > confident_characters(first.words) \
        else (first, second)
    if base.rotation != other.rotation or not other.words:
        return base
    groups = _ink_groups(base.words, other.words)
    kept: list[Word] = []
    for base_words, other_words in groups:
        if not base_words:
            continue  # the other reading's lone words
        better = other_words and _texts(other_words) != _texts(base_words) \
            and character_confidence(other_words) >= character_confidence(base_words) + CONFIDENCE_MARGIN \
            and _width(other_words) >= SAME_WIDTH * _width(base_words)
        kept.extend(other_words if better else base_words)
    if kept == list(base.words):
        return base
    words = tuple(kept)
    return OcrResult(_text_of(words), words, character_confidence(words), base.rotation)


def _ink_groups(base: Sequence[Word], other: Sequence[Word]) -> list[tuple[list[Word], list[Word]]]:
    """The words of both readings grouped by shared ink (connected through overlapping boxes), in the
    base's word order; groups of the other reading's words alone come last."""
    parent = list(range(len(base) + len(other)))

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    by_top = sorted(range(len(base)), key=lambda i: base[i].top)
    tops = [base[i].top for i in by_top]
    tallest = max((w.bottom - w.top for w in base), default=0.0)
    for j, word in enumerate(other):
        # only base words starting between a tallest word's height above this one and its bottom can overlap it
        for i in by_top[bisect_left(tops, word.top - tallest):bisect_right(tops, word.bottom)]:
            if _same_ink(base[i], word):
                parent[root(len(base) + j)] = root(i)
    groups: dict[int, tuple[list[Word], list[Word]]] = {}
    for i, word in enumerate(base):
        groups.setdefault(root(i), ([], []))[0].append(word)
    for j, word in enumerate(other):
        groups.setdefault(root(len(base) + j), ([], []))[1].append(word)
    return list(groups.values())


def _width(words: Sequence[Word]) -> float:
    return max(w.x1 for w in words) - min(w.x0 for w in words)


def _texts(words: Sequence[Word]) -> list[str]:
    return [w.text for w in words]


def _same_ink(a: Word, b: Word) -> bool:
    width = min(a.x1, b.x1) - max(a.x0, b.x0)
    height = min(a.bottom, b.bottom) - max(a.top, b.top)
    if width <= 0 or height <= 0:
        return False
    smaller = min((a.x1 - a.x0) * (a.bottom - a.top), (b.x1 - b.x0) * (b.bottom - b.top))
    return smaller > 0 and width * height >= SAME_INK * smaller


def _text_of(words: Sequence[Word]) -> str:
    """The words as lines of text: rows by vertical overlap, top to bottom, words left to right."""
    rows: list[list[Word]] = []
    for word in sorted(words, key=lambda w: ((w.top + w.bottom) / 2, w.x0)):
        row = rows[-1] if rows else None
        centre = (word.top + word.bottom) / 2
        if row is not None and min(w.top for w in row) <= centre <= max(w.bottom for w in row):
            row.append(word)
        else:
            rows.append([word])
    return "\n".join(" ".join(w.text for w in sorted(row, key=lambda w: w.x0)) for row in rows)

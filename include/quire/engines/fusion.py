"""Two OCR readings of one page merged word by word.

A scan is read twice (see :mod:`quire.engines.reader`), from two renderings. Neither reading is better
everywhere: one misreads a word the other reads cleanly ("Bureaustoe!" / "Bureaustoel"), and either
may lose a table row the other reads. So the words of both are paired by where they stand on the page,
and of each group of overlapping words the more confident side is kept. The base is the reading with
more confident characters on the whole page; what only the other found is added where it read it
surely and the base has no ink of its own there (a lost row), since its unsure lone words are mostly
specks the base rightly ignored.
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
#: words only the other reading found are added when read at least this surely (bench/accuracy.py, dev /
#: tune scanned rows: 88.1 / 71.8 % without them, 88.3 / 73.7 % with them)
SURE_LONE_WORD = 0.9


def merge_readings(first: OcrResult, second: OcrResult) -> OcrResult:
    """One reading of the page from two: the base is the one with more confident characters (``first`` on
    a tie); each group of words the two readings set on the same ink comes from the more confident side
    (mean character confidence, the base's on a tie); words only the other found are added where read
    surely and clear of the base's words. Readings of differently turned pages are not merged: the base
    is returned as it is."""
    base, other = (second, first) if confident_characters(second.words) > confident_characters(first.words) \
        else (first, second)
    if base.rotation != other.rotation or not other.words:
        return base
    groups, touching = ink_groups(base.words, other.words)
    kept: list[Word] = []
    for base_words, other_words in groups:
        if not base_words:
            if character_confidence(other_words) >= SURE_LONE_WORD and not any(w in touching for w in other_words):
                kept.extend(other_words)
            continue
        better = other_words and _texts(other_words) != _texts(base_words) \
            and character_confidence(other_words) >= character_confidence(base_words) + CONFIDENCE_MARGIN \
            and _width(other_words) >= SAME_WIDTH * _width(base_words)
        kept.extend(other_words if better else base_words)
    if kept == list(base.words):
        return base
    words = tuple(kept)
    return OcrResult(in_rows(words)[0], words, character_confidence(words), base.rotation)


def ink_groups(base: Sequence[Word], other: Sequence[Word]) -> tuple[list[tuple[list[Word], list[Word]]],
                                                                      set[Word]]:
    """The words of both readings grouped by shared ink (connected through overlapping boxes), in the
    base's word order; groups of the other reading's words alone come last. Also the other reading's
    words whose boxes touch a base word at all."""
    parent = list(range(len(base) + len(other)))

    def root(node: int) -> int:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    touching: set[Word] = set()
    by_top = sorted(range(len(base)), key=lambda i: base[i].top)
    tops = [base[i].top for i in by_top]
    tallest = max((w.bottom - w.top for w in base), default=0.0)
    for j, word in enumerate(other):
        # only base words starting between a tallest word's height above this one and its bottom can overlap it
        for i in by_top[bisect_left(tops, word.top - tallest):bisect_right(tops, word.bottom)]:
            shared = _shared_area(base[i], word)
            if shared > 0:
                touching.add(word)
            smaller = min(_area(base[i]), _area(word))
            if smaller > 0 and shared >= SAME_INK * smaller:  # the same stretch of ink
                parent[root(len(base) + j)] = root(i)
    groups: dict[int, tuple[list[Word], list[Word]]] = {}
    for i, word in enumerate(base):
        groups.setdefault(root(i), ([], []))[0].append(word)
    for j, word in enumerate(other):
        groups.setdefault(root(len(base) + j), ([], []))[1].append(word)
    return list(groups.values()), touching


def _width(words: Sequence[Word]) -> float:
    return max(w.x1 for w in words) - min(w.x0 for w in words)


def _texts(words: Sequence[Word]) -> list[str]:
    return [w.text for w in words]


def _area(word: Word) -> float:
    return (word.x1 - word.x0) * (word.bottom - word.top)


def _shared_area(a: Word, b: Word) -> float:
    width = min(a.x1, b.x1) - max(a.x0, b.x0)
    height = min(a.bottom, b.bottom) - max(a.top, b.top)
    return width * height if width > 0 and height > 0 else 0.0


def in_rows(words: Sequence[Word]) -> tuple[str, tuple[Word, ...]]:
    """The words as lines of text (rows by vertical overlap, top to bottom, words left to right), and the
    words in that order. A merged reading keeps its words in the base's order (the line items of scanned
    invoices read better so: bench/accuracy.py, tune scanned rows 84.7 % as merged, 83.9 % in row order),
    so what pairs words with the text's lines (line_reread.page_lines) must put them in row order first."""
    rows: list[list[Word]] = []
    for word in sorted(words, key=lambda w: ((w.top + w.bottom) / 2, w.x0)):
        row = rows[-1] if rows else None
        centre = (word.top + word.bottom) / 2
        if row is not None and min(w.top for w in row) <= centre <= max(w.bottom for w in row):
            row.append(word)
        else:
            rows.append([word])
    ordered = [sorted(row, key=lambda w: w.x0) for row in rows]
    return "\n".join(" ".join(w.text for w in row) for row in ordered), tuple(w for row in ordered for w in row)

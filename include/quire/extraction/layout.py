"""Reading order from word geometry: words -> text lines, with character offsets kept.

Extraction works on lines rather than on a page's flat text, because where a word
sits (same row as a label, right-aligned under a column header) says what it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from collections.abc import Sequence
from statistics import median

from quire.extraction.labels import QUANTITY_UNITS
from quire.extraction.normalise import (
    CURRENCY_MARKS,
    detect_currency,
    detect_language,
    find_dates,
    infer_date_order,
    infer_decimal_separator,
    parse_amount,
)
from quire.model import PageText, ParsedDocument, Word

#: two words share a line when their vertical overlap is at least this share of the smaller height
_LINE_OVERLAP = 0.5


@dataclass(frozen=True, slots=True)
class TextLine:
    """One row of words on a page, left to right, joined by single spaces."""

    page_number: int
    index: int  # position of the line on its page, top to bottom
    words: tuple[Word, ...]

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    @property
    def x0(self) -> float:
        return min(w.x0 for w in self.words)

    @property
    def x1(self) -> float:
        return max(w.x1 for w in self.words)

    @property
    def top(self) -> float:
        return min(w.top for w in self.words)

    @property
    def bottom(self) -> float:
        return max(w.bottom for w in self.words)

    @property
    def height(self) -> float:
        return median(w.bottom - w.top for w in self.words)

    @property
    def scanned(self) -> bool:
        """Whether OCR read the line: a text layer's words carry no confidence."""
        return any(w.confidence is not None for w in self.words)

    @property
    def confidence(self) -> float:
        """Mean OCR confidence of the words; 1.0 for a text layer, which has no scores."""
        scores = [w.confidence for w in self.words if w.confidence is not None]
        return sum(scores) / len(scores) if scores else 1.0

    def word_starts(self) -> tuple[int, ...]:
        """Character offset of each word inside ``text``."""
        starts, offset = [], 0
        for word in self.words:
            starts.append(offset)
            offset += len(word.text) + 1
        return tuple(starts)

    def words_in_span(self, start: int, end: int) -> tuple[Word, ...]:
        """The words that the character span ``start..end`` of ``text`` touches."""
        return tuple(w for w, s in zip(self.words, self.word_starts(), strict=True)
                     if s < end and start < s + len(w.text))

    def char_width(self) -> float:
        """Typical width of one character on this line, for judging gaps."""
        chars = sum(len(w.text) for w in self.words)
        return sum(w.x1 - w.x0 for w in self.words) / chars if chars else 1.0


def group_lines(page: PageText) -> tuple[TextLine, ...]:
    """Group a page's words into lines by vertical overlap, top to bottom, words left to right.

    A scan fed in at a slant has its word boxes turned level first (see :func:`estimate_skew`),
    so a table row stays one line across the page; the words then carry the levelled coordinates.
    """
    read = [w for w in page.words if w.confidence is not None and w.bottom > w.top]
    text_height = median(w.bottom - w.top for w in read) if read else 0.0
    words = level_words([w for w in page.words if not _is_dust(w) and not _is_flat(w, text_height)])
    rows: list[list[Word]] = []
    for word in sorted(words, key=lambda w: ((w.top + w.bottom) / 2, w.x0, w.text)):
        if not word.text.strip():
            continue
        row = rows[-1] if rows else None
        if row is not None and _overlaps(row, word):
            row.append(word)
        else:
            rows.append([word])
    rows.sort(key=lambda r: (min(w.top for w in r), min(w.x0 for w in r)))
    return tuple(TextLine(page.page_number, i, tuple(sorted(r, key=lambda w: (w.x0, w.top, w.text))))
                 for i, r in enumerate(rows))


def _is_dust(word: Word) -> bool:
    """OCR of scanner dust or a table rule: punctuation only, hair-thin or barely recognised.
    Text-layer words (no confidence) are never dropped."""
    if word.confidence is None or any(ch.isalnum() for ch in word.text):
        return False
    return word.x1 - word.x0 < 1.5 or word.confidence < 0.4


#: an OCR word of letters or digits less high than this share of the page's median word height is a rule or a
#: row of dots or dashes read as letters ("LEE" 0.4 pt high over a 2 pt line): no letter or digit is that flat
#: (a point, a colon, a hyphen or an underscore is)
_FLAT_SHARE = 0.25


def _is_flat(word: Word, text_height: float) -> bool:
    """OCR of a separator: letters or digits in a box far flatter than the page's text. Such a box, grouped
    first, takes the amount beside it into a line of its own, away from its label. Text-layer words are never
    dropped."""
    return (word.confidence is not None and word.bottom - word.top < _FLAT_SHARE * text_height
            and any(ch.isalnum() for ch in word.text))


def _adjacent_lines(lines: Sequence[TextLine], position: int) -> list[TextLine]:
    """The lines right above and below a line, without the specks that are all some lines hold
    (a line of nothing but specks between a label and its value is no neighbour)."""
    found = []
    for step in (-1, 1):
        other = position + step
        while 0 <= other < len(lines):
            words = tuple(w for w in lines[other].words if not _is_pinprick(w))
            if words:
                found.append(TextLine(lines[other].page_number, lines[other].index, words))
                break
            other += step
    return found


def _is_pinprick(word: Word) -> bool:
    """An OCR word whose box is a dot of a pixel or so each way: a speck read as a letter or digit
    ("4", "a" beside a scanned value), never printed text."""
    return word.confidence is not None and word.x1 - word.x0 <= 1.5 and word.bottom - word.top <= 1.5


#: text turned by less than this (dy per dx, ~0.2 degrees) is read as it is
_MIN_SKEW = 0.004
#: steeper slants (~4 degrees) are not levelled: neighbours on one line are no longer recognisable
_MAX_SKEW = 0.07
_DESCENDERS = re.compile(r"[gjpqy,;()\[\]{}|/]")


def estimate_skew(words: Sequence[Word]) -> float:
    """The slant of the text lines (dy per dx, y pointing down), or 0.0 without clear evidence.

    A projection profile: for each candidate slant, the baselines (bottoms of words without
    descenders) are projected along it into bins of a tenth of the text height; the slant that
    piles them into the fewest, fullest bins (largest sum of squared counts) is the page's.
    Level wins unless a slant is clearly better, so text-layer pages stay exactly as they are.
    """
    usable = [w for w in words if w.bottom > w.top and w.text.strip() and not _DESCENDERS.search(w.text)]
    points = _baseline_points(usable)
    if len(points) < 12:  # a few piles of points line up along some slant by chance
        return 0.0
    heights = sorted(w.bottom - w.top for w in usable)
    bin_size = max(heights[len(heights) // 2] / 10, 0.2)

    def sharpness(slope: float) -> int:
        counts: dict[int, int] = {}
        for x, y in points:
            key = int((y - slope * x) // bin_size)
            counts[key] = counts.get(key, 0) + 1
        return sum(c * c for c in counts.values())

    level = sharpness(0.0)
    steps = round(_MAX_SKEW / _SKEW_STEP)
    best_slope, best = 0.0, level
    for step in range(-steps, steps + 1):
        slope = step * _SKEW_STEP
        score = sharpness(slope)
        if score > best:
            best_slope, best = slope, score
    return best_slope if best > _CLEARLY_BETTER * level else 0.0


def _baseline_points(words: Sequence[Word]) -> list[tuple[float, float]]:
    """The bottom centre of each word, where OCR words next to one another with exactly the same top
    and bottom count once, at the run's centre: tesseract gives the words of a phrase its box, so a
    slanted table's three-word descriptions, each on one level, would outvote its number columns,
    whose words are boxed one by one along the slant. Text-layer words (no confidence) all count:
    a digital page's words of one font share their box by design."""
    points: list[tuple[float, float]] = []
    run: list[Word] = []
    for word in (*words, None):
        if run and word is not None and word.confidence is not None and run[-1].confidence is not None \
                and (word.top, word.bottom) == (run[-1].top, run[-1].bottom):
            run.append(word)
            continue
        if run:
            points.append(((run[0].x0 + run[-1].x1) / 2, run[0].bottom))
        run = [word] if word is not None else []
    return points


#: the slants tried, and how much sharper than level a slant must be to be believed
_SKEW_STEP = 0.002
_CLEARLY_BETTER = 1.25


def level_words(words: Sequence[Word]) -> tuple[Word, ...]:
    """Words turned about the page origin so that slanted text lines become level (x and y both move:
    a column far down a slanted page drifts sideways too). Unchanged when the slant is negligible."""
    skew = estimate_skew(words)
    if abs(skew) < _MIN_SKEW or abs(skew) > _MAX_SKEW:
        return tuple(words)
    levelled = []
    for w in words:
        cx, cy = (w.x0 + w.x1) / 2, (w.top + w.bottom) / 2
        dx, dy = skew * cy, -skew * cx
        levelled.append(Word(w.text, w.x0 + dx, w.top + dy, w.x1 + dx, w.bottom + dy, w.confidence))
    return tuple(levelled)


def _overlaps(row: list[Word], word: Word) -> bool:
    # judged against the row's words of about this word's size: a large title beside a letterhead
    # overlaps several of its small lines, which must not become one row through it
    similar = [w for w in row if not _much_taller(w, word) and not _much_taller(word, w)] or row
    top = median(w.top for w in similar)
    bottom = median(w.bottom for w in similar)
    overlap = min(bottom, word.bottom) - max(top, word.top)
    smaller = min(bottom - top, word.bottom - word.top)
    return smaller > 0 and overlap >= _LINE_OVERLAP * smaller


def _much_taller(a: Word, b: Word) -> bool:
    return (a.bottom - a.top) >= _SIZE_JUMP * max(b.bottom - b.top, 1e-6)


#: words further apart than this many characters stand in different blocks (cells, columns, side-by-side text)
BLOCK_GAP_CHARS = 2.5
#: ... or, after a word ending with a comma, this many times as far apart
_AFTER_COMMA = 2


def split_segments(line: TextLine, gap_chars: float = BLOCK_GAP_CHARS) -> tuple[TextLine, ...]:
    """Cut a line where words are further apart than ``gap_chars`` characters (side-by-side blocks; twice
    as far after a comma), or where a text layer's type size jumps (a logo's large initials beside a line
    of body text)."""
    limit = gap_chars * line.char_width()
    segments: list[list[Word]] = [[line.words[0]]]
    for previous, word in zip(line.words, line.words[1:], strict=False):
        # a comma says the text goes on: "Austin," "TX 78701", where OCR boxed the small capitals narrower
        # than their ink and so widened the space before them
        gap_limit = _AFTER_COMMA * limit if previous.text.endswith(",") else limit
        if word.x0 - previous.x1 > gap_limit or _size_jump(previous, word):
            segments.append([])
        segments[-1].append(word)
    return tuple(TextLine(line.page_number, line.index, tuple(words)) for words in segments)


#: a word with a capital, a digit or an ascender is as tall as the type size (x-height words are not)
_FULL_HEIGHT = re.compile(r"[A-Z0-9bdfhklt]")
#: neighbouring full-height words this many times taller than one another are set in different sizes
_SIZE_JUMP = 1.6


def _size_jump(a: Word, b: Word) -> bool:
    """Whether two neighbouring words of a text layer are set in different type sizes.

    OCR's word boxes (words with a confidence) are not compared: they follow the ink, with the descenders
    and accents of "République" and the specks a scan sets beside "6003", not the type. In the scans of
    dev 000-059, 119 pairs of neighbouring words were boxed 1.6 times as tall as one another, none of them
    set in two sizes. The cut took a word (a street number, a postcode, "République") from 15 addresses of
    dev-scanned and tune-scanned that read whole without it."""
    if a.confidence is not None or b.confidence is not None:
        return False
    if not (_FULL_HEIGHT.search(a.text) and _FULL_HEIGHT.search(b.text)):
        return False
    ha, hb = a.bottom - a.top, b.bottom - b.top
    return min(ha, hb) > 0 and max(ha, hb) / min(ha, hb) >= _SIZE_JUMP


def document_lines(parsed: ParsedDocument) -> tuple[TextLine, ...]:
    """All lines of all pages in reading order."""
    return tuple(line for page in parsed.pages for line in group_lines(page))


@dataclass(frozen=True, slots=True)
class DocumentContext:
    """What every field rule needs to know about the document as a whole."""

    lines: tuple[TextLine, ...]
    language: str | None
    currency: str | None
    decimal_separator: str | None
    date_order: str  # "dmy" or "mdy"


def build_context(parsed: ParsedDocument) -> DocumentContext:
    """Lines in reading order plus the document-wide conventions (language, currency, date order)."""
    lines = document_lines(parsed)
    text = "\n".join(line.text for line in lines)
    language = detect_language(text)
    currency = detect_currency(text)
    return DocumentContext(lines, language, currency, infer_decimal_separator(text),
                           infer_date_order(find_dates(text), language, currency))


def text_below(lines: Sequence[TextLine], position: int, start: int, end: int, max_lines: int = 2) -> list[
        tuple[str, TextLine]]:
    """Text printed under a label (the label's x-range, widened a little), nearest line first."""
    return _text_in_column(lines, position, start, end, _lines_with_text(lines[position + 1:], max_lines))


def text_above(lines: Sequence[TextLine], position: int, start: int, end: int, max_lines: int = 2) -> list[
        tuple[str, TextLine]]:
    """Text printed over a label (a caption set under its value), nearest line first."""
    return _text_in_column(lines, position, start, end, _lines_with_text(lines[:position][::-1], max_lines))


def _lines_with_text(lines: Sequence[TextLine], count: int) -> list[TextLine]:
    """The first ``count`` of ``lines`` that hold more than pinprick specks (a line of nothing but specks
    between a caption and its value is no line of the column)."""
    found = []
    for line in lines:
        if len(found) == count:
            break
        if not all(_is_pinprick(w) for w in line.words):
            found.append(line)
    return found


def _text_in_column(lines: Sequence[TextLine], position: int, start: int, end: int,
                    candidates: Sequence[TextLine]) -> list[tuple[str, TextLine]]:
    line = lines[position]
    label_words = line.words_in_span(start, end)
    x0, x1 = min(w.x0 for w in label_words), max(w.x1 for w in label_words)
    slack = 3 * line.char_width()
    below = []
    for candidate in candidates:
        gap = candidate.top - line.bottom if candidate.index > line.index else line.top - candidate.bottom
        if candidate.page_number != line.page_number or gap > 3 * line.height:
            break
        # whole blocks that reach under the label: a value is often wider than its label
        words = [w for segment in split_segments(candidate)
                 if segment.x1 > x0 - slack and segment.x0 < x1 + slack
                 for w in segment.words if w.x1 > x0 - slack]
        if words:
            below.append((" ".join(w.text for w in words), candidate))
    return below


def text_right(lines: Sequence[TextLine], position: int, end: int, max_gap_chars: float = 30) -> str | None:
    """The block right of a label whose value is set a little higher or lower than the label itself,
    so that it fell into a neighbouring line (boxed layouts, scans): the nearest block on an adjacent
    line of the same page whose vertical centre is within 3/4 of the label's height of the label's."""
    line = lines[position]
    label_words = line.words_in_span(0, end)
    if not label_words:
        return None
    label = label_words[-1]
    top, bottom = min(w.top for w in label_words), max(w.bottom for w in label_words)
    label_centre, reach = (top + bottom) / 2, 0.75 * (bottom - top)
    limit = label.x1 + max_gap_chars * line.char_width()
    best: tuple[float, TextLine] | None = None
    for neighbour in _adjacent_lines(lines, position):
        if neighbour.page_number != line.page_number:
            continue
        for segment in split_segments(neighbour):
            centre = (segment.top + segment.bottom) / 2
            if label.x1 < segment.x0 < limit and abs(centre - label_centre) <= reach \
                    and (best is None or segment.x0 < best[0]):
                best = (segment.x0, segment)
    return best[1].text if best is not None else None


# -- numbers on a line -----------------------------------------------------------------------------------

_NUMERIC_WORD = re.compile(r"^[-−(]?(?:RM|[PF]M(?=\d)|[$€£¥])?[-−]?\d[\d.,'’]*\)?-?$", re.IGNORECASE)
_GROUP_TAIL = re.compile(r"^\d{3}(?:[.,]\d{1,2})?$")
_GROUP_HEAD = re.compile(r"^[-−]?\d{1,3}$")
_SPLIT_POINT = re.compile(r"^(?:RM|[$€£])?\d+[.,]$", re.IGNORECASE)
#: a point or comma OCR read after an amount's cents ("14880.53,", "150.00." from a speck or a rule)
_TRAILING_MARK = re.compile(r"(?<=[.,]\d\d)[.,]$")
#: a currency sign set right after the digits ("3,13€"; OCR loses the thin space of "3,13 €")
_TRAILING_CURRENCY = re.compile(r"(?<=\d)[€£$¥]$")
#: what OCR makes of a speck or a rule's end right before a number on a faint print ("„23,35", "‘4,29", "_3")
_LEADING_MARKS = "„‚‘’“”\"'`_~"
#: a table's vertical rule that OCR read onto the end of a cell's number ("20|", "369.00}", "1124.00]")
_RULE_MARKS = "|!}]"
#: a quantity whose unit OCR set onto it ("11.75h", "25pcs", "7.5m_" with a speck): the number is the quantity
_GLUED_UNIT = re.compile(rf"^(\d+(?:[.,]\d+)?){QUANTITY_UNITS}_?$", re.IGNORECASE)


def _without_rule_marks(text: str) -> str:
    """A number word without the rule OCR joined to it; a closing parenthesis without its opening one
    ("78.00)") is a rule too, while "(78.00)" stays a negative amount."""
    text = text.rstrip(_RULE_MARKS).lstrip("|[{")
    return text[:-1] if text.endswith(")") and "(" not in text else text


#: a currency printed as a word of its own beside its amount ("USD 61.85", "21,92 €")
_CURRENCY_WORD = re.compile(rf"^(?:{CURRENCY_MARKS})$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class NumberToken:
    """A number printed on a line, with where it sits (for column alignment)."""

    value: Decimal
    text: str
    x0: float
    x1: float
    has_fraction: bool  # printed with decimal places, as money usually is


def find_numbers(line: TextLine, decimal_separator: str | None) -> tuple[NumberToken, ...]:
    """Numbers on a line, left to right; "1 234,56" split over two close words is one number.

    Percentages, times and dates are not numbers here: they never are amounts. A currency
    printed as a separate word right before or after a number is part of its box, so that the
    number's column and the description around it are judged with the currency included.
    """
    tokens: list[NumberToken] = []
    words = list(line.words)
    # a space used as a thousands separator ("1 234,56") is a convention of decimal-comma documents;
    # elsewhere only a gap narrower than a character joins two digit groups. OCR boxes the ink, so a
    # narrow head ("1") stands further from its group than the printed space
    gap_limit = ((1.5 if line.scanned else 1.05) if decimal_separator == "," else 0.6) * line.char_width()
    i = 0
    while i < len(words):
        word = words[i]
        text = _TRAILING_CURRENCY.sub("", _TRAILING_MARK.sub("", _without_rule_marks(
            word.text.strip(":;*").lstrip(_LEADING_MARKS))))
        glued = _GLUED_UNIT.match(text) if line.scanned else None
        if glued:
            text = glued.group(1)
        if not _NUMERIC_WORD.match(text) or "%" in text:
            i += 1
            continue
        start, x1 = i, word.x1
        # OCR splits "73.00" at the point now and then ("73. 00"): the cents belong to the number
        if (i + 1 < len(words) and _SPLIT_POINT.match(text) and re.fullmatch(r"\d{2}", words[i + 1].text)
                and words[i + 1].x0 - x1 <= 1.5 * line.char_width()):
            text, x1 = text + words[i + 1].text, words[i + 1].x1
            i += 1
        while (i + 1 < len(words) and _GROUP_HEAD.match(text.split()[-1]) is not None
               and _GROUP_TAIL.match(words[i + 1].text) and words[i + 1].x0 - x1 <= gap_limit):
            text, x1 = text + " " + words[i + 1].text, words[i + 1].x1
            i += 1
        value = parse_amount(text, decimal_separator)
        following = words[i + 1] if i + 1 < len(words) else None
        if following is not None and following.text == "%" and following.x0 - x1 <= line.char_width():
            i += 2  # "10 %": a rate with its sign set apart
            continue
        if value is not None:
            plain = text.replace(" ", "")
            has_fraction = bool(re.search(r"[.,]\d{1,3}\)?-?$", plain)) and not _is_grouped_integer(
                plain, decimal_separator)
            x0 = word.x0
            before = words[start - 1] if start > 0 else None
            if before is not None and _CURRENCY_WORD.match(before.text) and x0 - before.x1 <= line.char_width():
                x0 = before.x0
            if following is not None and _CURRENCY_WORD.match(following.text) \
                    and following.x0 - x1 <= line.char_width():
                x1 = following.x1
            tokens.append(NumberToken(value, text, x0, x1, has_fraction))
        i += 1
    return tuple(tokens)


def _is_grouped_integer(text: str, decimal_separator: str | None) -> bool:
    """True for "1,234" in a document whose decimal separator is "." (a grouped integer)."""
    match = re.search(r"([.,])\d{3}\)?-?$", text)
    return bool(match) and decimal_separator is not None and match.group(1) != decimal_separator

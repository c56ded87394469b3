"""Receipt lines read a second time, one line at a time, enlarged, and the better reading kept.

Tesseract reads a photographed till receipt page-wide with one scale and one threshold, and
loses letters where the print is small, faint or the photo soft: "SDN BHD" as "SON BHO", a
vendor's name as specks. Read again on its own, cut out by its word boxes with the lines
above and below whitened and enlarged to about 40 px text height, a line usually reads more
confidently. The enlarged lines are stacked on one sheet, so a page costs ONE more tesseract
call, not one per line (about 1 s of tesseract a receipt page).

A line's second reading replaces its first only when it is more confident and prints the
same numbers, separators included: amounts and dates were read right far more often than they
were improved, so a re-read that changes a digit, turns "15.90" into "15,90" or splits an
invoice number in two is a misreading of the cut-out, not a repair (except where the page
reading found no date on the line and the re-read finds one, keeping the line's amounts:
"1770372018" -> "17/03/2018", separators the page reading took for digits). Nor may it change what the
extraction reads the line by: its dates (month names are letters), the field labels it holds
("Change" misread as "Changa" turned a receipt's type to "other") and its currency (a "$" for
"RM" decides the date order of the whole document: without that check the re-read cost one
SROIE issue date).

Where the two readings print different numbers on a line, a third reading decides: the disputed
lines alone, cut out again at 1.5 times the size (``CONFIRMING_LINE_HEIGHT``), on a second sheet (one
more tesseract call, only on pages with a dispute). On a line with an amount, a date or a time, a
re-read whose numbers the third reading prints too (or, number by number, one of the other two)
replaces the first reading, whatever their confidences: the agreeing readings come from other pixels than the first, so they rarely share its
misreading ("Total 91.00" / "9.00" / "9.00"), and may bring back a currency the first lost ("M7.5"
for "RM7.50") where the third prints it too. On the 18 receipts of the SROIE tune half, the ground
truth's boxes with an amount, date or time whose numbers are read exactly went from 186 to 196 of
271 (region CER 7.13 -> 6.85 %), for about 0.45 s more tesseract a page (8 s over the 18).

Only pages of one narrow column (receipts, see ``COLUMN_ASPECT_RATIO``, or text no wider than a till
roll's, ``RECEIPT_COLUMNS``) are read again:
full-page invoices have table columns that a line cut-out would run together, and they are
read well at the page scale.
"""

from __future__ import annotations

import logging
import re
import statistics
import tempfile
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import numpy as np
from PIL import Image, ImageOps

from quire.engines.language import detect_language
from quire.engines.ocr import (_UPRIGHT_TRANSPOSE, COLUMN_ASPECT_RATIO, OcrEngine, OcrResult, TesseractEngine,
                               character_confidence)
from quire.engines.preprocess import MAX_UPSCALE, ink_aspect_ratio
from quire.errors import EngineError
from quire.extraction import labels
from quire.extraction.normalise import detect_currency, find_dates
from quire.model import Word

log = logging.getLogger(__name__)

#: a cut-out line is enlarged (never shrunk) so that its word boxes are about this many pixels high
LINE_HEIGHT = 40
#: the height the disputed lines are enlarged to for the third reading: another scale than the first
#: two readings, whose misreadings it should not share
CONFIRMING_LINE_HEIGHT = 60
#: a page whose text is at most this many characters wide is a till roll, however it was photographed:
#: thermal printers print 32-48 characters a line on 80 mm paper. SROIE 448 and 580 measure 45 and 43
#: (photos wider than their receipt: ink aspect ratio 1.57 and 1.66); of the 464 pages of the 400
#: generated scanned documents (dev and tune), the 5 under 50 with an aspect ratio under 1.75 are all
#: receipt rolls (42-43), and the narrowest invoice page measures 51
RECEIPT_COLUMNS = 48
#: tesseract's mode for the sheet: one column of lines of varying size (psm 6 merges the stacked lines)
SHEET_SEGMENTATION = 4
#: the cut-out reaches this share of the line height above and below the word boxes (accents, descenders)
_VERTICAL_MARGIN = 0.25
#: ... and this many line heights left and right
_HORIZONTAL_MARGIN = 0.5
#: white rows between two lines on the sheet, in multiples of LINE_HEIGHT
_SHEET_GAP = 0.6
#: the resolution the sheet is declared at; words come back in its points and are mapped to the page
SHEET_DPI = 300
#: tesseract refuses images over 32767 pixels a side; a receipt line enlarged is far narrower
_MAX_SHEET_WIDTH = 6000
#: part of the settings key: bump when the cut-out, the sheet or the choice of readings changes
_VERSION = 6


@dataclass(frozen=True, slots=True)
class _Strip:
    """One line on the sheet: where it sits there, and where it came from on the page (pixels)."""

    line: int  # index into the page's lines
    sheet_top: int
    sheet_bottom: int
    page_x0: float
    page_top: float
    scale: float  # sheet pixels per page pixel


class SheetReader:
    """A sheet of enlarged lines read as it is (no preprocessing, no OSD), in one segmentation mode.

    An engine of its own so that the sheet's reading is cached by the sheet's pixels like a page's,
    and the choice between readings can change without reading any sheet again.
    """

    def __init__(self, reader: TesseractEngine) -> None:
        self.reader = reader
        self.name = reader.name
        # the same key for the sheet of every line and the sheet of the disputed ones: the pixels differ
        self.settings_key = f"sheet:psm={SHEET_SEGMENTATION}:[{reader.settings_key}]"

    @property
    def version(self) -> str:
        return self.reader.version

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        with tempfile.TemporaryDirectory(prefix="quire-lines-") as scratch:
            return self.reader.read_as_is(image, dpi, Path(scratch) / "sheet.pnm", SHEET_SEGMENTATION)


class LineRereadEngine:
    """``inner``'s reading, with the lines of receipt-shaped pages read again on one sheet by ``reader``
    (with the model of the page's language too, as detected from its first reading, where it is one of
    ``languages``), cached under ``cache_dir`` if given."""

    def __init__(self, inner: OcrEngine, reader: TesseractEngine, cache_dir: Path | None = None,
                 languages: Collection[str] = ()) -> None:
        self.inner = inner
        self.reader = reader
        self.cache_dir = cache_dir
        self.languages = frozenset(languages)
        self.name = inner.name
        self.settings_key = (f"{inner.settings_key};line_reread=v{_VERSION}:h{LINE_HEIGHT}"
                             f":confirm-h{CONFIRMING_LINE_HEIGHT}@{COLUMN_ASPECT_RATIO:g}"
                             f"|{RECEIPT_COLUMNS}cols:[{SheetReader(reader).settings_key}]"
                             f":languages={'+'.join(sorted(self.languages))}")

    @property
    def version(self) -> str:
        return self.inner.version

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        first = self.inner.recognize(image, dpi)
        if not first.words:
            return first
        grey = upright_grey(image, first.rotation)
        if not is_receipt_page(grey, first):
            return first
        lines = page_lines(first)
        sheet, strips = build_sheet(grey, dpi, lines)
        if not strips:
            return first
        language = detect_language(first.text)
        sheet_reader = self._sheet_reader(language if language in self.languages else None)
        try:
            sheet_reading = sheet_reader.recognize(sheet, SHEET_DPI)
        except EngineError as exc:
            # the page's own reading is complete; the re-read only improves it
            log.warning("line re-read failed, keeping the page reading: %s", exc)
            return first
        rereads = map_back(sheet_reading.words, strips, dpi)
        chosen = [choose_reading(line, rereads.get(number, [])) for number, line in enumerate(lines)]
        disputed = {number for number, line in enumerate(lines)
                    if chosen[number] is line and is_disputed(line, rereads.get(number, []))}
        if disputed:
            third = self._third_readings(sheet_reader, grey, dpi, lines, disputed)
            for number in disputed:
                chosen[number] = confirmed_reading(lines[number], rereads[number], third.get(number, []))
        return first if chosen == lines else result_from_lines(first, chosen)

    def _third_readings(self, sheet_reader: OcrEngine, grey: Image.Image, dpi: float, lines: list[list[Word]],
                        disputed: set[int]) -> dict[int, list[Word]]:
        """The disputed lines read once more, larger, on a sheet of their own; nothing if that fails."""
        sheet, strips = build_sheet(grey, dpi, lines, line_height=CONFIRMING_LINE_HEIGHT, only=disputed)
        if not strips:
            return {}
        try:
            return map_back(sheet_reader.recognize(sheet, SHEET_DPI).words, strips, dpi)
        except EngineError as exc:
            log.warning("third reading of disputed lines failed, keeping the first: %s", exc)
            return {}

    def _sheet_reader(self, language: str | None) -> OcrEngine:
        reader = SheetReader(self.reader.with_languages(f"{language}+{self.reader.languages}")
                             if language else self.reader)
        if self.cache_dir is None:
            return reader
        from quire.engines.ocr_cache import CachedOcrEngine

        return CachedOcrEngine(reader, self.cache_dir)


def upright_grey(image: Image.Image, rotation: int) -> Image.Image:
    """``image`` in grey, turned the way a reading turned it to read it upright."""
    grey = image if image.mode == "L" else ImageOps.grayscale(image)
    return grey.transpose(_UPRIGHT_TRANSPOSE[rotation]) if rotation else grey


def is_receipt_page(grey: Image.Image, reading: OcrResult) -> bool:
    """Whether the upright page ``reading`` read is a till receipt: its ink one narrow column, or its text no
    wider than a till roll's (``RECEIPT_COLUMNS``)."""
    return ink_aspect_ratio(grey) >= COLUMN_ASPECT_RATIO or 0 < print_columns(reading) <= RECEIPT_COLUMNS


def read_receipt_page(image: Image.Image, reading: OcrResult) -> bool:
    """Whether ``reading`` of ``image`` read words on a till receipt (:func:`is_receipt_page`)."""
    return bool(reading.words) and is_receipt_page(upright_grey(image, reading.rotation), reading)


def print_columns(result: OcrResult) -> float:
    """How many characters wide the page's text is: the extent of its words (without the outer 2 % at
    each side: specks, the edge of the table a receipt lies on) over the median character width of its
    words of 3+ letters and digits; 0 with fewer than 5 such words."""
    sized = [w for w in result.words if len(w.text) >= 3 and w.text.isalnum()]
    if len(sized) < 5:
        return 0.0
    character = statistics.median((w.x1 - w.x0) / len(w.text) for w in sized)
    lefts, rights = sorted(w.x0 for w in result.words), sorted(w.x1 for w in result.words)
    trim = len(lefts) // 50
    return (rights[-1 - trim] - lefts[trim]) / character if character > 0 else 0.0


def page_lines(result: OcrResult) -> list[list[Word]]:
    """The result's words grouped into its text lines (``parse_tsv`` joins a line's words with spaces)."""
    lines: list[list[Word]] = []
    words = iter(result.words)
    for text in result.text.split("\n"):
        count = len(text.split()) if text.strip() else 0
        if count:
            lines.append([next(words) for _ in range(count)])
    return lines


def build_sheet(grey: Image.Image, dpi: float, lines: list[list[Word]], *, line_height: int = LINE_HEIGHT,
                only: set[int] | None = None) -> tuple[Image.Image, list[_Strip]]:
    """Every line (or the lines numbered in ``only``) cut out of the upright page (its neighbours' words
    whitened), enlarged to ``line_height`` pixels, stacked."""
    to_pixels = dpi / 72.0
    pixels = np.asarray(grey, dtype=np.uint8)
    height, width = pixels.shape
    boxes = [[(w.x0 * to_pixels, w.top * to_pixels, w.x1 * to_pixels, w.bottom * to_pixels) for w in line]
             for line in lines]
    pieces: list[tuple[int, np.ndarray, float, float, float]] = []
    for number, line_boxes in enumerate(boxes):
        if only is not None and number not in only:
            continue
        heights = sorted(b[3] - b[1] for b in line_boxes)
        own_height = heights[len(heights) // 2]
        if own_height < 4:
            continue  # specks: nothing to enlarge
        x0 = max(0, int(min(b[0] for b in line_boxes) - _HORIZONTAL_MARGIN * own_height))
        x1 = min(width, int(max(b[2] for b in line_boxes) + _HORIZONTAL_MARGIN * own_height) + 1)
        top = max(0, int(min(b[1] for b in line_boxes) - _VERTICAL_MARGIN * own_height))
        bottom = min(height, int(max(b[3] for b in line_boxes) + _VERTICAL_MARGIN * own_height) + 1)
        crop = pixels[top:bottom, x0:x1].copy()
        own = np.zeros(crop.shape, dtype=bool)
        for bx0, btop, bx1, bbottom in line_boxes:
            own[max(0, int(btop) - top):max(0, int(bbottom) + 1 - top), max(0, int(bx0) - x0):max(0, int(bx1) + 1 - x0)] = True
        for other, other_boxes in enumerate(boxes):
            if other == number:
                continue
            for bx0, btop, bx1, bbottom in other_boxes:
                if bx1 < x0 or bx0 > x1 or bbottom < top or btop > bottom:
                    continue
                region = (slice(max(0, int(btop) - top), max(0, int(bbottom) + 1 - top)),
                          slice(max(0, int(bx0) - x0), max(0, int(bx1) + 1 - x0)))
                crop[region] = np.where(own[region], crop[region], 255)
        scale = min(MAX_UPSCALE, max(1.0, line_height / own_height))
        if (x1 - x0) * scale > _MAX_SHEET_WIDTH:
            continue  # a "line" wider than any receipt's: words of several columns or a misread rule
        pieces.append((number, crop, scale, x0, top))
    if not pieces:
        return Image.new("L", (1, 1), 255), []
    gap = round(_SHEET_GAP * line_height)
    enlarged = []
    for number, crop, scale, x0, top in pieces:
        piece = Image.fromarray(crop)
        size = (max(1, round(piece.width * scale)), max(1, round(piece.height * scale)))
        enlarged.append((number, piece.resize(size, Image.Resampling.LANCZOS), scale, x0, top))
    sheet_width = max(piece.width for _, piece, *_ in enlarged) + 2 * gap
    sheet_height = sum(piece.height for _, piece, *_ in enlarged) + gap * (len(enlarged) + 1)
    sheet = Image.new("L", (sheet_width, sheet_height), 255)
    strips = []
    y = gap
    for number, piece, scale, x0, top in enlarged:
        sheet.paste(piece, (gap, y))
        # words are mapped back from sheet pixels: page = origin + (sheet - offset) / scale
        strips.append(_Strip(number, y, y + piece.height, x0 - gap / scale, top - y / scale, scale))
        y += piece.height + gap
    return sheet, strips


def map_back(sheet_words: tuple[Word, ...], strips: list[_Strip], dpi: float) -> dict[int, list[Word]]:
    """The sheet's words, each in the page line whose strip holds its centre, in page points."""
    to_sheet_pixels = SHEET_DPI / 72.0
    to_points = 72.0 / dpi
    found: dict[int, list[Word]] = {}
    for word in sheet_words:
        centre = (word.top + word.bottom) / 2 * to_sheet_pixels
        strip = next((s for s in strips if s.sheet_top <= centre < s.sheet_bottom), None)
        if strip is None:
            continue

        def page(x: float, origin: float, strip: _Strip = strip) -> float:
            return (origin + x * to_sheet_pixels / strip.scale) * to_points

        found.setdefault(strip.line, []).append(Word(
            word.text, page(word.x0, strip.page_x0), page(word.top, strip.page_top),
            page(word.x1, strip.page_x0), page(word.bottom, strip.page_top), word.confidence))
    for words in found.values():
        words.sort(key=lambda w: w.x0)
    return found


def choose_reading(first: list[Word], second: list[Word]) -> list[Word]:
    """The line's second reading where it is more confident, prints the same numbers and keeps every
    date and field label of the first; else the first. The line is taken whole: a word-by-word merge
    of the two readings gained nothing and made "MALAYSIA" "MALAYSTA".
    """
    if not second or character_confidence(second) <= character_confidence(first):
        return first
    if printed_numbers(first) != printed_numbers(second) and not date_repaired(first, second):
        return first
    if _dates(first) and _dates(first) != _dates(second):
        return first  # "17 APR 2018" misread as "17 AFR 2018": letters can carry a date too
    if _currency(first) != _currency(second):
        return first  # a "$" where "RM" was printed changes how every date of the document reads
    if not _labels(first) <= _labels(second):
        return first  # "Change Due" misread as "Changa Due": the label names what the line's amount is
    return _in_place(first, second)


def _in_place(first: list[Word], second: list[Word]) -> list[Word]:
    """The second reading's words where the page reading put the line: the layout groups words into lines
    by their boxes."""
    top, bottom = min(w.top for w in first), max(w.bottom for w in first)
    return [Word(w.text, w.x0, max(w.top, top), w.x1, min(w.bottom, bottom), w.confidence) for w in second]


def is_disputed(first: list[Word], second: list[Word]) -> bool:
    """Whether the two readings of a line print different numbers (the second may have lost them)."""
    return bool(second) and printed_numbers(second) != printed_numbers(first)


def confirmed_reading(first: list[Word], second: list[Word], third: list[Word]) -> list[Word]:
    """The second reading of a disputed line that prints an amount, a date or a time, where a third reading
    prints the second's numbers (two readings of other pixels against one) and it keeps the first's currency
    and labels (or it lost the currency, which the third reading prints too); else the first. Confidence does
    not count: tesseract is as sure of "91.00" as of "9.00".

    Postcodes, phone and registration numbers stay as the page read them: no field is read from them, and
    the letters around them read worse in the re-read (SROIE tune half: region CER 6.97 % with them, 6.94 %
    without, with as many amounts and dates read right).
    """
    if not is_disputed(first, second) or \
            not _outvoted(printed_numbers(first), printed_numbers(second), printed_numbers(third)):
        return first
    if not (prints_amount_or_date(first) or prints_amount_or_date(second)):
        return first
    if "".join(printed_numbers(first)) == "".join(printed_numbers(second)) or (_dates(first) and not _dates(second)):
        # the same digits split apart, or a date lost: the cut-outs' shared misreading ("2026-06-1 1"
        # for "2026-06-11" in both: the enlarged gap between two ones), not the page's
        return first
    # a currency the first reading lost ("M7.5" for "RM7.50") may come back where the third reading prints it
    lost_currency = _currency(first) is None and _currency(second) == _currency(third)
    if (_currency(first) != _currency(second) and not lost_currency) or not _labels(first) <= _labels(second):
        return first
    return _in_place(first, second)


#: an amount of money as a receipt prints it ("9.00", "7,838.80", "68. 87" as OCR spaces it)
AMOUNT = re.compile(r"\d[.,] ?\d\d(?!\d)")
#: an amount or a time of day ("8:13:39")
_AMOUNT_OR_TIME = re.compile(rf"{AMOUNT.pattern}|(?<!\d)\d{{1,2}}:\d\d")


def prints_amount_or_date(words: Sequence[Word]) -> bool:
    """Whether a line prints an amount, a date or a time: the numbers the extraction reads fields from."""
    text = " ".join(w.text for w in words)
    return bool(_AMOUNT_OR_TIME.search(text) or find_dates(text))


def _outvoted(first: list[str], second: list[str], third: list[str]) -> bool:
    """Whether the second reading's numbers win the vote: the third prints them all, or, the three printing as
    many numbers, each of the second's is the first's or the third's at its place ("10/03/2018 5:41:08",
    "10/03/2018 5:41:06", "10/03/2078 5:41:06": the date two readings print, and the time)."""
    if not second:
        return False
    if second == third:
        return True
    return len(first) == len(second) == len(third) and all(
        s in (f, t) for f, s, t in zip(first, second, third, strict=True))


def result_from_lines(first: OcrResult, lines: list[list[Word]]) -> OcrResult:
    """An OcrResult with these lines, keeping the first reading's blank lines between blocks."""
    texts = iter(" ".join(w.text for w in line) for line in lines)
    text = "\n".join(next(texts) if original.strip() else "" for original in first.text.split("\n"))
    words = tuple(w for line in lines for w in line)
    return OcrResult(text, words, character_confidence(words), first.rotation)


#: a number as printed: digits with the separators between them ("17/04/18", "15.90", "2,70", "7")
_NUMBER = re.compile(r"\d(?:[\d.,:/-]*\d)?")


def printed_numbers(words: Sequence[Word]) -> list[str]:
    """The line's numbers as printed, separators and splits included: "15,90" is not "15.90",
    "OR18061602170510" not "OR180616021 70510"."""
    return [number for w in words for number in _NUMBER.findall(w.text)]


def date_repaired(first: Sequence[Word], second: Sequence[Word]) -> bool:
    """A line the page reading found no date on, whose re-read prints one and every amount of the first
    ("25112/2018" for "25/12/2018": a separator read as a digit)."""
    if _dates(first) or not _dates(second):
        return False
    amounts = [n for n in printed_numbers(first) if re.search(r"[.,]\d{2}$", n)]
    remaining = printed_numbers(second)
    for amount in amounts:
        if amount not in remaining:
            return False
        remaining.remove(amount)
    return True


def _dates(words: Sequence[Word]) -> set[tuple[date | None, date | None]]:
    return {(found.day_first, found.month_first) for found in find_dates(" ".join(w.text for w in words))}


#: the labels the extraction reads fields by; a re-read that loses one changes what a line means
_FIELD_LABELS = (*(pattern for _, pattern in labels.DATE_LABELS), labels.INVOICE_NUMBER, labels.SUBTOTAL,
                 labels.TOTAL_STRONG, labels.TOTAL_PLAIN, labels.TAX, labels.PAYMENT, labels.TENDERED,
                 labels.CHANGE, labels.AMOUNT_EXCLUDED)


def _labels(words: list[Word]) -> set[int]:
    text = " ".join(w.text for w in words)
    return {number for number, pattern in enumerate(_FIELD_LABELS) if pattern.search(text)}


def _currency(words: list[Word]) -> str | None:
    return detect_currency(" ".join(w.text for w in words))

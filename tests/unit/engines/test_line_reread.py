"""Receipt lines read again on one sheet: the sheet's geometry, and which reading of a line is kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from quire.engines.line_reread import (
    LINE_HEIGHT,
    LineRereadEngine,
    CONFIRMING_LINE_HEIGHT,
    build_sheet,
    choose_reading,
    confirmed_reading,
    is_disputed,
    RECEIPT_COLUMNS,
    map_back,
    page_lines,
    print_columns,
    result_from_lines,
)
from quire.engines.ocr import OcrResult, TesseractEngine
from quire.model import Word

DPI = 144  # two pixels a point


def _line(*words: tuple[str, float], top: float = 10, confidence: float = 0.9) -> list[Word]:
    """Words left to right, each 10 points wide and 8 high, ``x0`` given."""
    return [Word(text, x0, top, x0 + 10, top + 8, confidence) for text, x0 in words]


def test_page_lines_follow_the_text_lines_of_the_reading() -> None:
    words = (*_line(("SUB", 0), ("TOTAL", 12), ("9.00", 40)), *_line(("CASH", 0), top=30))
    result = OcrResult("SUB TOTAL 9.00\n\nCASH", words, 0.9)
    assert [[w.text for w in line] for line in page_lines(result)] == [["SUB", "TOTAL", "9.00"], ["CASH"]]


def test_a_line_put_back_keeps_the_blank_lines_between_blocks() -> None:
    words = (*_line(("SON", 0), ("BHO", 12), confidence=0.5), *_line(("CASH", 0), top=30))
    first = OcrResult("SON BHO\n\nCASH", words, 0.6, rotation=90)
    reread = _line(("SDN", 0), ("BHD", 12), confidence=0.95)
    merged = result_from_lines(first, [reread, list(words[2:])])
    assert merged.text == "SDN BHD\n\nCASH" and merged.rotation == 90
    assert merged.words == (*reread, words[2])
    assert merged.confidence == pytest.approx(0.93)  # weighted by characters: (6 x 0.95 + 4 x 0.9) / 10


@pytest.mark.parametrize(("first", "second", "kept"), [
    # more confident, same digits: the second reading
    ([("SON", 0, 0.5), ("BHO", 12, 0.5)], [("SDN", 0, 0.9), ("BHD", 12, 0.9)], "SDN BHD"),
    # more confident but another digit: an amount is not traded for a misreading of the cut-out
    ([("TOTAL", 0, 0.6), ("9.00", 40, 0.6)], [("TOTAL", 0, 0.95), ("9.60", 40, 0.95)], "TOTAL 9.00"),
    # the same digits, but another separator or a number split in two: the first
    ([("TOTAL", 0, 0.6), ("15.90", 40, 0.6)], [("TOTAL", 0, 0.95), ("15,90", 40, 0.95)], "TOTAL 15.90"),
    ([("OR18061602170510", 0, 0.6)], [("OR180616021", 0, 0.9), ("70510", 60, 0.9)], "OR18061602170510"),
    # other digits where the page reading found no date but the re-read finds one, keeping the amounts:
    # the re-read (separators read as digits on the page: "1770372018")
    ([("Date:", 0, 0.6), ("1770372018", 12, 0.5), ("9.00", 60, 0.9)],
     [("Date:", 0, 0.9), ("17/03/2018", 12, 0.9), ("9.00", 60, 0.9)], "Date: 17/03/2018 9.00"),
    ([("Date:", 0, 0.6), ("1770372018", 12, 0.5), ("9.00", 60, 0.9)],
     [("Date:", 0, 0.9), ("17/03/2018", 12, 0.9), ("9.60", 60, 0.9)], "Date: 1770372018 9.00"),
    # less confident: the first
    ([("CASH", 0, 0.9)], [("CASM", 0, 0.8)], "CASH"),
    # a label the first reading holds is not lost ("Change" vs a more confident line with "Changa")
    ([("Change", 0, 0.93), ("Dve", 12, 0.4)], [("Changa", 0, 0.9), ("Due", 12, 0.96)], "Change Dve"),
    # nor a date spelt with a month name, nor the currency, which decide how the document's dates read
    ([("17", 0, 0.6), ("APR", 12, 0.6), ("2018", 24, 0.6)], [("17", 0, 0.9), ("AFR", 12, 0.9), ("2018", 24, 0.9)],
     "17 APR 2018"),
    ([("TOTAL", 0, 0.6), ("5.00", 40, 0.6)], [("TOTAL", 0, 0.9), ("$5.00", 40, 0.9)], "TOTAL 5.00"),
    # words that do not line up: the whole second line
    ([("SUBTOTAL", 0, 0.5)], [("SUB", 0, 0.9), ("TOTAL", 12, 0.9)], "SUB TOTAL"),
    # nothing read again
    ([("CASH", 0, 0.5)], [], "CASH"),
])
def test_choose_reading(first, second, kept) -> None:
    def words(spec):
        return [Word(text, x0, 0, x0 + 10, 8, confidence) for text, x0, confidence in spec]

    assert " ".join(w.text for w in choose_reading(words(first), words(second))) == kept


def test_sheet_words_map_back_onto_their_page_lines() -> None:
    page = Image.new("L", (400, 200), 255)
    draw = ImageDraw.Draw(page)
    lines = [_line(("AB", 20), ("12", 60), top=20), _line(("CD", 20), top=60)]
    for line in lines:
        for w in line:
            draw.rectangle((w.x0 * 2, w.top * 2, w.x1 * 2, w.bottom * 2), fill=0)
    sheet, strips = build_sheet(page, DPI, lines)
    assert [s.line for s in strips] == [0, 1]
    assert all(s.scale == pytest.approx(LINE_HEIGHT / 16) for s in strips)  # 8 points = 16 px, enlarged to 40
    # a word where the first line's second word landed on the sheet comes back at its page position
    strip = strips[0]
    to_sheet = strip.scale * 300 / 72 / 1.0  # sheet points are at 300 dpi

    def on_sheet(value: float, origin: float) -> float:  # page points -> sheet points
        return (value * 2 - origin) * strip.scale * 72 / 300

    word = lines[0][1]
    sheet_word = Word("12", on_sheet(word.x0, strip.page_x0), on_sheet(word.top, strip.page_top),
                      on_sheet(word.x1, strip.page_x0), on_sheet(word.bottom, strip.page_top), 0.9)
    assert to_sheet > 0
    mapped = map_back((sheet_word,), strips, DPI)
    assert list(mapped) == [0]
    back = mapped[0][0]
    assert (back.x0, back.top, back.x1, back.bottom) == pytest.approx((word.x0, word.top, word.x1, word.bottom))
    # the sheet holds both lines, enlarged, and the neighbours' ink is not in a line's cut-out
    assert sheet.height > 2 * LINE_HEIGHT


class _Fixed:
    name, version, settings_key = "fixed", "1", "page"

    def __init__(self, result: OcrResult) -> None:
        self.result = result

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        return self.result


class _Sheet(TesseractEngine):
    """Reads every sheet as nothing and counts the calls."""

    calls = 0

    def read_as_is(self, image: Image.Image, dpi: float, path: Path, psm: int) -> OcrResult:
        _Sheet.calls += 1
        return OcrResult("", (), 0.0)


def test_only_narrow_column_pages_are_read_again() -> None:
    words = tuple(_line(("TOTAL", 10), ("9.00", 30)))
    result = OcrResult("TOTAL 9.00", words, 0.7)
    wide, narrow = Image.new("L", (400, 200), 255), Image.new("L", (100, 400), 255)
    for image in (wide, narrow):
        ImageDraw.Draw(image).rectangle((5, 5, image.width - 5, image.height - 5), outline=0, width=3)
    engine = LineRereadEngine(_Fixed(result), _Sheet())
    _Sheet.calls = 0
    assert engine.recognize(wide, DPI) == result and _Sheet.calls == 0
    assert engine.recognize(narrow, DPI) == result and _Sheet.calls == 1
    assert engine.settings_key.startswith("page;line_reread=v6:")


@pytest.mark.parametrize(("first", "second", "third", "kept"), [
    # two readings of other pixels print the same amount: theirs, however sure the page reading was
    ("Total : 91.00", "Total : 9.00", "Total : 9.00", "Total : 9.00"),
    ("Date: 10/03/2018 5:41:08", "Date: 10/03/2018 5:41:06", "Date: 10/03/2018 5:41:06",
     "Date: 10/03/2018 5:41:06"),
    # an amount the page reading lost, which both re-reads find
    ("TOTAL RM", "TOTAL RM 16.50", "TOTAL RM 16.50", "TOTAL RM 16.50"),
    # as many numbers in each reading: every number of the re-read printed by one of the others at its place
    ("Date: 10/03/2018 5:41:08", "Date: 10/03/2018 5:41:06", "Date: 10/03/2078 5:41:06",
     "Date: 10/03/2018 5:41:06"),
    ("Time: 20:19:00 C3", "Time: 20:18:00 C3", "Time: 20:19:06 C3", "Time: 20:19:00 C3"),
    # both cut-outs split a number or lose a date the same way: their shared misreading, not the page's
    ("Invoice Date: 2026-06-11 16:29", "Invoice Date: 2026-06-1 1 16:29", "Invoice Date: 2026-06-1 1 16:29",
     "Invoice Date: 2026-06-11 16:29"),
    ("Date: 25/12/2018 9.00", "Date: 25112/2018 9.00", "Date: 25112/2018 9.00", "Date: 25/12/2018 9.00"),
    # the third reading sides with the first, or with neither: the first
    ("Total : 91.00", "Total : 9.00", "Total : 91.00", "Total : 91.00"),
    ("CASH 99.00", "CASH 05.00", "CASH 95.00", "CASH 99.00"),
    # the re-read lost the numbers; the third reading has none to agree with
    ("CASH 9.00", "CASH", "CASH", "CASH 9.00"),
    # a postcode or phone number: no field is read from it, and the letters around it stay the page's
    ("PERMAS JAYA 381750 MASAI", "PERMAS JAYA 81750 MASAL", "PERMAS JAYA 81750 MASAI",
     "PERMAS JAYA 381750 MASAI"),
    # agreeing numbers do not excuse a lost label or another currency
    ("CHANGE 1.00", "CHANGA 7.00", "CHANGE 7.00", "CHANGE 1.00"),
    ("TOTAL RM 5.00", "TOTAL $ 6.00", "TOTAL RM 6.00", "TOTAL RM 5.00"),
    ("JUICE M7. 5", "JUICE $7.50", "JUICE RM7.50", "JUICE M7. 5"),
    # a currency the first reading lost comes back where the third reading prints it too
    ("JUICE M7. 5", "JUICE RM7.50", "JUICE RM7.50", "JUICE RM7.50"),
])
def test_confirmed_reading(first, second, third, kept) -> None:
    def words(text, confidence):
        return [Word(token, 12 * i, 0, 12 * i + 10, 8, confidence) for i, token in enumerate(text.split())]

    chosen = confirmed_reading(words(first, 0.95), words(second, 0.6), words(third, 0.6))
    assert " ".join(w.text for w in chosen) == kept


def test_a_line_is_disputed_where_its_readings_print_other_numbers() -> None:
    assert is_disputed(_line(("TOTAL", 0), ("91.00", 12)), _line(("TOTAL", 0), ("9.00", 12)))
    assert is_disputed(_line(("TOTAL", 0), ("9.00", 12)), _line(("TOTAL", 0)))
    assert not is_disputed(_line(("TOTAL", 0), ("9.00", 12)), _line(("TOTAI", 0), ("9.00", 12)))
    assert not is_disputed(_line(("TOTAL", 0), ("9.00", 12)), [])


def test_the_third_sheet_holds_the_disputed_lines_alone_larger() -> None:
    page = Image.new("L", (400, 200), 255)
    lines = [_line(("AB", 20), ("12", 60), top=20), _line(("CD", 20), top=60)]
    for line in lines:
        for w in line:
            ImageDraw.Draw(page).rectangle((w.x0 * 2, w.top * 2, w.x1 * 2, w.bottom * 2), fill=0)
    sheet, strips = build_sheet(page, DPI, lines, line_height=CONFIRMING_LINE_HEIGHT, only={1})
    assert [s.line for s in strips] == [1]
    assert strips[0].scale == pytest.approx(CONFIRMING_LINE_HEIGHT / 16)


class _Scripted(TesseractEngine):
    """Reads each sheet as the next of ``readings``: one line of words across the middle of the sheet."""

    readings: list[str] = []
    calls = 0

    def read_as_is(self, image: Image.Image, dpi: float, path: Path, psm: int) -> OcrResult:
        text = _Scripted.readings[_Scripted.calls]
        _Scripted.calls += 1
        middle = image.height / 2 * 72 / dpi
        words = tuple(Word(token, 10 + 20 * i, middle - 2, 25 + 20 * i, middle + 2, 0.6)
                      for i, token in enumerate(text.split()))
        return OcrResult(text, words, 0.6)


@pytest.mark.parametrize(("readings", "expected", "calls"), [
    (["TOTAL 9.00", "TOTAL 9.00"], "TOTAL 9.00", 2),  # disputed; the third reading sides with the re-read
    (["TOTAL 9.00", "TOTAL 91.00"], "TOTAL 91.00", 2),  # disputed; the third sides with the page
    (["TOTAI 91.00"], "TOTAL 91.00", 1),  # the same numbers: no dispute, no third reading
])
def test_disputed_lines_are_read_a_third_time(readings, expected, calls) -> None:
    words = tuple(_line(("TOTAL", 10), ("91.00", 30), confidence=0.9))
    narrow = Image.new("L", (100, 400), 255)
    ImageDraw.Draw(narrow).rectangle((5, 5, narrow.width - 5, narrow.height - 5), outline=0, width=3)
    _Scripted.readings, _Scripted.calls = readings, 0
    engine = LineRereadEngine(_Fixed(OcrResult("TOTAL 91.00", words, 0.9)), _Scripted())
    result = engine.recognize(narrow, DPI)
    assert result.text == expected and _Scripted.calls == calls


def _text_of_width(characters: int) -> OcrResult:
    """Lines of 4-letter words, 5 points a character, spanning ``characters`` characters."""
    lefts = [*range(0, 5 * characters - 20, 25), 5 * characters - 20]
    words = tuple(Word("ABCD", x, top, x + 20, top + 8, 0.9) for top in range(0, 100, 10) for x in lefts)
    return OcrResult(" ".join(w.text for w in words), words, 0.9)


def test_print_columns_count_the_characters_a_line_of_the_page_holds() -> None:
    assert print_columns(_text_of_width(42)) == pytest.approx(42)  # a till roll
    assert print_columns(_text_of_width(95)) == pytest.approx(95)  # an A4 invoice
    assert print_columns(OcrResult("7", (Word("7", 0, 0, 5, 8, 0.9),), 0.9)) == 0


def test_a_till_roll_photographed_wider_than_it_is_is_read_again() -> None:
    roll = _text_of_width(40)
    assert print_columns(roll) <= RECEIPT_COLUMNS
    wide = Image.new("L", (400, 200), 255)
    ImageDraw.Draw(wide).rectangle((5, 5, wide.width - 5, wide.height - 5), outline=0, width=3)
    _Sheet.calls = 0
    LineRereadEngine(_Fixed(roll), _Sheet()).recognize(wide, DPI)
    assert _Sheet.calls == 1
    LineRereadEngine(_Fixed(_text_of_width(95)), _Sheet()).recognize(wide, DPI)
    assert _Sheet.calls == 1


class _SheetLanguages(TesseractEngine):
    """Records the models each sheet is read with."""

    read_with: list[str] = []

    def with_languages(self, languages: str) -> TesseractEngine:
        return _SheetLanguages(languages)

    def read_as_is(self, image: Image.Image, dpi: float, path: Path, psm: int) -> OcrResult:
        _SheetLanguages.read_with.append(self.languages)
        return OcrResult("", (), 0.0)


@pytest.mark.parametrize(("languages", "sheet"), [(("msa",), "msa+eng"), ((), "eng"), (("deu",), "eng")])
def test_the_sheet_is_read_in_the_page_language_only_where_the_settings_read_that_language(
        languages: tuple[str, ...], sheet: str) -> None:
    # a Malaysian receipt: English labels, Malay address
    words = tuple(_line(("JALAN", 10), ("TAMAN", 40), ("TOTAL", 70), ("9.00", 90)))
    narrow = Image.new("L", (100, 400), 255)
    ImageDraw.Draw(narrow).rectangle((5, 5, 95, 395), outline=0, width=3)
    _SheetLanguages.read_with = []
    LineRereadEngine(_Fixed(OcrResult("JALAN TAMAN TOTAL 9.00", words, 0.7)), _SheetLanguages(),
                     languages=languages).recognize(narrow, DPI)
    assert _SheetLanguages.read_with == [sheet]

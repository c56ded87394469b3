"""Normalisation of printed values: amounts, dates, currencies, languages.

Everything here is a pure function of its text input (and explicit hints), so
the same page always yields the same normalised values. Amounts come back as
decimal strings, never floats; dates as ISO 8601 ``YYYY-MM-DD``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal, InvalidOperation

# -- amounts ---------------------------------------------------------------------------------------------

#: characters printed between digit groups of one number ("1 234,56", "1'234.56", "1.234,56")
_GROUP_SPACES = "\u00a0\u202f\u2009 '’"
#: the currencies printed beside amounts, as codes or signs (a regular-expression alternation)
CURRENCY_MARKS = r"RM|EUR|USD|GBP|MYR|CHF|SGD|[$€£¥]"
#: "PM" or "FM" before digits is OCR's reading of "RM" (the time-of-day "PM" follows its time, after a space)
_CURRENCY_AFFIXES = re.compile(rf"^(?:[PF]M(?=\d)|{CURRENCY_MARKS})\s*|\s*(?:{CURRENCY_MARKS})$", re.IGNORECASE)
_NUMBER_BODY = re.compile(r"^\d[\d.,\u00a0\u202f\u2009 '’]*$")


def parse_amount(text: str, decimal_separator: str | None = None) -> Decimal | None:
    """Parse one printed amount into a Decimal, or None when ``text`` is not an amount.

    ``decimal_separator`` ("." or ",") is the document's convention where known; it only
    matters for a single separator followed by exactly three digits ("1.234" is 1234 in a
    German invoice but 1.234 on a receipt that prints prices to three places). Without a
    hint such a separator is read as a thousands separator. Negative forms: ``-5``, ``5-``,
    ``(5)``, ``5 CR``.
    """
    s = text.strip().replace("−", "-")
    negative = False
    if s.upper().endswith("CR"):
        negative, s = True, s[:-2].strip()
    if s.startswith("(") and s.endswith(")"):
        negative, s = True, s[1:-1].strip()
    if s.endswith("-"):
        negative, s = True, s[:-1].strip()
    for _ in range(2):  # a sign may sit on either side of the currency: "-€5", "€-5"
        s = _CURRENCY_AFFIXES.sub("", s).strip()
        if s.startswith("-"):
            negative, s = True, s[1:].strip()
        elif s.startswith("+"):
            s = s[1:].strip()
    if not _NUMBER_BODY.match(s) or not s[-1].isdigit():
        return None
    digits = _resolve_separators(s, decimal_separator)
    if digits is None:
        return None
    try:
        value = Decimal(digits)
    except InvalidOperation:
        return None
    return -value if negative else value


def _resolve_separators(s: str, decimal_separator: str | None) -> str | None:
    """Turn a digit string with any grouping convention into ``1234.56`` form."""
    s = "".join(ch for ch in s if ch not in _GROUP_SPACES)
    dots, commas = s.count("."), s.count(",")
    if dots and commas:
        decimal_char = "." if s.rfind(".") > s.rfind(",") else ","
        group_char = "," if decimal_char == "." else "."
        integer, _, fraction = s.rpartition(decimal_char)
        if decimal_char in integer or not _valid_grouping(integer, group_char):
            return None
        return integer.replace(group_char, "") + "." + fraction
    if not dots and not commas:
        return s
    sep = "." if dots else ","
    if s.count(sep) > 1:
        return s.replace(sep, "") if _valid_grouping(s, sep) else None
    integer, _, fraction = s.partition(sep)
    if len(fraction) == 3 and integer != "0" and decimal_separator != sep:
        return integer + fraction
    return integer + "." + fraction


def _valid_grouping(integer: str, group_char: str) -> bool:
    groups = integer.split(group_char)
    return 1 <= len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:]) if len(groups) > 1 else True


def format_amount(value: Decimal) -> str:
    """A money amount as a plain decimal string with at least two places: ``1234.50``.

    Extra places are kept only where they carry information (a unit price of 0.125).
    """
    cents = value.quantize(Decimal("0.01"))
    return format(cents if cents == value else value.normalize(), "f")


def format_quantity(value: Decimal) -> str:
    """A quantity without trailing zeros: ``2``, ``1.5``."""
    normalised = value.normalize()
    if normalised == normalised.to_integral_value():
        return format(normalised.to_integral_value(), "f")
    return format(normalised, "f")


_DECIMAL_DOT = re.compile(r"\d\.\d{2}(?![\d.,])")
_DECIMAL_COMMA = re.compile(r"\d,\d{2}(?![\d.,])")


def infer_decimal_separator(text: str) -> str | None:
    """The decimal separator a document uses, judged from two-place amounts; None if no evidence."""
    dot, comma = len(_DECIMAL_DOT.findall(text)), len(_DECIMAL_COMMA.findall(text))
    if dot == comma == 0:
        return None
    return "." if dot >= comma else ","


# -- dates -----------------------------------------------------------------------------------------------

_MONTHS: dict[str, int] = {}
for _number, _names in enumerate([
    "january jan januar jänner janvier janv januari",
    "february feb februar février fevrier févr fevr fév fev februari",
    "march mar märz maerz mär mrz mars maart mrt",
    "april apr avril avr",
    "may mai mei",
    "june jun juni juin",
    "july jul juli juillet juil",
    "august aug augustus août aout",
    "september sep sept septembre",
    "october oct oktober okt octobre",
    "november nov novembre",
    "december dec dezember dez décembre decembre déc",
], start=1):
    for _name in _names.split():
        _MONTHS[_name] = _number

_MONTH_ALTERNATION = "|".join(sorted(map(re.escape, _MONTHS), key=lambda n: (-len(n), n)))
_ISO_DATE = re.compile(r"(?<![\w.\-/])(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)")
#: (not a four-digit year's first two digits where OCR read its third as a letter: "25/12/20l8"; nor the
#: units of a day whose tens OCR read as a bar: "|9-09-17"; nor a row's number before an amount, which OCR
#: set on one line: "9. 20.00")
_NUMERIC_DATE = re.compile(r"(?<![\w.\-/|])(?!\d{1,2}\. \d{1,2}\.\d{2}(?!\d))"
                           r"(\d{1,2})\s?([-/.])\s?(\d{1,2})\s?\2\s?(\d{4}|\d{2})"
                           r"(?!\d|[OoDQIl|iSsBZ]\d)")
_DAY_MONTH_NAME = re.compile(
    rf"(?<![\w])(\d{{1,2}})(?:st|nd|rd|th|er|\.|,)?[\s/\-.]*({_MONTH_ALTERNATION})\.?[\s/\-.,]*(\d{{4}}|\d{{2}})(?![\w|])",
    re.IGNORECASE)
_MONTH_NAME_DAY = re.compile(
    rf"(?<![\w])({_MONTH_ALTERNATION})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})(?![\w])", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class DateMatch:
    """A date found in text; ``day_first``/``month_first`` are the readings that are valid dates.

    An unambiguous date (ISO, a month name, a component above 12) has the same value in
    both slots or only one slot set. ``misread``: its digits show that OCR misread it, so the date read
    may not be the date printed: its day and month are printed one zero-padded, the other a single digit
    ("2025-08-3"; no printer pads one and not the other, so OCR lost a digit of 2025-08-31 or read one too
    many), or it was read from two words joined (see rejoined).
    """

    start: int
    end: int
    day_first: date | None
    month_first: date | None
    misread: bool = False

    @property
    def ambiguous(self) -> bool:
        return (self.day_first is not None and self.month_first is not None
                and self.day_first != self.month_first)

    def resolve(self, order: str) -> date | None:
        """The date under ``order`` ("dmy" or "mdy"), falling back to the only valid reading."""
        preferred, other = ((self.day_first, self.month_first) if order == "dmy"
                            else (self.month_first, self.day_first))
        return preferred if preferred is not None else other


def _year(text: str) -> int:
    year = int(text)
    if len(text) == 2:  # a two-digit year on a business document is this century unless it cannot be
        year += 2000 if year < 70 else 1900
    return year


#: the years a business document's date can carry, the same century as a two-digit year's (see _year);
#: anything else is a misreading ("25/12/7018", "10/03/2078") or a number
_PLAUSIBLE_YEARS = range(1970, 2070)


def _safe_date(year: int, month: int, day: int) -> date | None:
    if year not in _PLAUSIBLE_YEARS:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


def find_dates(text: str) -> list[DateMatch]:
    """All dates in ``text`` in reading order, both readings kept for numeric day/month dates."""
    found: list[DateMatch] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, day_first: date | None, month_first: date | None,
            misread: bool = False) -> None:
        if day_first is None and month_first is None:
            return
        if any(start < t_end and t_start < end for t_start, t_end in taken):
            return
        taken.append((start, end))
        found.append(DateMatch(start, end, day_first, month_first, misread))

    for m in _ISO_DATE.finditer(text):
        d = _safe_date(int(m[1]), int(m[2]), int(m[3]))
        add(m.start(), m.end(), d, d, _padding_mixed(m[2], m[3]))
    for m in _DAY_MONTH_NAME.finditer(text):
        d = _safe_date(_year(m[3]), _MONTHS[m[2].casefold()], int(m[1]))
        add(m.start(), m.end(), d, d)
    for m in _MONTH_NAME_DAY.finditer(text):
        d = _safe_date(_year(m[3]), _MONTHS[m[1].casefold()], int(m[2]))
        add(m.start(), m.end(), d, d)
    for m in _NUMERIC_DATE.finditer(text):
        first, second, year = int(m[1]), int(m[3]), _year(m[4])
        add(m.start(), m.end(), _safe_date(year, second, first), _safe_date(year, first, second),
            _padding_mixed(m[1], m[3]))
    return sorted(found, key=lambda d: d.start)


def whole_date(text: str) -> DateMatch | None:
    """The date ``text`` is, with nothing before or after it; None where it is no date or more than one."""
    return next((d for d in find_dates(text) if (d.start, d.end) == (0, len(text))), None)


def _padding_mixed(first: str, second: str) -> bool:
    """One of a date's day and month printed zero-padded ("08"), the other as a single digit ("3")."""
    return len(first) != len(second) and max(first, second, key=len).startswith("0")


#: the digits tesseract splits off a date into a word of their own at a space the print's wide letter spacing
#: suggested: the second half of a four-digit year after its century ("25/12/20 18 8:13:39 PM" would be
#: 2020 with a two-digit year), standing alone before the end, a time of day, a bracket, a dash or a word,
#: not before another number ("01/02/20 15 12.50" may be a date of 2020 in a table); and a two-digit day's
#: tens, a digit standing alone before a date whose day is one digit ("1 7/03/2018")
_CENTURY_ENDING = re.compile(r"(?<!\d)(?:19|20)\Z")
_YEAR_REST = re.compile(r" (\d{2})(?=\s*\Z|\s+(?:\d{1,2}:\d{2}|[^\W\d]|[(\-]))")
_DAY_TENS = re.compile(r"(?<![\w.\-/|])([0-3]) \Z")
_ONE_DIGIT_DAY = re.compile(r"\d[-/. ]")


def rejoined(text: str, match: DateMatch) -> DateMatch:
    """``match``, a date found in ``text``, with the digits OCR split off it joined back (see _YEAR_REST and
    _DAY_TENS), marked misread. A day's tens is joined back only where the date's padding shows a digit lost
    ("1 7/03/2018"); elsewhere the digit before it only marks the date misread ("2 5/12/2018" may be the
    5th after a table's number, or the 25th)."""
    printed = text[match.start:match.end]
    year_rest = _YEAR_REST.match(text, match.end) if _CENTURY_ENDING.search(printed) else None
    day_tens = _DAY_TENS.search(text[:match.start]) if _ONE_DIGIT_DAY.match(printed) else None
    tens = day_tens[1] if day_tens is not None and match.misread else ""
    rest = year_rest[1] if year_rest is not None else ""
    whole = whole_date(tens + printed + rest) if tens or rest else None
    if whole is not None and not whole.misread:
        start = day_tens.start(1) if tens else match.start
        end = year_rest.end(1) if rest else match.end
        return DateMatch(start, end, whole.day_first, whole.month_first, misread=True)
    return replace(match, misread=True) if day_tens is not None else match


#: where a misread date may start: not inside a word, a number or a code, nor after a bar (a misread 1)
_DATE_START = r"(?<![\w.\-/|])"
#: OCR misreadings of numeric dates, tried only where a document shows no readable issue date:
#: slashes read as 1, 7, l, I or | ("17/03/2018" as "1770372018", "17l04/2018"; with a two-digit year only
#: one of them: "17104/18"), and a separator read as a space in a till timestamp ("27 04-18 16:26", "19-09 17
#: 15:39"; only with the time of day after it) or beside a four-digit year ("17/03 2018")
_SLASH = r"[17lI|]"
_SLASHES_MISREAD = (
    re.compile(rf"{_DATE_START}(\d{{2}}){_SLASH}(\d{{2}})(?:{_SLASH}|/)((?:19|20)\d{{2}})(?!\d)"),
    re.compile(rf"{_DATE_START}(\d{{2}})/(\d{{2}}){_SLASH}((?:19|20)\d{{2}})(?!\d)"),
    re.compile(rf"{_DATE_START}(\d{{2}}){_SLASH}(\d{{2}})/(\d{{2}})(?![\d/])"),
    re.compile(rf"{_DATE_START}(\d{{2}})/(\d{{2}}){_SLASH}(\d{{2}})(?![\d/])"),
)
_SEPARATOR_AS_SPACE = (
    re.compile(rf"{_DATE_START}(\d{{1,2}})\s?[-/. ]\s?(\d{{1,2}})\s?[-/. ]\s?(\d{{4}}|\d{{2}})"
               rf"(?=\s+\d{{1,2}}:\d{{2}}(?!\d))"),
    re.compile(rf"{_DATE_START}(\d{{1,2}})[-/.](\d{{1,2}}) ((?:19|20)\d{{2}})(?!\d)"),
    re.compile(rf"{_DATE_START}(\d{{1,2}}) (\d{{1,2}})[-/.]((?:19|20)\d{{2}})(?!\d)"),
)
#: a hyphen read as a tilde, an underscore or a point ("19~09-17", "27.04-18"): the two separators differ
_HYPHENS_MISREAD = re.compile(r"(?<![\w.\-/~|])(\d{1,2})([-~_.])(\d{1,2})([-~_.])(\d{4}|\d{2})(?![\w~]|\.\d)")
#: ... or not read at all between a two-digit day and month, before a four-digit year and a time of day
#: ("2512/2018 8:13:39 PM", "25/122018 20:13")
_SEPARATOR_LOST = (
    re.compile(rf"{_DATE_START}(\d{{2}})(\d{{2}})[-/.]((?:19|20)\d{{2}})(?=\s+\d{{1,2}}:\d{{2}}(?!\d))"),
    re.compile(rf"{_DATE_START}(\d{{2}})[-/.](\d{{2}})((?:19|20)\d{{2}})(?=\s+\d{{1,2}}:\d{{2}}(?!\d))"),
)
#: ... or, time or no time, right after a date's label, a word at most between them ("Date: 1703/2018", "Date
#: d'émission 0509/2024" with "émission" misread so that only "Date" is a label): the label is the evidence
#: the time of day gives, where anywhere else "Invoice 2512/2018" is a number
_AFTER_LABEL = r"\A[\s:.\-]*(?:[^\W\d_]+(?:['’][^\W\d_]+)?[\s:.\-]+)?"
_SEPARATOR_LOST_AFTER_LABEL = (
    re.compile(rf"{_AFTER_LABEL}(\d{{2}})(\d{{2}})[-/.]((?:19|20)\d{{2}}|\d{{2}})(?![\d/.-])"),
    re.compile(rf"{_AFTER_LABEL}(\d{{2}})[-/.](\d{{2}})((?:19|20)\d{{2}})(?!\d)"),
)
#: ... and a date tesseract split into two words at a space the print's wide letter spacing suggested: the
#: two joined are read as one, and only where they make a date whole, with nothing left over; after a label
#: ("Date 17/0 32018", "Date: 25/1 2/2018"), before a time of day ("13-02-2 016 02:29 PM"), or anywhere with
#: a separator in each word ("27-0 4-18"), where "Invoice 17/0 32018" is a number like any other
_SPLIT_IN_TWO = r"(\d[\d/.\-]* [\d/.\-]*\d)"
_SPLIT_AFTER_LABEL = re.compile(rf"{_AFTER_LABEL}{_SPLIT_IN_TWO}(?![\w/.\-:])")
_SPLIT_BEFORE_TIME = re.compile(rf"{_DATE_START}{_SPLIT_IN_TWO}(?=\s+\d{{1,2}}:\d{{2}}(?!\d))")
_SPLIT_AT_SEPARATORS = re.compile(rf"{_DATE_START}(\d+[-/.]\d* \d*[-/.]\d+)(?![\w/.\-:])")

#: a digit read as the letter it looks like ("3O/O3/2017", "l7-04-18", "2S/12/2018", "15.9O")
_DIGIT_LOOKALIKES = str.maketrans("OoDQIl|iSsBZgb", "00001111558296")
_LOOKALIKE_DIGIT = r"[\dOoDQIl|iSsBZgb]"
_DIGITS_MISREAD = re.compile(
    rf"(?<![\w.\-/])({_LOOKALIKE_DIGIT}{{1,2}})([-/.])({_LOOKALIKE_DIGIT}{{1,2}})\2"
    rf"((?:[12]|{_LOOKALIKE_DIGIT}){_LOOKALIKE_DIGIT}{{3}}|{_LOOKALIKE_DIGIT}{{2}})(?![\w/])")
#: ... also of a date with the month's name ("l6 JUN 2018", "16 JUN 2O18")
_NAMED_MONTH_DIGITS_MISREAD = re.compile(
    rf"(?<![\w|])(?-i:({_LOOKALIKE_DIGIT}{{1,2}}))[\s/\-.]*({_MONTH_ALTERNATION})\.?[\s/\-.,]*"
    rf"(?-i:({_LOOKALIKE_DIGIT}{{4}}|{_LOOKALIKE_DIGIT}{{2}}))(?![\w|])", re.IGNORECASE)


#: the characters OCR reads for a month name's letters ("JUH" for JUN, "0CT" for OCT, "AUC" for AUG, "SEF" for
#: SEP, "Marz" for März): a date whose month word is one of them away from exactly one month's name is read as
#: that month ("JUH" is JUN, not JUL: an L is not misread as an H)
_MONTH_LETTER_MISREADS = {"A": "4", "B": "8E", "C": "G(", "D": "0O", "E": "FB", "F": "EP", "G": "C6", "J": "I1]",
                          "L": "I1|", "M": "NH", "N": "HM", "O": "0DQ", "P": "F", "R": "PK", "S": "5", "T": "7",
                          "U": "VO", "V": "UY", "Y": "V", "Ä": "A", "É": "E", "Û": "U"}
_MONTH_WORD_MISREAD = re.compile(r"(?<![\w|])(\d{1,2})(?:st|nd|rd|th|er|\.|,)?[\s/\-.]+([\w(|\]]{3,9})\.?[\s/\-.,]+"
                                 r"((?:19|20)\d{2}|\d{2})(?![\w|])")


#: a date after a mark OCR made of the label's colon ("Date -17/04/18"), which find_dates leaves as it
#: leaves the middle of a code ("CK-11/22/31" has a letter before the mark)
_STRAY_MARK_DATE = re.compile(r"(?<![\w.\-/])[-~](\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?![\d])")

#: a four-digit year that lost a digit, where only one plausible year has the three left in their order
#: ("25/12/218" and "25/12/018" are 2018; "25/12/201" may be 2001 or 2010-2019, and stays unread)
_YEAR_DIGIT_LOST = re.compile(rf"{_DATE_START}(\d{{1,2}})([-/.])(\d{{1,2}})\2(\d{{3}})(?![\d/.\-])")


def _years_with_a_digit_more(digits: str) -> set[int]:
    return {year for i in range(len(digits) + 1) for added in "0123456789"
            if (year := int(digits[:i] + added + digits[i:])) in _PLAUSIBLE_YEARS}


#: digits a date cannot hold, and the digit OCR most likely took for them: a day's tens digit of 4 or 7
#: is a 1 ("46 Jun 2018", "77/03/2018"), of 8 a 3; a year beginning with 7 is a 2 that lost its foot
#: ("25/12/7018"), a year's tens digit of 7 past the plausible years a 1 ("10/03/2078"). Other impossible
#: dates stay unread: no single likely digit explains them.
_DAY_TENS_CONFUSIONS = {"4": "1", "7": "1", "8": "3"}
_YEAR_LEAD_CONFUSIONS = {"7": "2"}
_YEAR_TENS_CONFUSIONS = {"7": "1"}


def _repaired_day(text: str) -> str:
    if len(text) == 2 and int(text) > 31 and text[0] in _DAY_TENS_CONFUSIONS:
        return _DAY_TENS_CONFUSIONS[text[0]] + text[1]
    return text


def _repaired_year(text: str) -> str:
    if len(text) == 4 and text[0] in _YEAR_LEAD_CONFUSIONS:
        return _YEAR_LEAD_CONFUSIONS[text[0]] + text[1:]
    if len(text) == 4 and int(text) not in _PLAUSIBLE_YEARS and text[2] in _YEAR_TENS_CONFUSIONS:
        return text[:2] + _YEAR_TENS_CONFUSIONS[text[2]] + text[3]
    return text


def _impossible_dates_repaired(text: str) -> list[DateMatch]:
    """Dates printed with a digit no date can hold, read with the digit OCR most likely misread
    (see _DAY_TENS_CONFUSIONS)."""
    found = []
    for m in _NUMERIC_DATE.finditer(text):
        first, second, year = _repaired_day(m[1]), _repaired_day(m[3]), _repaired_year(m[4])
        if (first, second, year) != (m[1], m[3], m[4]):
            repaired_date = _numeric_date(m, int(first), int(second), _year(year))
            if repaired_date is not None:
                found.append(repaired_date)
    for m in _DAY_MONTH_NAME.finditer(text):
        day, year = _repaired_day(m[1]), _repaired_year(m[3])
        if (day, year) != (m[1], m[3]):
            repaired = _safe_date(_year(year), _MONTHS[m[2].casefold()], int(day))
            if repaired is not None:
                found.append(DateMatch(m.start(), m.end(), repaired, repaired))
    return found


def _numeric_date(match: re.Match[str], first: int, second: int, year: int) -> DateMatch | None:
    """The numeric date ``match`` prints as first/second/year from its first group on, with each reading that
    is a valid date; None where neither is."""
    day_first, month_first = _safe_date(year, second, first), _safe_date(year, first, second)
    if day_first is None and month_first is None:
        return None
    return DateMatch(match.start(1), match.end(), day_first, month_first)


def find_misread_dates(text: str, after_label: bool = False) -> list[DateMatch]:
    """Dates whose separators or digits OCR misread (see _SLASHES_MISREAD, _SEPARATOR_AS_SPACE,
    _SEPARATOR_LOST, _HYPHENS_MISREAD, _YEAR_DIGIT_LOST, _STRAY_MARK_DATE, _DIGITS_MISREAD,
    _NAMED_MONTH_DIGITS_MISREAD, _MONTH_WORD_MISREAD, _SPLIT_IN_TWO; with ``after_label``, ``text``
    following a date's label, also _SEPARATOR_LOST_AFTER_LABEL and _SPLIT_AFTER_LABEL), and dates with a
    digit no date can hold (_DAY_TENS_CONFUSIONS), in reading order."""
    found = _impossible_dates_repaired(text)
    after_label_patterns = _SEPARATOR_LOST_AFTER_LABEL if after_label else ()
    split = [_SPLIT_AFTER_LABEL.match(text)] if after_label else []
    split += [*_SPLIT_BEFORE_TIME.finditer(text), *_SPLIT_AT_SEPARATORS.finditer(text)]
    for m in {m.span(1): m for m in split if m is not None}.values():  # one date, however many signs of it
        joined = _joined_date(m, after_label)
        if joined is not None:
            found.append(joined)
    for pattern in (*after_label_patterns, *_SLASHES_MISREAD, *_SEPARATOR_AS_SPACE, *_SEPARATOR_LOST,
                    _STRAY_MARK_DATE):
        for m in pattern.finditer(text):
            match = _numeric_date(m, int(m[1]), int(m[2]), _year(m[3]))
            if match is not None:
                found.append(match)
    for m in _HYPHENS_MISREAD.finditer(text):
        match = _numeric_date(m, int(m[1]), int(m[3]), _year(m[5])) if m[2] != m[4] else None
        if match is not None:
            found.append(match)
    for m in _YEAR_DIGIT_LOST.finditer(text):
        years = _years_with_a_digit_more(m[4])
        match = _numeric_date(m, int(m[1]), int(m[3]), years.pop()) if len(years) == 1 else None
        if match is not None:
            found.append(match)
    for m in _DIGITS_MISREAD.finditer(text):
        digits = _lookalikes_read(m[1], m[3], m[4])
        # a two-digit year is short enough to be any number: only one of the three parts may be misread
        misread_parts = sum(not part.isdigit() for part in (m[1], m[3], m[4]))
        if digits is not None and (len(m[4]) == 4 or misread_parts == 1):
            match = _numeric_date(m, int(digits[0]), int(digits[1]), _year(digits[2]))
            if match is not None:
                found.append(match)
    for m in _NAMED_MONTH_DIGITS_MISREAD.finditer(text):
        digits = _lookalikes_read(m[1], m[3])
        if digits is not None and all(any(c.isdigit() for c in part) for part in (m[1], m[3])):
            named = _safe_date(_year(digits[1]), _MONTHS[m[2].casefold()], int(digits[0]))
            if named is not None:
                found.append(DateMatch(m.start(), m.end(), named, named))
    for m in _MONTH_WORD_MISREAD.finditer(text):
        month = _misread_month(m[2])
        named = _safe_date(_year(m[3]), month, int(m[1])) if month is not None else None
        if named is not None:
            found.append(DateMatch(m.start(), m.end(), named, named))
    return sorted(found, key=lambda d: d.start)


def _joined_date(split: re.Match[str], after_label: bool) -> DateMatch | None:
    """The date ``split``'s two words make joined (see _SPLIT_IN_TWO); after a label also one whose
    separator OCR lost (_SEPARATOR_LOST_AFTER_LABEL)."""
    joined = split[1].replace(" ", "")
    read = whole_date(joined)
    for pattern in _SEPARATOR_LOST_AFTER_LABEL if after_label else ():
        m = pattern.fullmatch(joined)
        if read is None and m is not None:
            read = _numeric_date(m, int(m[1]), int(m[2]), _year(m[3]))
    if read is None:
        return None
    return DateMatch(split.start(1), split.end(1), read.day_first, read.month_first)


def _misread_month(word: str) -> int | None:
    """The month ``word`` names with one character misread (see _MONTH_LETTER_MISREADS), if only one month's
    name is that close; None for a month's name as it is spelt, and for any other word."""
    read = word.upper()
    if read.casefold() in _MONTHS or not any(c.isalpha() for c in read):
        return None
    months = {number for name, number in _MONTHS.items() if len(name) == len(read)
              and _one_character_misread(name.upper(), read)}
    return months.pop() if len(months) == 1 else None


def _one_character_misread(name: str, read: str) -> bool:
    differing = [(printed, seen) for printed, seen in zip(name, read, strict=True) if printed != seen]
    return len(differing) == 1 and differing[0][1] in _MONTH_LETTER_MISREADS.get(differing[0][0], "")


def _lookalikes_read(*parts: str) -> list[str] | None:
    """The parts of a date with the letters OCR read for digits read back, where some part has one and the
    year is a plausible one; None for a readable date, or one of letters only ("Il/SS/BOOD" is no date)."""
    if all(part.isdigit() for part in parts) or not any(c.isdigit() for c in "".join(parts)):
        return None
    digits = [part.translate(_DIGIT_LOOKALIKES) for part in parts]
    return digits if 1990 <= _year(digits[-1]) <= 2099 else None


def parse_date(text: str, order: str = "dmy") -> str | None:
    """The first date in ``text`` as ISO 8601, reading numeric dates in ``order`` ("dmy"/"mdy")."""
    for match in find_dates(text):
        resolved = match.resolve(order)
        if resolved is not None:
            return resolved.isoformat()
    return None


#: languages whose documents write numeric dates day-first
_DAY_FIRST_LANGUAGES = frozenset({"de", "fr", "nl", "ms"})
#: currencies of countries that write numeric dates month-first
_MONTH_FIRST_CURRENCIES = frozenset({"USD"})


def infer_date_order(dates: list[DateMatch], language: str | None, currency: str | None) -> str:
    """Decide "dmy" or "mdy" for a whole document.

    Evidence in order of strength: dates on the page that only parse one way (a component
    above 12), then the language of the labels, then the currency. Day-first is the default
    because most of the world writes it.
    """
    day_first_only = sum(1 for d in dates if d.day_first is not None and d.month_first is None)
    month_first_only = sum(1 for d in dates if d.month_first is not None and d.day_first is None)
    if day_first_only != month_first_only:
        return "dmy" if day_first_only > month_first_only else "mdy"
    if language in _DAY_FIRST_LANGUAGES:
        return "dmy"
    if language == "en" and currency in _MONTH_FIRST_CURRENCIES:
        return "mdy"
    return "dmy"


# -- currencies ------------------------------------------------------------------------------------------

_ISO_CURRENCIES = ("EUR", "USD", "GBP", "MYR", "CHF", "SGD", "JPY", "CAD", "AUD", "SEK", "NOK", "DKK", "PLN")


def _pricing(symbol: str, *, cents: bool) -> re.Pattern[str]:
    """A currency sign where it prices something: before or after an amount (with its cents where the
    currency has them: "$45.00", "$ 1,234.50", "$-45.00", "12,50 $", "¥1200"), or a column's unit
    ("Amount ($)"). A sign glued to a bare number ("$0", "$617", "Debiteur: $4275", "£657 @ 6%") or to no
    number at all ("822737-¥" for "822737-X") is OCR's reading of a letter, a digit or a stain far more
    often than a price."""
    amount = r"[-\u2212]?\d[\d,.' ]*?[.,]\d\d(?!\d)" if cents else r"[-\u2212]?\d"
    before = r"\d[.,]\d\d" if cents else r"\d"
    return re.compile(rf"{symbol}[^\S\n]*{amount}|{before}[^\S\n]*{symbol}|\([^\S\n]*{symbol}[^\S\n]*\)")


_CURRENCY_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    *((code, re.compile(rf"(?<![A-Za-z]){code}(?![A-Za-z])")) for code in _ISO_CURRENCIES),
    ("EUR", re.compile(r"€|\beuros?\b", re.IGNORECASE)),
    ("GBP", _pricing("£", cents=True)),
    ("GBP", re.compile(r"\bpounds? sterling\b", re.IGNORECASE)),
    ("MYR", re.compile(r"(?<![A-Za-z])RM(?=\s?\d|\)|\s*$|\s)|\bringgit\b", re.IGNORECASE | re.MULTILINE)),
    ("USD", re.compile(r"(?<![A-Z])US\$|\bdollars?\b", re.IGNORECASE)),
    ("JPY", _pricing("¥", cents=False)),  # the yen has no cents
)
#: a bare "$" prices something in dollars of some country: USD only where nothing more specific is printed
_DOLLAR = _pricing(r"\$", cents=True)


def detect_currency(text: str) -> str | None:
    """The ISO 4217 code a document's amounts are in, from codes, symbols and words.

    "RM" is the Malaysian ringgit. A bare "$" counts for USD only when nothing more
    specific is printed, because receipts in ringgit also print "$" now and then. Signs count only
    where they price something (:func:`_pricing`).
    """
    counts: dict[str, int] = {}
    for code, pattern in _CURRENCY_PATTERNS:
        hits = len(pattern.findall(text))
        if hits:
            counts[code] = counts.get(code, 0) + hits
    if counts:
        return max(sorted(counts), key=lambda code: counts[code])
    if _DOLLAR.search(text):
        return "USD"
    return None


# -- languages -------------------------------------------------------------------------------------------

_LANGUAGE_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("invoice", "total", "date", "due", "amount", "quantity", "qty", "price", "description", "tax",
           "bill", "thank", "you", "payment", "the", "and", "of", "subtotal"),
    "de": ("rechnung", "datum", "betrag", "menge", "preis", "beschreibung", "gesamt", "summe", "mwst",
           "zahlbar", "bis", "und", "der", "die", "das", "netto", "brutto", "einzelpreis", "rechnungsnummer"),
    "fr": ("facture", "montant", "quantité", "prix", "désignation", "tva", "ht", "ttc", "échéance",
           "le", "la", "les", "et", "de", "du", "date", "unitaire"),
    "nl": ("factuur", "bedrag", "aantal", "prijs", "omschrijving", "btw", "totaal", "vervaldatum", "de", "het",
           "en", "van", "factuurnummer", "factuurdatum", "subtotaal"),
    "ms": ("sdn", "bhd", "jalan", "taman", "tunai", "terima", "kasih", "jumlah"),
}
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def detect_language(text: str) -> str | None:
    """The language of a document's labels (en, de, fr, nl, ms), or None with no evidence."""
    return language_of(language_counts(text))


def language_counts(text: str) -> dict[str, int]:
    """How many of ``text``'s words each language is told by."""
    counts = dict.fromkeys(_LANGUAGE_WORDS, 0)
    for word in _WORD.findall(text):
        folded = word.casefold()
        for language, vocabulary in _LANGUAGE_WORDS.items():
            if folded in vocabulary:
                counts[language] += 1
    return counts


def language_of(counts: dict[str, int]) -> str | None:
    """The language with the most words in ``counts`` (the first by name on a tie), or None with none."""
    best = max(sorted(counts), key=lambda language: counts[language])
    return best if counts[best] else None


def fold(text: str) -> str:
    """Case- and whitespace-folded text for comparisons (accents kept)."""
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


#: an amount at the end of a line, with its digits or its point misread: digits as the letters they look
#: like, the point as a colon, a semicolon or a space ("15.9O", "l5.90", "RM7:00", "28 90"; a space only
#: after at most four digits, not in "FR51 41070 58", a VAT number); a word of its own (not the tail of a
#: garbled number: "39"351;67")
_MISREAD_AMOUNT = re.compile(rf"(?<![^\s:])(?:RM|[$€£])?"
                             rf"({_LOOKALIKE_DIGIT}{{1,6}}(?=\s?[.,:;])|{_LOOKALIKE_DIGIT}{{1,4}})"
                             rf"(\s?[.,:;]\s?|\s)({_LOOKALIKE_DIGIT}{{2}})\s*$")


def misread_amount(text: str) -> Decimal | None:
    """The amount ``text`` ends with where OCR misread its digits or its decimal point, each part keeping a
    digit of its own (so no word reads as one); None where nothing was misread or no amount is there."""
    match = _MISREAD_AMOUNT.search(text)
    if match is None:
        return None
    units, point, cents = match.groups()
    if not (any(c.isdigit() for c in units) and any(c.isdigit() for c in cents)) \
            or (units.isdigit() and cents.isdigit() and point in ".,"):
        return None
    return Decimal(f"{units.translate(_DIGIT_LOOKALIKES)}.{cents.translate(_DIGIT_LOOKALIKES)}")


def amounts_one_edit_apart(first: Decimal, second: Decimal) -> bool:
    """Whether two amounts as printed differ by one character substituted, inserted or dropped."""
    return one_edit_apart(format_amount(first), format_amount(second))


def one_edit_apart(made: str, read: str) -> bool:
    """Whether one character inserted, deleted or replaced turns ``read`` into ``made`` (an OCR misreading)."""
    if len(made) == len(read):
        return sum(a != b for a, b in zip(made, read, strict=True)) == 1
    shorter, longer = sorted((made, read), key=len)
    return len(longer) == len(shorter) + 1 and any(longer[:i] + longer[i + 1:] == shorter for i in range(len(longer)))

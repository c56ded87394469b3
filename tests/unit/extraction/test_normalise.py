"""Tables of printed values and what they normalise to."""

from datetime import date
from decimal import Decimal

import pytest

from quire.extraction.normalise import (
    detect_currency,
    detect_language,
    find_dates,
    find_misread_dates,
    format_amount,
    format_quantity,
    infer_date_order,
    infer_decimal_separator,
    misread_amount,
    parse_amount,
    parse_date,
    rejoined,
)


@pytest.mark.parametrize(("printed", "hint", "expected"), [
    ("1.234,56", None, "1234.56"),
    ("1,234.56", None, "1234.56"),
    ("1 234,56", None, "1234.56"),
    ("1\u202f234,56", None, "1234.56"),
    ("1'234.56", None, "1234.56"),
    ("1.234.567,89", None, "1234567.89"),
    ("RM9.00", None, "9.00"),
    ("PM9.00", None, "9.00"),  # OCR reads RM as PM
    ("FM9.00", None, "9.00"),  # ... or as FM
    ("$8.20", None, "8.20"),
    ("€ 12,50", None, "12.50"),
    ("12.50 EUR", None, "12.50"),
    ("-12,50 €", None, "-12.50"),
    ("€-5.00", None, "-5.00"),
    ("(5.00)", None, "-5.00"),
    ("5.00-", None, "-5.00"),
    ("5.00 CR", None, "-5.00"),
    ("1.234", None, "1234"),  # no hint: a lone separator before three digits groups thousands
    ("1.234", ".", "1.234"),  # ... unless the document writes decimals with that separator
    ("1,234", ",", "1.234"),
    ("0.125", None, "0.125"),
    ("12", None, "12"),
    ("1,5", None, "1.5"),
])
def test_parse_amount(printed, hint, expected):
    assert parse_amount(printed, hint) == Decimal(expected)


@pytest.mark.parametrize("printed", ["abc", "12.3.4", "1,23,4", "", "-", "12a", "1.234,5.6", "9:49 PM", "PM 9.00"])
def test_parse_amount_rejects_non_amounts(printed):
    assert parse_amount(printed) is None


@pytest.mark.parametrize(("value", "expected"), [
    ("9.000", "9.00"), ("12", "12.00"), ("0.125", "0.125"), ("1234.5", "1234.50"), ("-3", "-3.00"),
])
def test_format_amount(value, expected):
    assert format_amount(Decimal(value)) == expected


@pytest.mark.parametrize(("value", "expected"), [("2", "2"), ("2.000", "2"), ("1.50", "1.5"), ("10", "10")])
def test_format_quantity(value, expected):
    assert format_quantity(Decimal(value)) == expected


@pytest.mark.parametrize(("printed", "order", "expected"), [
    ("25/12/2018 8:13:39 PM", "dmy", "2018-12-25"),
    ("25/12/2018", "mdy", "2018-12-25"),  # only one reading is a date
    ("18-11-18", "dmy", "2018-11-18"),
    ("05/01/2018", "dmy", "2018-01-05"),
    ("05/01/2018", "mdy", "2018-05-01"),
    ("05.01.2018", "dmy", "2018-01-05"),
    ("2024-03-01", "mdy", "2024-03-01"),
    ("15/APR/2017", "dmy", "2017-04-15"),
    ("18 APR 2018", "mdy", "2018-04-18"),
    ("March 3, 2024", "dmy", "2024-03-03"),
    ("Mar 3 2024", "dmy", "2024-03-03"),
    ("3rd March 2024", "mdy", "2024-03-03"),
    ("3. März 2024", "dmy", "2024-03-03"),
    ("Zahlbar bis: 29, August 2024", "dmy", "2024-08-29"),  # the day's point read as a comma
    ("12 janvier 2024", "dmy", "2024-01-12"),
    ("1er février 2024", "dmy", "2024-02-01"),
    ("7 mei 2024", "dmy", "2024-05-07"),
    ("Datum: 31.12.99", "dmy", "1999-12-31"),
    ("Datum: 1. 10.2024", "dmy", "2024-10-01"),  # a space OCR set after a point; "9. 20.00" is no date
])
def test_parse_date(printed, order, expected):
    assert parse_date(printed, order) == expected


@pytest.mark.parametrize("printed", ["31/31/2018", "Invoice 12345", "8:13:39", "1.234,56",
                                     "9. 20.00"])  # a row's number and its amount on one line
def test_parse_date_rejects_non_dates(printed):
    assert parse_date(printed) is None


def test_ambiguous_dates_keep_both_readings():
    (match,) = find_dates("01/02/2024")
    assert match.ambiguous
    assert (match.day_first, match.month_first) == (date(2024, 2, 1), date(2024, 1, 2))


@pytest.mark.parametrize(("text", "language", "currency", "expected"), [
    ("01/02/2024 and 25/02/2024", "en", "USD", "dmy"),  # a day above 12 outweighs the currency
    ("01/02/2024 and 02/25/2024", "de", "EUR", "mdy"),
    ("01/02/2024", "de", None, "dmy"),
    ("01/02/2024", "en", "USD", "mdy"),
    ("01/02/2024", "en", "GBP", "dmy"),
    ("01/02/2024", None, None, "dmy"),
    ("Date 01.10.2024\n9. 20.00 lot Fauteuil de bureau", "fr", "USD", "dmy"),  # a row's number, no date
])
def test_infer_date_order(text, language, currency, expected):
    assert infer_date_order(find_dates(text), language, currency) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("TOTAL RM 9.00", "MYR"),
    ("ROUNDED TOTAL (RM): 9.00", "MYR"),
    ("Total 12,00 €", "EUR"),
    ("Amount due: EUR 1.200,00", "EUR"),
    ("Total £45.00", "GBP"),
    ("Total $45.00", "USD"),
    ("Total US$ 45.00", "USD"),
    ("Total RM 7.00 ... $7.00", "MYR"),  # a stray dollar sign on a ringgit receipt
    ("Total $ 1,234.50", "USD"),
    ("Total 12,50 $", "USD"),
    ("Credit total $-1,234.50", "USD"),  # the sign after the symbol
    ("Amount ($)  45.00", "USD"),
    ("Debiteur: $4275  Totaal 16.853,06", None),  # an S or a 5 read as "$", glued to a bare number
    ("Fahrtkosten 1,00 76,37\n$0 Druck Flyer 1,00 50,00", None),  # nor is an amount on the line above its price
    ("Betrag 45,00 CHF", "CHF"),
    ("Total ¥1,200", "JPY"),
    ("Amount (£)  45.00", "GBP"),
    # SROIE 507 read from a photo: "822737-X" as "822737-¥", "GST @ 6%" as "£657 @ 6%"
    ("AIK HUAT HARDWARE 822737-¥ TOTAL 6.00", None),
    ("SUB-TOTAL (GST) 6.00\n£657 @ 6% INCLUDED IN TOTAL", None),
    ("no money here", None),
])
def test_detect_currency(text, expected):
    assert detect_currency(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Invoice date Total amount due", "en"),
    ("Rechnung Rechnungsnummer Datum Betrag", "de"),
    ("Facture montant TVA échéance", "fr"),
    ("Factuur factuurnummer bedrag btw", "nl"),
    ("12345", None),
])
def test_detect_language(text, expected):
    assert detect_language(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("9.00 12.50", "."), ("9,00 12,50 1.234,56", ","), ("12", None),
])
def test_infer_decimal_separator(text, expected):
    assert infer_decimal_separator(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("Date: 1770372018", date(2018, 3, 17)),  # "17/03/2018" with both slashes read as 7
    ("31I12I2019", date(2019, 12, 31)),
    ("27 04-18 16:26 SHO", date(2018, 4, 27)),  # a till timestamp with one separator read as a space
    ("Date 2512/2018 8:13:39 PM", date(2018, 12, 25)),  # ... or not read at all
    ("25/122018 20:13", date(2018, 12, 25)),
    ("DATE: 3O/O3/2017", date(2017, 3, 30)),  # digits read as the letters they look like
    ("l7-04-18 16:26", date(2018, 4, 17)),
    ("2S/12/2018", date(2018, 12, 25)),
    ("Date -17/04/18", date(2018, 4, 17)),  # the label's colon read as a dash
    ("Date: 77/03/2018", date(2018, 3, 17)),  # a day no date has: its 1 read as 7
    ("46 Jun 2018 18:25", date(2018, 6, 16)),
    ("81/01/2019", date(2019, 1, 31)),  # 3 read as 8
    ("25/12/7018 8:12 PM", date(2018, 12, 25)),  # a year's 2 read as 7
    ("Date: 10/03/2078 5:41:08", date(2018, 3, 10)),  # a year's tens digit 1 read as 7
    ("17 Apr 2075", date(2015, 4, 17)),
    # one slash of two read as l, 1 or |, with a four- or a two-digit year
    ("DATE: 25l12/2018 8:13:39 PM", date(2018, 12, 25)), ("BILL DATE : 20/1212017", date(2017, 12, 20)),
    ("DATE :17104/18", date(2018, 4, 17)), ("DATE :17/04|18", date(2018, 4, 17)),
    ("DATE: 17 03/2018", date(2018, 3, 17)), ("16/04 2018 (MON)", date(2018, 4, 16)),  # one read as a space
    ("19-09 17 15:39 SH01", date(2017, 9, 19)),
    ("19~09-17 15:39", date(2017, 9, 19)), ("29-01_18 20:38", date(2018, 1, 29)),  # a hyphen as ~, _ or .
    ("27.04-18", date(2018, 4, 27)),
    ("|9-09-17 15:39", date(2017, 9, 19)), ("1g-03-2018 11:12:15", date(2018, 3, 19)),  # a day's 1 or 9
    ("25/12/20l8 8:13:39 PM", date(2018, 12, 25)), ("29-01-I8 20:38", date(2018, 1, 29)),  # a year's 1
    ("l6 JUN 2018 18:25", date(2018, 6, 16)), ("16 JUN 2O18 18:25", date(2018, 6, 16)),  # with the month's name
    ("16 JUN 20|8", date(2018, 6, 16)),
    # split in two words before a time of day, or with a separator in each word
    ("13-02-2 016 02:29 PM", date(2016, 2, 13)), ("25-06-1 8 11:25 SH01", date(2018, 6, 25)),
    # a year's digit lost, where one plausible year alone has the three left
    ("25/12/218 8:13:39 PM", date(2018, 12, 25)), ("DATE: 12.05.017", date(2017, 5, 12)),
    ("25/1 2/2018 10:00", date(2018, 12, 25)), ("25/1 2/2018", date(2018, 12, 25)), ("27-0 4-18", date(2018, 4, 27)),
])
def test_dates_with_misread_separators_are_found(text: str, expected: date) -> None:
    assert [m.resolve("dmy") for m in find_misread_dates(text)] == [expected]


@pytest.mark.parametrize(("text", "expected"), [
    ("TOTAL 15.9O", "15.90"), ("TOTAL RM7:00", "7.00"), ("Total 28 90", "28.90"), ("l5.90", "15.90"),
    ("TOTAL 15.90", None), ("TOTAL ITEMS: 12", None), ("TOTAL SO OS", None), ("CODE AB12:34", None),
    ('Sous-total 39"351;67', None),  # dev scan: the tail of a garbled amount is no amount
    ("TVA mtracom FRS1 41070 58", None),  # tune scan: a VAT number's digits
])
def test_an_amount_whose_digits_or_point_ocr_misread_is_read_back(text, expected):
    amount = misread_amount(text)
    assert (str(amount) if amount is not None else None) == expected


#: the lines the SROIE tune half prints its dates on, with the dates
_RECEIPT_DATE_LINES = [
    ("25/12/2018 8:13:39 PM", date(2018, 12, 25)), ("BILL DATE : 20/12/2017", date(2017, 12, 20)),
    ("DATE: 10/03/2018 5:41:06", date(2018, 3, 10)), ("19-09-17 15:39 SH01 ZJ03", date(2017, 9, 19)),
    (": 19-03-2018 11:12:15", date(2018, 3, 19)), ("DATE: 17/03/2018", date(2018, 3, 17)),
    ("29-01-18 20:38", date(2018, 1, 29)), ("16/04/2018 (MON)", date(2018, 4, 16)),
    ("07/04/2018 - 18.10:59", date(2018, 4, 7)), ("DATE :17/04/18", date(2018, 4, 17)),
    ("DATE: 29/10/2017", date(2017, 10, 29)), ("REG YENG LIN 13-02-2016 02:29 PM 088341", date(2016, 2, 13)),
    ("27-04-18", date(2018, 4, 27)), ("DATE: 18/04/2017", date(2017, 4, 18)),
    ("RECEIPT #: CSP0382398 DATE: 30/03/2017", date(2017, 3, 30)), ("16 JUN 2018 18:25", date(2018, 6, 16)),
    ("25-06-18 11:25 SH01 B003", date(2018, 6, 25)), ("15-07-18", date(2018, 7, 15)),
]
#: what tesseract reads for a date's characters, where a rule can read it back
_DATE_MISREADINGS = {"/": "l1I|7", "-": "~_.", "0": "OoDQ", "1": "lIi", "2": "Z", "5": "S", "6": "b", "8": "B",
                     "9": "g", "J": "I1]", "U": "VO", "N": "HM"}


@pytest.mark.parametrize(("line", "expected"), _RECEIPT_DATE_LINES)
def test_a_receipt_date_is_read_whatever_one_character_ocr_misread_in_it(line: str, expected: date) -> None:
    for position in range(len(line)):
        for misread in _DATE_MISREADINGS.get(line[position], ""):
            text = line[:position] + misread + line[position + 1:]
            dates = find_dates(text) or find_misread_dates(text)
            assert dates and dates[0].resolve("dmy") == expected, text


@pytest.mark.parametrize(("text", "expected"), [
    ("16 JUH 2018 18:25", date(2018, 6, 16)), ("16 JUI 2018", date(2018, 7, 16)),  # an N as H, an L as I
    ("3 0CT 2017", date(2017, 10, 3)), ("3 N0V 17", date(2017, 11, 3)), ("21 0EC 2018", date(2018, 12, 21)),
    ("9 AUC 2018", date(2018, 8, 9)), ("9 FE8 2018", date(2018, 2, 9)), ("9 SEF 2018", date(2018, 9, 9)),
    ("9 MAV 2018", date(2018, 5, 9)), ("3. Marz 2018", date(2018, 3, 3)), ("16th 0ctober 2018", date(2018, 10, 16)),
])
def test_a_month_name_with_a_misread_letter_is_read(text: str, expected: date) -> None:
    assert find_dates(text) == []
    assert [m.resolve("dmy") for m in find_misread_dates(text)] == [expected]


@pytest.mark.parametrize(("text", "expected"), [
    (": 1703/2018", date(2018, 3, 17)), (":17/032018", date(2018, 3, 17)), (" 1704/18", date(2018, 4, 17)),
    (" d'étnission 0509/2024", date(2024, 9, 5)), (" - 2512/2018 8:13", date(2018, 12, 25)),
    (": 3412/2018", None), (" No 1234/5678", None), (": 0509/2024/1", None), (" 12.2024", None),
    (" is 2 lots 0509/2024", None),  # more than a word between the label and the number
    (" 17/0 32018", date(2018, 3, 17)),  # split in two words
    (" 17/0 32018 1234", date(2018, 3, 17)),
    (" 10 03 2018", None), (": 2512 2018", None), (" 12/04 12:30", None), (" 17/0 3/2018/1", None),
])
def test_a_date_whose_separator_ocr_lost_is_read_right_after_a_label(text: str, expected: date | None) -> None:
    found = find_misread_dates(text, after_label=True)
    assert [m.resolve("dmy") for m in found[:1]] == ([expected] if expected else [])
    assert expected is None or find_misread_dates(text.replace(" 8:13", "")) == []  # a label or a time


@pytest.mark.parametrize("text", ["5 DAY 2018", "Qty 2 PCS 2018", "1 AUD 2019", "12 MAT 18", "Qty 3 SET 2018",
                                  "16 Octobor 2018", "16 JUN 2018", "4 JUX 2018"])
def test_a_word_no_single_misread_letter_makes_a_month_is_no_misread_date(text: str) -> None:
    # JUX is one letter from JUN and JUL alike, and an X is a misreading of neither N nor L
    assert find_misread_dates(text) == []


@pytest.mark.parametrize("text", ["25/12/7018", "1899-12-31", "31.12.2100", "3 March 0218", "10/03/2078",
                                  "1969-12-31", "2070-01-01"])
def test_a_year_no_business_document_carries_is_no_date(text: str) -> None:
    assert find_dates(text) == []


@pytest.mark.parametrize("text", ["25/12/20l8", "16 JUN 20|8", "|9-09-17"])
def test_a_date_with_a_misread_digit_is_not_read_as_a_shorter_date(text: str) -> None:
    # "25/12/20" with a two-digit year would be 2020; "9-09-17" is the 9th: these are misread-date repairs
    assert find_dates(text) == []


@pytest.mark.parametrize("text", ["27 04-18", "1234567890", "Tel 0312345678", "12 34-56 10:00", "25/12/2018",
                                  "SO/OS/SOS", "1O-2O-3O", "12/O4/3O18", "CK-11/22/31", "55/03/2018",
                                  "12/30/3018", "47/88/2018", "10/03/2088", "10/03/1978",
                                  "Invoice 2512/2018", "3412/2018 10:00", "25122018 10:00", "2512/18 10:00",
                                  "is June 2018", "Qty 2 of 12/2018", "1.25.2018", "l2 lO/IS",
                                  "Invoice 17/0 32018", "Ref 12-0 45-67", "No 12-34 56 10:00",
                                  "25/12/201", "10/03/208", "1/2/345"])  # 2001 or 2010-2019; 2008 or 2018
def test_digit_runs_that_are_no_misread_date_stay_unread(text: str) -> None:
    assert find_misread_dates(text) == []


@pytest.mark.parametrize(("text", "expected", "misread"), [
    # a four-digit year split after its century, before the end, a time of day, a bracket, a dash or a word
    ("25/12/20 18 8:13:39 PM", date(2018, 12, 25), True), ("BILL DATE : 20/12/20 17", date(2017, 12, 20), True),
    ("16/04/20 18 (MON)", date(2018, 4, 16), True), ("07/04/20 18 - 18.10:59", date(2018, 4, 7), True),
    ("16 JUN 20 18 18:25", date(2018, 6, 16), True),
    # a day's tens split off a date whose day and month are padded differently
    ("DATE :1 7/04/18", date(2018, 4, 17), True), ("REG 1 3-02-2016 02:29 PM", date(2016, 2, 13), True),
    ("0 7/03/2018", date(2018, 3, 7), True),
    # a digit before a one-digit day that padding does not show lost: the 5th or the 25th, worth a look
    ("2 5/12/2018 8:13", date(2018, 12, 5), True), ("1 6 JUN 2018", date(2018, 6, 6), True),
    # no sign of a split: a two-digit year before another number or a time, a digit no day's tens can be,
    # a digit inside a word, a year split where the join makes no date
    ("01/02/20 15 12.50", date(2020, 2, 1), False), ("25/12/20 18:30", date(2020, 12, 25), False),
    ("5/12/2018 8:13", date(2018, 12, 5), False), ("4 5/12/2018", date(2018, 12, 5), False),
    ("x1 5/12/2018", date(2018, 12, 5), False), ("29/02/20 17", date(2020, 2, 29), False),
])
def test_a_date_ocr_split_in_two_words_is_read_joined(text: str, expected: date, misread: bool) -> None:
    dates = [rejoined(text, match) for match in find_dates(text)]
    assert [(d.resolve("dmy"), d.misread) for d in dates] == [(expected, misread)]

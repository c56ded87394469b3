from decimal import Decimal

from quire.extraction.layout import find_numbers, group_lines
from quire.model import PageText, TextMethod, Word


def _page(*words: Word) -> PageText:
    return PageText(1, 600, 800, "", tuple(words), TextMethod.OCR, "test", 1.0)


def test_words_on_a_slightly_skewed_row_form_one_line_left_to_right():
    page = _page(Word("TOTAL", 10, 100, 50, 112), Word("9.00", 300, 103, 330, 115), Word("CASH", 10, 130, 45, 142))
    lines = group_lines(page)
    assert [line.text for line in lines] == ["TOTAL 9.00", "CASH"]


def test_lines_are_sorted_top_to_bottom_whatever_the_word_order():
    page = _page(Word("second", 10, 50, 60, 60), Word("first", 10, 10, 50, 20))
    assert [line.text for line in group_lines(page)] == ["first", "second"]


def test_space_grouped_thousands_are_one_number_but_columns_are_not():
    line = group_lines(_page(
        Word("1", 100, 0, 106, 10), Word("234,56", 109, 0, 145, 10),  # gap of half a character: one number
        Word("2", 200, 0, 206, 10), Word("150,00", 260, 0, 296, 10),  # a column gap: two numbers
    ))[0]
    numbers = find_numbers(line, ",")
    assert [n.value for n in numbers] == [Decimal("1234.56"), Decimal("2"), Decimal("150.00")]
    assert [n.has_fraction for n in numbers] == [True, False, True]


def test_percentages_dates_and_times_are_not_numbers():
    line = group_lines(_page(Word("VAT", 0, 0, 18, 10), Word("19%", 30, 0, 48, 10), Word("01/02/2024", 60, 0, 120, 10),
                             Word("8:13", 130, 0, 154, 10), Word("RM9.00", 200, 0, 236, 10)))[0]
    assert [n.value for n in find_numbers(line, ".")] == [Decimal("9.00")]


def test_large_logo_initials_are_a_block_of_their_own():
    from quire.extraction.layout import split_segments

    # "HW" set twice as large as the street line beside it, closer than a column gap
    line = group_lines(_page(Word("HW", 54, 49, 92, 68), Word("Am", 108, 53, 123, 62),
                             Word("Linden", 126, 53, 157, 62), Word("237", 160, 53, 177, 62)))[0]
    assert [s.text for s in split_segments(line)] == ["HW", "Am Linden 237"]
    # x-height words ("am") are short by nature, not set in another size
    line = group_lines(_page(Word("Frankfurt", 100, 50, 144, 60), Word("am", 147, 53, 160, 60)))[0]
    assert [s.text for s in split_segments(line)] == ["Frankfurt am"]


def test_a_scanned_line_is_not_cut_where_ocr_boxed_its_words_unevenly():
    from quire.extraction.layout import split_segments

    # OCR's boxes as read off dev 004's scan: "République" reaches below the baseline (p, q) and above the
    # capitals (é), so its box is 1.7 times as tall as "la"'s, in the same type
    line = group_lines(_page(Word("203,", 78.4, 43.9, 96.8, 52.8, 0.97),
                             Word("place", 101.0, 43.9, 124.7, 52.8, 0.96),
                             Word("de", 127.9, 44.1, 138.4, 51.6, 0.97),
                             Word("la", 142.1, 44.0, 149.5, 51.4, 0.96),
                             Word("République", 153.5, 42.2, 205.1, 54.9, 0.96)))[0]
    assert [s.text for s in split_segments(line)] == ["203, place de la République"]
    # dev 075: specks boxed with the postcode make it 2.4 times as tall as its town
    line = group_lines(_page(Word("6003", 38.3, 83.3, 55.3, 98.2, 0.96),
                             Word("Luzern", 58.3, 85.3, 83.7, 91.5, 0.97)))[0]
    assert [s.text for s in split_segments(line)] == ["6003 Luzern"]


def test_a_line_goes_on_after_a_comma_across_a_wider_space():
    from quire.extraction.layout import split_segments

    # tune 105's footer as OCR boxed it: "TX" 3.3 points wide, so the space before it reads as 8 points
    boxes = [("112", 54.9, 63.0), ("Maple", 66.4, 83.0), ("Road,", 85.6, 99.5), ("Austin,", 104.1, 123.0),
             ("TX", 131.0, 134.3), ("78701", 137.7, 153.0), ("Bank", 439.2, 452.6),
             ("details:", 455.5, 472.8)]
    line = group_lines(_page(*(Word(text, x0, 732.5, x1, 737.2, 0.96) for text, x0, x1 in boxes)))[0]
    assert [s.text for s in split_segments(line)] == ["112 Maple Road, Austin, TX 78701", "Bank details:"]
    # the same space after a word without a comma parts two blocks
    without_commas = (Word(text.rstrip(","), x0, 732.5, x1, 737.2, 0.96) for text, x0, x1 in boxes)
    line = group_lines(_page(*without_commas))[0]
    assert [s.text for s in split_segments(line)] == ["112 Maple Road Austin", "TX 78701", "Bank details:"]


def test_a_value_wider_than_its_label_is_read_whole_below_it():
    from quire.extraction.layout import text_below

    lines = group_lines(_page(Word("Issue", 56, 195, 75, 204), Word("date", 77, 195, 86, 204),
                              Word("Payment", 221, 195, 250, 204), Word("due", 252, 195, 260, 204),
                              Word("4", 56, 207, 61, 216), Word("February", 64, 207, 100, 216),
                              Word("2025", 103, 207, 115, 216), Word("5", 221, 207, 226, 216),
                              Word("April", 229, 207, 250, 216), Word("2025", 253, 207, 267, 216)))
    assert text_below(lines, 0, 0, len("Issue date"))[0][0] == "4 February 2025"


def test_a_value_set_a_little_higher_than_its_label_is_right_of_it():
    from quire.extraction.layout import text_right

    # the value's line box sits 5 pt higher, so it groups with the address line on the left
    lines = group_lines(_page(Word("5020", 58, 70, 80, 79), Word("Salzburg", 83, 70, 128, 79),
                              Word("R202553155", 430, 70, 481, 79),
                              Word("Rechnung", 310, 75, 350, 84), Word("Nr.", 352, 75, 371, 84)))
    assert [line.text for line in lines] == ["5020 Salzburg R202553155", "Rechnung Nr."]
    assert text_right(lines, 1, len("Rechnung Nr.")) == "R202553155"


def test_a_line_of_specks_between_a_label_and_its_value_is_passed_over():
    from quire.extraction.layout import text_right

    # OCR read two pinpricks as "4" and "a": one on a line of its own between the label and the value,
    # one starting the value's line far to the left, under the label
    from quire.extraction.layout import TextLine

    lines = (TextLine(1, 0, (Word("Credit", 376, 134, 399, 141, 0.9), Word("Note", 402, 135, 420, 142, 0.9),
                             Word("No", 424, 135, 435, 143, 0.9))),
             TextLine(1, 1, (Word("4", 508, 130, 509, 131, 0.3),)),
             TextLine(1, 2, (Word("a", 231, 139, 232, 140, 0.3),
                             Word("CN-2024-64415", 470, 134, 534, 148, 0.9))))
    assert text_right(lines, 0, len("Credit Note No")) == "CN-2024-64415"


def test_a_scanned_thousands_group_whose_narrow_head_ocr_boxed_by_its_ink_is_one_number():
    def numbers(confidence):
        line = group_lines(_page(Word("10,75", 100, 0, 130, 10, confidence), Word("1", 200, 0, 203.6, 10, confidence),
                                 Word("907,05", 211, 0, 247, 10, confidence)))[0]
        return [n.value for n in find_numbers(line, ",")]

    assert numbers(0.9) == [Decimal("10.75"), Decimal("1907.05")]  # the "1" stands 1.3 characters off
    assert numbers(None) == [Decimal("10.75"), Decimal("1"), Decimal("907.05")]  # a text layer's gap is exact


def test_a_table_rule_ocr_read_onto_a_number_is_not_part_of_it():
    line = group_lines(_page(Word("20|", 100, 0, 118, 10, 0.9), Word("1124.00]", 200, 0, 248, 10, 0.9),
                             Word("369.00}", 300, 0, 342, 10, 0.9), Word("78.00)", 400, 0, 436, 10, 0.9),
                             Word("(12.50)", 500, 0, 542, 10, 0.9)))[0]
    assert [n.value for n in find_numbers(line, ".")] == [Decimal("20"), Decimal("1124.00"), Decimal("369.00"),
                                                         Decimal("78.00"), Decimal("-12.50")]


def test_lines_of_specks_under_a_caption_do_not_use_up_the_lines_below():
    from quire.extraction.layout import TextLine, text_below

    lines = (TextLine(1, 0, (Word("Gutschrift-Nr,", 73, 178, 115, 189, 0.9),
                             Word("Rechnungsdatum", 197, 178, 248, 188, 0.9))),
             TextLine(1, 1, (Word("j", 282, 180, 283, 181, 0.3),)),
             TextLine(1, 2, (Word("Stan", 361, 181, 361, 182, 0.3),)),
             TextLine(1, 3, (Word("GS-2025-47131", 73, 192, 131, 200, 0.9),
                             Word("4.", 197, 193, 203, 199, 0.9))))
    assert [text for text, _ in text_below(lines, 0, 0, len("Gutschrift-Nr,"))] == ["GS-2025-47131"]


def _slanted_table(slope: float) -> PageText:
    """Three rows of a table, each word set on a baseline that drops ``slope`` points per point."""
    words = []
    for row, cells in enumerate((("Widget", "2", "10.00", "20.00"), ("Bolt", "5", "1.00", "5.00"),
                                 ("Nut", "10", "0.50", "5.00"), ("Washer", "4", "0.25", "1.00"))):
        for x, text in zip((50, 300, 400, 500), cells, strict=True):
            top = 100 + 14 * row + slope * x
            words.append(Word(text, x, top, x + 6 * len(text), top + 10, 0.9))
    return _page(*words)


def test_a_slanted_scan_is_levelled_so_each_table_row_stays_one_line():
    from quire.extraction.layout import estimate_skew

    page = _slanted_table(0.03)  # about 1.7 degrees: 13.5 pt lower at the amount column than at the text
    assert abs(estimate_skew(page.words) - 0.03) <= 0.002
    assert [line.text for line in group_lines(page)] == ["Widget 2 10.00 20.00", "Bolt 5 1.00 5.00",
                                                         "Nut 10 0.50 5.00", "Washer 4 0.25 1.00"]
    level = _slanted_table(0.0)
    assert estimate_skew(level.words) == 0.0 and group_lines(level)[0].words == tuple(level.words[:4])


def test_a_slanted_scan_whose_phrases_ocr_boxed_level_is_still_levelled():
    """Tesseract gives the words of a phrase the phrase's box: level, however slanted the page. Counted
    word by word, the phrases' many level baselines outvoted the slanted number columns."""
    from quire.extraction.layout import estimate_skew

    slope, words = 0.025, []
    for row, (description, *numbers) in enumerate((
            ("Coffee beans organic bag", "2", "10.00", "20.00"), ("Office chair ergonomic model", "5", "1.00", "5.00"),
            ("Maintenance contract second quarter", "10", "0.50", "5.00"), ("Cleaning office floors weekly", "4",
                                                                            "0.25", "1.00"))):
        top = 100 + 16 * row + slope * 50
        x = 50.0
        for text in description.split():  # one box height for the phrase, as tesseract reports it
            words.append(Word(text, x, top, x + 5 * len(text), top + 14, 0.9))
            x += 5 * len(text) + 4
        for x, text in zip((300, 400, 500), numbers, strict=True):
            number_top = 100 + 16 * row + slope * x
            words.append(Word(text, x, number_top, x + 6 * len(text), number_top + 10, 0.9))
    page = _page(*words)
    assert abs(estimate_skew(page.words) - slope) <= 0.004
    assert [len(line.words) for line in group_lines(page)] == [7, 7, 7, 7]


def test_a_few_ocr_rows_each_boxed_as_one_phrase_are_no_evidence_of_a_slant():
    from quire.extraction.layout import estimate_skew
    from tests.unit.extraction.conftest import page_from_text

    # seven rows whose words share their row's box: seven baseline points, which some slant lines up by chance
    page = page_from_text("""
Nr.  Omschrijving                Aantal      Prijs      Bedrag
1    Service op locatie            6,75     677,20    4.571,10
2    Tonercartridge zwart          2,00      13,00       26,00
3    Arbeidsloon                  50,00     832,00   41.600,00
4    Training medewerkers          5,00   2.242,00   11.210,00
5    Projectmanagement             1,50      30,00       45,00
                                        Subtotaal   57.452,10
""", confidence=0.9)
    assert estimate_skew(page.words) == 0.0


def test_ocr_specks_are_dropped_but_text_layer_punctuation_is_kept():
    page = _page(Word("Total", 10, 10, 40, 20, 0.9), Word(":", 60, 10, 60.5, 20, 0.3),
                 Word("9.00", 100, 10, 124, 20, 0.9))
    assert group_lines(page)[0].text == "Total 9.00"
    digital = _page(Word("Total", 10, 10, 40, 20), Word(":", 60, 10, 60.5, 20), Word("9.00", 100, 10, 124, 20))
    assert group_lines(digital)[0].text == "Total : 9.00"


def test_an_amount_ocr_split_at_its_decimal_point_is_one_number():
    line = group_lines(_page(Word("TOTAL", 10, 0, 40, 10, 0.9), Word("RM", 100, 0, 112, 10, 0.9),
                             Word("73.", 120, 0, 135, 10, 0.9), Word("00", 137, 0, 147, 10, 0.9),
                             Word("2.", 300, 0, 310, 10, 0.9), Word("50", 400, 0, 410, 10, 0.9)))[0]
    # a far-away "50" is another column, not the cents of "2."
    assert [n.value for n in find_numbers(line, ".")][:1] == [Decimal("73.00")]
    assert Decimal("2.50") not in [n.value for n in find_numbers(line, ".")]


def test_a_mark_ocr_read_before_a_number_is_no_part_of_it():
    line = group_lines(_page(Word("„23,35", 10, 0, 40, 10), Word("‘4,29", 100, 0, 125, 10), Word("_3", 200, 0, 210, 10),
                             Word("-5,00", 300, 0, 325, 10)))[0]
    assert [n.value for n in find_numbers(line, ",")] == [Decimal("23.35"), Decimal("4.29"), Decimal("3"),
                                                          Decimal("-5.00")]


def test_a_mark_ocr_read_after_the_cents_is_no_part_of_the_amount():
    line = group_lines(_page(Word("Total", 10, 100, 40, 110), Word("USD", 50, 100, 70, 110),
                             Word("14880.53,", 75, 100, 120, 110), Word("150.00.", 200, 100, 240, 110),
                             Word("1,234,", 300, 100, 330, 110)))[0]
    assert [n.value for n in find_numbers(line, ".")] == [Decimal("14880.53"), Decimal("150.00")]


def test_an_amount_with_its_currency_sign_set_right_after_it_is_a_number():
    line = group_lines(_page(Word("TVA", 10, 0, 30, 10), Word("10", 40, 0, 50, 10), Word("%", 51, 0, 56, 10),
                             Word("3,13€", 200, 0, 230, 10), Word("2411,11£", 300, 0, 345, 10)))[0]
    numbers = find_numbers(line, ",")
    assert [n.value for n in numbers] == [Decimal("3.13"), Decimal("2411.11")]
    assert all(n.has_fraction for n in numbers)


def test_a_scanned_quantity_with_its_unit_read_onto_it_is_a_number():
    def numbers(confidence):
        texts = ("11.75h", "7.5m_", "25pcs", "603.01", "A4", "2xl")
        line = group_lines(_page(*(Word(text, 100 * n, 0, 100 * n + 30, 10, confidence)
                                   for n, text in enumerate(texts, start=1))))[0]
        return [n.value for n in find_numbers(line, ".")]

    assert numbers(0.9) == [Decimal("11.75"), Decimal("7.5"), Decimal("25"), Decimal("603.01")]
    assert numbers(None) == [Decimal("603.01")]  # a text layer prints what it means


def test_a_separator_read_as_letters_does_not_take_the_amount_from_its_label():
    # receipts-style rows as OCR boxed them on a halved SROIE 472: the dashed rule over "Final Total" was read
    # as "LEE", a box 0.4 pt high, and grouped first it drew the amount into a line of its own
    page = _page(Word("Round", 29.2, 80.06, 36.8, 82.2, 0.96), Word("0.00", 58.0, 80.52, 63.4, 82.56, 0.94),
                 Word("LEE", 42.9, 83.83, 55.6, 84.26, 0.19),
                 Word("Final", 29.2, 85.11, 34.6, 87.17, 0.92), Word("Total", 35.9, 85.11, 41.3, 87.26, 0.48),
                 Word('"8.70', 56.7, 84.0, 63.3, 87.6, 0.53))
    assert [line.text for line in group_lines(page)] == ["Round 0.00", 'Final Total "8.70']

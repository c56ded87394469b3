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

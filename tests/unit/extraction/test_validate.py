from dataclasses import replace

import pytest

from quire.extraction.line_items import LineItemTable
from quire.extraction.validate import route, validate_extraction
from quire.model import FieldValue, LineItem, Routing, ValidationResult

SURE, UNSURE = 0.95, 0.3


def _fields(**values):
    base = {"vendor_name": "ACME Ltd", "invoice_number": "INV-1", "issue_date": "2024-01-31", "currency": "EUR",
            "subtotal_amount": "30.00", "tax_amount": "6.00", "total_amount": "36.00"}
    base.update(values)
    return {name: FieldValue(value, SURE) if not isinstance(value, FieldValue) else value
            for name, value in base.items()}


def _receipt_fields(**values):
    return _fields(**{"invoice_number": None, "currency": None, "subtotal_amount": None, **values})


def _table(*rows, rows_seen=None):
    items = tuple(LineItem(d, q, p, a, SURE) for d, q, p, a in rows)
    return LineItemTable(items, len(items) if rows_seen is None else rows_seen, True)


GOOD_ROWS = (("Widget", "2", "10.00", "20.00"), ("Gadget", "1", "10.00", "10.00"))


def _failed(results):
    return {r.rule: r.blocking for r in results if not r.ok}


def test_a_consistent_invoice_is_routed_automatically():
    results, routing = validate_extraction(_fields(), _table(*GOOD_ROWS), "invoice", 0.6)
    assert _failed(results) == {} and routing is Routing.AUTO


def test_line_amounts_may_differ_from_the_subtotal_by_a_cent_per_line():
    _, routing = validate_extraction(_fields(subtotal_amount="30.02", total_amount="36.02"),
                                     _table(*GOOD_ROWS), "invoice", 0.6)
    assert routing is Routing.AUTO


def test_lines_that_do_not_add_up_block_the_document():
    results, routing = validate_extraction(_fields(subtotal_amount="40.00", total_amount="46.00"),
                                           _table(*GOOD_ROWS), "invoice", 0.6)
    assert _failed(results) == {"lines_match_total": True} and routing is Routing.BLOCKED


def test_a_mismatch_on_an_unsure_reading_asks_for_review_instead():
    fields = _fields(subtotal_amount=FieldValue("40.00", UNSURE), total_amount="46.00")
    results, routing = validate_extraction(fields, _table(*GOOD_ROWS), "invoice", 0.6)
    assert _failed(results) == {"field_confidence": False, "lines_match_total": False}
    assert routing is Routing.REVIEW


def test_a_sum_one_misread_character_would_mend_is_a_question_for_review():
    # tune 125 scanned: the tax read "2235.30" for 22235.30 (or the subtotal 105882.36 for 125882.36)
    fields = _fields(subtotal_amount="105882.36", tax_amount="2235.30", total_amount="128117.66")
    results, routing = validate_extraction(fields, _table(), "invoice", 0.6, read_by_ocr=True)
    assert _failed(results) == {"subtotal_plus_tax_equals_total": False} and routing is Routing.REVIEW
    # a text layer's characters are the document's own: there the sum is simply wrong
    results, routing = validate_extraction(fields, _table(), "invoice", 0.6)
    assert _failed(results) == {"subtotal_plus_tax_equals_total": True} and routing is Routing.BLOCKED


def test_subtotal_plus_tax_must_equal_total():
    results, routing = validate_extraction(_fields(total_amount="37.00"), _table(*GOOD_ROWS), "invoice", 0.6)
    assert _failed(results) == {"subtotal_plus_tax_equals_total": True} and routing is Routing.BLOCKED


def test_without_a_subtotal_lines_are_compared_to_total_less_tax():
    _, routing = validate_extraction(_fields(subtotal_amount=None), _table(*GOOD_ROWS), "invoice", 0.6)
    assert routing is Routing.AUTO


@pytest.mark.parametrize(("fields", "rows"), [
    # SROIE 179: prices with the GST in them add up to the total, not to the subtotal before tax
    (_fields(subtotal_amount="165.00", tax_amount="9.90", total_amount="174.90"),
     (("Item", "3", "58.30", "174.90"),)),
    # SROIE 281: "TOTAL SALES 33.00", "GST 6% 1.98", "ROUNDING ADJUSTMENT 0.02", "TOTAL 35.00"
    (_receipt_fields(tax_amount="1.98", total_amount="35.00"), (("Roasted duck", "1", "33.00", "33.00"),)),
], ids=["tax-inclusive-prices", "total-rounded-to-5-sen"])
def test_lines_may_add_up_to_the_total_itself_or_to_it_before_its_cash_rounding(fields, rows):
    results, routing = validate_extraction(fields, _table(*rows), "receipt", 0.6)
    assert _failed(results) == {} and routing is Routing.AUTO


def test_a_row_left_unread_makes_a_sum_that_fails_a_question_for_review():
    rows = (("Installation", "20", "16.98", "339.60"), ("Câble", "0.5", "4.72", "2.36"))
    fields = _fields(subtotal_amount="415.67", tax_amount="41.57", total_amount="457.24")
    results, routing = validate_extraction(fields, _table(*rows, rows_seen=3), "receipt", 0.6)
    assert _failed(results) == {"row_count": False, "lines_match_total": False} and routing is Routing.REVIEW
    detail = next(r.detail for r in results if r.rule == "lines_match_total")
    assert detail == "lines sum to 341.96, expected 415.67 (subtotal) or 457.24 (total)"


def test_lines_read_by_ocr_short_of_the_totals_may_be_rows_it_lost():
    # dev 052 scanned: two of twenty rows read as noise, the eighteen left counted as all the table shows
    fields = _fields(subtotal_amount="40.00", total_amount="46.00")
    results, routing = validate_extraction(fields, _table(*GOOD_ROWS), "invoice", 0.6, read_by_ocr=True)
    assert _failed(results) == {"lines_match_total": False} and routing is Routing.REVIEW
    # lines over the totals are no lost row: they block, as lines short of them do in a text layer
    fields = _fields(subtotal_amount="20.00", tax_amount="4.00", total_amount="24.00")
    results, routing = validate_extraction(fields, _table(*GOOD_ROWS), "invoice", 0.6, read_by_ocr=True)
    assert _failed(results) == {"lines_match_total": True} and routing is Routing.BLOCKED

def test_a_row_that_does_not_multiply_out_makes_a_sum_that_fails_a_question_for_review():
    # tune 196 scanned: "4 x 903.27" over an amount read "3622.75" (3613.08): the sum fails for that row
    rows = (("Widget", "2", "10.00", "21.00"), ("Gadget", "1", "10.00", "10.00"))
    results, routing = validate_extraction(_fields(), _table(*rows), "invoice", 0.6)
    assert _failed(results) == {"row_quantity_times_price": False, "lines_match_total": False}
    assert routing is Routing.REVIEW


def test_a_discount_or_charge_in_the_totals_makes_their_sum_a_question_for_review():
    # SROIE 037: SUBTOTAL 79.60, DISCOUNT -30.00, SERV CHARGE 4.96, GST 3.27, ROUNDING ADJ -0.03, TOTAL 57.80
    fields = _receipt_fields(subtotal_amount="79.60", tax_amount="3.27", total_amount="57.80")
    assert _failed(validate_extraction(fields, _table(), "receipt", 0.6)[0]) == {
        "subtotal_plus_tax_equals_total": True}
    results, routing = validate_extraction(fields, _table(), "receipt", 0.6, adjusted=True)
    assert _failed(results) == {"subtotal_plus_tax_equals_total": False} and routing is Routing.REVIEW


def test_a_subtotal_equal_to_the_total_may_have_the_tax_in_it():
    # SROIE 507: "SUB-TOTAL (GST) 6.00", "TOTAL 6.00", "*GST @ 6% INCLUDED IN TOTAL", "TAX TOTAL: 0.34"
    fields = _receipt_fields(subtotal_amount="6.00", tax_amount="0.34", total_amount="6.00")
    rows = (("Cable ties", "1", "6.00", "6.00"),)
    results, routing = validate_extraction(fields, _table(*rows), "receipt", 0.6)
    assert _failed(results) == {"subtotal_plus_tax_equals_total": False} and routing is Routing.REVIEW


def test_a_row_is_checked_less_the_discount_printed_on_it():
    # tune 001: "Projectmanagement 5 pak 28,00 10 % 126,00"
    discounted = (LineItem("Project management", "5", "28.00", "126.00", SURE, discount_percent="10"),
                  LineItem("Travel", "2.75", "1229.66", "3297.03", SURE, discount_percent="2.5"))
    fields = _fields(subtotal_amount="3423.03", tax_amount="0.00", total_amount="3423.03")
    results, routing = validate_extraction(fields, LineItemTable(discounted, 2, True), "invoice", 0.6)
    assert _failed(results) == {} and routing is Routing.AUTO
    wrong = (replace(discounted[0], discount_percent="5"), discounted[1])
    results, routing = validate_extraction(fields, LineItemTable(wrong, 2, True), "invoice", 0.6)
    assert _failed(results) == {"row_quantity_times_price": False} and routing is Routing.REVIEW
    assert results[2].detail == "row 1: 5 x 28.00 less 5 % != 126.00"


def test_row_arithmetic_and_row_count_ask_for_review():
    rows = (("Widget", "2", "10.00", "21.00"), ("Gadget", "1", "9.00", "9.00"))
    results, routing = validate_extraction(_fields(), _table(*rows, rows_seen=3), "invoice", 0.6)
    assert _failed(results) == {"row_quantity_times_price": False, "row_count": False}
    assert routing is Routing.REVIEW


def test_missing_required_fields_ask_for_review():
    results, routing = validate_extraction(_fields(invoice_number=None), _table(*GOOD_ROWS), "invoice", 0.6)
    assert _failed(results) == {"required_fields": False} and routing is Routing.REVIEW
    assert "invoice_number" in next(r.detail for r in results if r.rule == "required_fields")


def test_a_receipt_needs_no_invoice_number():
    _, routing = validate_extraction(_fields(invoice_number=None, currency=None), _table(*GOOD_ROWS), "receipt", 0.6)
    assert routing is Routing.AUTO


@pytest.mark.parametrize(("doc_type", "expected"), [("invoice", Routing.BLOCKED), ("credit_note", Routing.AUTO)])
def test_a_negative_total_is_only_allowed_on_a_credit_note(doc_type, expected):
    fields = _fields(subtotal_amount="-30.00", tax_amount="-6.00", total_amount="-36.00")
    rows = (("Return", "-1", "30.00", "-30.00"),)
    results, routing = validate_extraction(fields, _table(*rows), doc_type, 0.6)
    assert routing is expected, results


def test_unsupported_document_types_go_to_review():
    _, routing = validate_extraction(_fields(), _table(), "letter", 0.6)
    assert routing is Routing.REVIEW


def test_route_prefers_blocked_over_review():
    assert route([ValidationResult("a", False), ValidationResult("b", False, blocking=True)]) is Routing.BLOCKED
    assert route([ValidationResult("a", True)]) is Routing.AUTO

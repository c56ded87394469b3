"""Validation rules and routing: AUTO, REVIEW (a person should look) or BLOCKED (a business rule broke).

A failed arithmetic rule is only *blocking* when the document itself must be at fault: every
amount it used was read with at least the review confidence, every row was read whole (as many
as the table shows, each quantity x price its amount), and the totals print no discount, charge
or rounding line the rule cannot account for. On a page read by OCR, lines that fall short of the
totals do not block either: OCR loses whole rows (faint, or crossed by a table rule and read as
noise), and the count of rows the table shows comes from the same reading, so it cannot tell.
Otherwise the failure says more about the reading than about the document, and a person should
review it instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal

from quire.extraction.line_items import LineItemTable
from quire.extraction.normalise import amounts_one_edit_apart
from quire.model import FieldValue, LineItem, Routing, ValidationResult

#: rounding allowed per line when lines are summed (each printed amount may be rounded by half a cent)
ROUNDING_PER_LINE = Decimal("0.01")
#: what rounding a total to the smallest coin moves it by (to 5 cents or 5 sen: 0.02 at most)
CASH_ROUNDING = Decimal("0.02")

REQUIRED_FIELDS: Mapping[str, tuple[str, ...]] = {
    "invoice": ("vendor_name", "invoice_number", "issue_date", "total_amount", "currency"),
    "credit_note": ("vendor_name", "invoice_number", "issue_date", "total_amount", "currency"),
    "receipt": ("vendor_name", "issue_date", "total_amount"),
    "purchase_order": ("vendor_name", "invoice_number", "issue_date"),
}


def _amount(field: FieldValue | None) -> Decimal | None:
    return Decimal(field.value) if field is not None and field.value is not None else None


def validate_extraction(fields: Mapping[str, FieldValue], table: LineItemTable, doc_type: str,
                        review_confidence: float, *, adjusted: bool = False, read_by_ocr: bool = False,
                        ) -> tuple[tuple[ValidationResult, ...], Routing]:
    """Run every rule in a fixed order and decide the routing from the failures.

    ``adjusted``: the totals print a discount, a further charge or a rounding, which the sums
    below do not read, so a sum that fails asks for review instead of blocking.
    ``read_by_ocr``: the amounts were recognised from an image, so a sum that one misread
    character would mend, or lines short of the totals (rows OCR lost), ask for review; a text
    layer's characters and rows are the document's own.
    """
    rows = [*_row_arithmetic(table.items), _row_count(table)]
    misread_rows = not all(r.ok for r in rows)  # a row that does not multiply out, or one too many or too few
    results = [
        *_required_fields(fields, doc_type),
        *_low_confidence(fields, review_confidence),
        *rows,
        *_lines_match_totals(fields, table.items, review_confidence, decisive=not (misread_rows or adjusted),
                             read_by_ocr=read_by_ocr),
        *_totals_add_up(fields, review_confidence, decisive=not adjusted, read_by_ocr=read_by_ocr),
        *_sign(fields, doc_type, review_confidence),
    ]
    return tuple(results), route(results)


def route(results: Sequence[ValidationResult]) -> Routing:
    """BLOCKED on a failed blocking rule, REVIEW on any other failure, else AUTO."""
    failed = [r for r in results if not r.ok]
    if any(r.blocking for r in failed):
        return Routing.BLOCKED
    return Routing.REVIEW if failed else Routing.AUTO


def _required_fields(fields: Mapping[str, FieldValue], doc_type: str) -> list[ValidationResult]:
    required = REQUIRED_FIELDS.get(doc_type)
    if required is None:
        return [ValidationResult("document_type_supported", False, f"no extraction rules for {doc_type!r}")]
    missing = [name for name in required if fields.get(name) is None or fields[name].value is None]
    return [ValidationResult("required_fields", not missing, "missing: " + ", ".join(missing) if missing else "")]


def _low_confidence(fields: Mapping[str, FieldValue], review_confidence: float) -> list[ValidationResult]:
    unsure = [f"{name} ({field.confidence:.2f})" for name, field in fields.items()
              if field.value is not None and field.confidence < review_confidence]
    return [ValidationResult("field_confidence", not unsure,
                             "below review confidence: " + ", ".join(unsure) if unsure else "")]


def _row_arithmetic(items: Sequence[LineItem]) -> list[ValidationResult]:
    broken = []
    for number, item in enumerate(items, start=1):
        if item.quantity is None or item.unit_price is None or item.amount is None:
            continue
        product = Decimal(item.quantity) * Decimal(item.unit_price)
        less = ""
        if item.discount_percent is not None:
            product *= 1 - Decimal(item.discount_percent) / 100
            less = f" less {item.discount_percent} %"
        if abs(product - Decimal(item.amount)) > ROUNDING_PER_LINE:
            broken.append(f"row {number}: {item.quantity} x {item.unit_price}{less} != {item.amount}")
    return [ValidationResult("row_quantity_times_price", not broken, "; ".join(broken))]


def _row_count(table: LineItemTable) -> ValidationResult:
    """Every row the table shows with a money amount should have become a line item."""
    if not table.rows_countable:
        return ValidationResult("row_count", True, "no item table found")
    ok = len(table.items) == table.rows_seen
    return ValidationResult("row_count", ok, "" if ok else f"read {len(table.items)} of {table.rows_seen} rows")


def _lines_match_totals(fields: Mapping[str, FieldValue], items: Sequence[LineItem], review_confidence: float,
                        *, decisive: bool, read_by_ocr: bool) -> list[ValidationResult]:
    """The line amounts add up to the subtotal, to the total less tax, or to the total itself (prices with
    tax included, as tills print them), each printed amount rounded by up to a cent and a total by the
    smallest coin. Lines read by OCR that sum to less than every one of them may be missing rows: that
    failure asks for review."""
    amounts = [Decimal(item.amount) for item in items if item.amount is not None]
    if not amounts:
        return []
    subtotal, tax, total = (fields.get(name) for name in ("subtotal_amount", "tax_amount", "total_amount"))
    targets: list[tuple[str, Decimal, Decimal]] = []  # (what, amount, rounding beyond the lines' own)
    if _amount(subtotal) is not None:
        targets.append(("subtotal", _amount(subtotal), Decimal(0)))  # type: ignore[arg-type]
    if _amount(total) is not None:
        if _amount(tax):
            net = _amount(total) - _amount(tax)  # type: ignore[operator]
            targets.append(("total less tax", net, CASH_ROUNDING))
        targets.append(("total", _amount(total), CASH_ROUNDING))  # type: ignore[arg-type]
    if not targets:
        return []
    lines_sum = sum(amounts, Decimal(0))
    ok = any(abs(lines_sum - amount) <= ROUNDING_PER_LINE * len(amounts) + rounding
             for _, amount, rounding in targets)
    rows_lost = read_by_ocr and all(lines_sum < amount for _, amount, _ in targets)
    sure = decisive and not rows_lost and _all_sure([subtotal, total, tax], review_confidence) \
        and all(i.confidence >= review_confidence for i in items)
    named: dict[Decimal, str] = {}
    for what, amount, _ in targets:
        named.setdefault(amount, what)  # a subtotal equal to the total less tax is named once
    expected = " or ".join(f"{amount} ({what})" for amount, what in named.items())
    detail = "" if ok else f"lines sum to {lines_sum}, expected {expected}"
    return [ValidationResult("lines_match_total", ok, detail, blocking=not ok and sure)]


def _totals_add_up(fields: Mapping[str, FieldValue], review_confidence: float, *,
                   decisive: bool, read_by_ocr: bool) -> list[ValidationResult]:
    """Subtotal plus tax is the total, give or take the total's rounding to the smallest coin. A subtotal
    equal to the total fails without blocking: it may be a subtotal with the tax included, as receipts
    print it; so does a sum that one character misread by OCR would mend."""
    subtotal, tax, total = (fields.get(name) for name in ("subtotal_amount", "tax_amount", "total_amount"))
    values = [_amount(subtotal), _amount(tax), _amount(total)]
    if any(v is None for v in values):
        return []
    expected = values[0] + values[1]  # type: ignore[operator]
    ok = abs(expected - values[2]) <= ROUNDING_PER_LINE + CASH_ROUNDING  # type: ignore[operator]
    decisive = decisive and values[0] != values[2] \
        and not (read_by_ocr and _one_misread_apart(*values))  # type: ignore[arg-type]
    return [ValidationResult("subtotal_plus_tax_equals_total", ok,
                             "" if ok else f"{values[0]} + {values[1]} != {values[2]}",
                             blocking=not ok and decisive
                             and _all_sure([subtotal, tax, total], review_confidence))]


def _one_misread_apart(subtotal: Decimal, tax: Decimal, total: Decimal) -> bool:
    """Whether one of the three is a single character away from what the other two make it ("2235.30" for a
    tax of 22235.30): a misreading explains the failure better than the document."""
    implied = ((subtotal, total - tax), (tax, total - subtotal), (total, subtotal + tax))
    return any(amounts_one_edit_apart(made, read) for read, made in implied)


def _sign(fields: Mapping[str, FieldValue], doc_type: str, review_confidence: float) -> list[ValidationResult]:
    total = fields.get("total_amount")
    value = _amount(total)
    if value is None or doc_type == "credit_note":
        return []
    ok = value >= 0
    return [ValidationResult("total_not_negative", ok, "" if ok else f"negative total {value} on a {doc_type}",
                             blocking=not ok and _all_sure([total], review_confidence))]


def _all_sure(used: Sequence[FieldValue | None], review_confidence: float) -> bool:
    return all(f is not None and f.confidence >= review_confidence for f in used if f is not None)

"""Documents that are not itemised invoices: business letters and till receipts.

They exist so classification and packet splitting see realistic negatives; a receipt still
carries amounts (and ground truth for them), a letter carries only its sender and date.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from .layouts import GREY, MARGIN, Sheet, customer_lines, footer_centered_note, totals_rows, vendor_lines

if TYPE_CHECKING:
    from .invoices import InvoiceSpec

#: an 80 mm till roll
RECEIPT_WIDTH = 226.8
_RECEIPT_ITEM_HEIGHT = 24


def draw_letter(canvas: Canvas, spec: InvoiceSpec, size: tuple[float, float]) -> None:
    letter = spec.letter
    assert letter is not None, "a letter spec carries its text"
    sheet = Sheet(canvas, spec, size, 1, 1)
    right = sheet.width - MARGIN
    sheet.logo(right - 50, 36, 50)
    sheet.lines(MARGIN, 52, vendor_lines(spec), 9.5, bold_first=True)
    sheet.lines(MARGIN, 150, customer_lines(spec), 10)
    sheet.text(right, 240, f"{spec.vendor.city}, {spec.date_text(spec.issue_date)}", 10, align="right")
    sheet.text(MARGIN, 272, letter.subject, 11, bold=True)
    top = 304.0
    sheet.text(MARGIN, top, letter.salutation, 10.5)
    top += 24
    for paragraph in letter.paragraphs:
        for line in simpleSplit(paragraph, sheet.regular, 10.5, right - MARGIN):
            sheet.text(MARGIN, top, line, 10.5)
            top += 14.5
        top += 8
    sheet.text(MARGIN, top + 10, letter.closing, 10.5)
    sheet.text(MARGIN, top + 56, letter.signer, 10.5)
    sheet.text(MARGIN, top + 70, spec.vendor.name, 9, color=GREY)
    footer_centered_note(sheet)
    canvas.showPage()


def draw_receipt(canvas: Canvas, spec: InvoiceSpec) -> None:
    """A till receipt on a narrow page as long as its content."""
    height = 250 + _RECEIPT_ITEM_HEIGHT * len(spec.items) + 110
    sheet = Sheet(canvas, spec, (RECEIPT_WIDTH, height), 1, 1)
    middle, left, right = RECEIPT_WIDTH / 2, 14, RECEIPT_WIDTH - 14
    top = sheet.lines(middle, 30, vendor_lines(spec), 8.5, bold_first=True, align="center", max_width=right - left)
    top = sheet.lines(middle, top + 2, [f"{spec.labels['phone']} {spec.vendor_contacts['phone']}",
                                         f"{spec.labels['vat_id']} {spec.vendor_contacts['tax_id']}"], 7.5,
                      align="center", color=GREY)
    sheet.text(middle, top + 14, spec.labels["title"], 11, bold=True, align="center")
    top += 34
    time_of_day = f"{9 + spec.seed % 10:02d}:{(spec.seed * 7) % 60:02d}"
    sheet.text(left, top, f"{spec.labels['number']}: {spec.number}", 8)
    sheet.text(left, top + 11, f"{spec.labels['date']}: {spec.date_text(spec.issue_date)}  {time_of_day}", 8)
    top += 20
    sheet.rule(left, top, right, 0.6, dash=(2, 2))
    top += 14
    for item in spec.items:
        sheet.text(left, top, item.description, 8, max_width=right - left)
        sheet.text(left + 10, top + 10, f"{spec.quantity_text(item.quantity)} x {spec.number_text(item.unit_price)}",
                   7.5, color=GREY)
        sheet.text(right, top + 10, spec.number_text(item.amount), 8, align="right")
        top += _RECEIPT_ITEM_HEIGHT
    sheet.rule(left, top - 6, right, 0.6, dash=(2, 2))
    top += 8
    for index, (label, value) in enumerate(totals_rows(spec, currency_everywhere=False)):
        last = index == 2
        sheet.text(left, top, label.upper() if last else label, 10 if last else 8, bold=last)
        sheet.text(right, top, value, 10 if last else 8, bold=last, align="right")
        top += 14 if not last else 20
    sheet.text(left, top, spec.labels["paid_by"], 8)
    sheet.text(right, top, f"**** {spec.customer_number[-4:]}", 8, align="right")
    sheet.text(middle, top + 24, spec.labels["thanks"], 8, align="center", max_width=right - left)
    canvas.showPage()

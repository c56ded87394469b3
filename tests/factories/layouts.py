"""Page layouts: where a document's header, parties, table, totals and footer go.

A :class:`Layout` combines one choice per component (header, table style, totals block,
footer, page-number position) with the geometry that pagination needs. The geometry is
fixed per layout, so how many item rows fit on a page is known before anything is drawn
and :func:`paginate` and the renderer always agree. Coordinates here are measured from
the *top* of the page (like :mod:`quire.model`), converted to reportlab's bottom-up
coordinates only inside :class:`Sheet`.

Dev layouts and held-out layouts share components but the held-out ones use arrangements
the dev ones never do (a sidebar, a landscape ledger, two-line items with the document
details at the foot of the page), so a benchmark on the held-out split measures how well
extraction generalises beyond the layouts it was tuned on.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

if TYPE_CHECKING:
    from .invoices import InvoiceSpec, Item

#: family -> (regular, bold) font names; DejaVu is drawn with Helvetica where the files are missing
FONT_FAMILIES: dict[str, tuple[str, str]] = {
    "Helvetica": ("Helvetica", "Helvetica-Bold"),
    "Times": ("Times-Roman", "Times-Bold"),
    "Courier": ("Courier", "Courier-Bold"),
    "DejaVuSans": ("DejaVuSans", "DejaVuSans-Bold"),
    "DejaVuSerif": ("DejaVuSerif", "DejaVuSerif-Bold"),
}
_FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/dejavu"),
              Path("/usr/local/share/fonts"))

GREY = (0.38, 0.38, 0.38)
LIGHT = (0.92, 0.92, 0.92)
BLACK = (0, 0, 0)
WHITE = (1, 1, 1)
MARGIN = 50


@cache
def _fonts(family: str) -> tuple[str, str]:
    """Registered (regular, bold) names for ``family``, registering TrueType files once per process."""
    regular, bold = FONT_FAMILIES[family]
    if not family.startswith("DejaVu"):
        return regular, bold
    for directory in _FONT_DIRS:
        if (directory / f"{regular}.ttf").is_file() and (directory / f"{bold}.ttf").is_file():
            pdfmetrics.registerFont(TTFont(regular, str(directory / f"{regular}.ttf")))
            pdfmetrics.registerFont(TTFont(bold, str(directory / f"{bold}.ttf")))
            return regular, bold
    return FONT_FAMILIES["Helvetica"]


# -- drawing surface -------------------------------------------------------------------------------------

class Sheet:
    """One page being drawn, with helpers in top-down coordinates."""

    def __init__(self, canvas: Canvas, spec: InvoiceSpec, size: tuple[float, float], page: int, pages: int):
        self.canvas, self.spec = canvas, spec
        self.width, self.height = size
        self.page, self.pages = page, pages
        self.regular, self.bold = _fonts(spec.style.font_family)
        self.accent = spec.style.accent
        canvas.setPageSize(size)

    def text(self, x: float, top: float, text: str, size: float = 9, *, bold: bool = False, align: str = "left",
             color: tuple[float, float, float] = BLACK, max_width: float | None = None) -> float:
        """Draw one line with its baseline ``top`` points below the page top; returns its width."""
        font = self.bold if bold else self.regular
        if max_width is not None:
            # shrink rather than cut: the printed text must stay exactly the ground truth
            while size > 5 and pdfmetrics.stringWidth(text, font, size) > max_width:
                size -= 0.25
        width = pdfmetrics.stringWidth(text, font, size)
        self.canvas.setFillColorRGB(*color)
        self.canvas.setFont(font, size)
        y = self.height - top
        if align == "right":
            self.canvas.drawRightString(x, y, text)
        elif align == "center":
            self.canvas.drawCentredString(x, y, text)
        else:
            self.canvas.drawString(x, y, text)
        return width

    def lines(self, x: float, top: float, lines: Sequence[str], size: float = 9, *, leading: float | None = None,
              bold_first: bool = False, align: str = "left", color: tuple[float, float, float] = BLACK,
              max_width: float | None = None) -> float:
        """Draw lines downwards from ``top``; returns the baseline below the last one."""
        leading = leading or size * 1.3
        for index, line in enumerate(lines):
            self.text(x, top, line, size + (1 if bold_first and index == 0 else 0), bold=bold_first and index == 0,
                      align=align, color=color, max_width=max_width)
            top += leading
        return top

    def rule(self, x0: float, top: float, x1: float, width: float = 0.5,
             color: tuple[float, float, float] = BLACK, dash: Sequence[float] | None = None) -> None:
        self.canvas.setStrokeColorRGB(*color)
        self.canvas.setLineWidth(width)
        self.canvas.setDash(list(dash) if dash else [])
        self.canvas.line(x0, self.height - top, x1, self.height - top)
        self.canvas.setDash([])

    def vline(self, x: float, top: float, bottom: float, width: float = 0.5,
              color: tuple[float, float, float] = BLACK) -> None:
        self.canvas.setStrokeColorRGB(*color)
        self.canvas.setLineWidth(width)
        self.canvas.line(x, self.height - top, x, self.height - bottom)

    def box(self, x: float, top: float, width: float, height: float, *, fill: tuple[float, float, float] | None = None,
            stroke: tuple[float, float, float] | None = BLACK, line_width: float = 0.5) -> None:
        if fill:
            self.canvas.setFillColorRGB(*fill)
        if stroke:
            self.canvas.setStrokeColorRGB(*stroke)
        self.canvas.setLineWidth(line_width)
        self.canvas.rect(x, self.height - top - height, width, height, stroke=int(stroke is not None),
                         fill=int(fill is not None))

    def logo(self, x: float, top: float, size: float, *, round_: bool = False) -> None:
        """A monogram in a filled square or circle standing in for a company logo."""
        initials = "".join(word[0] for word in self.spec.vendor.name.split()[:2] if word[0].isalpha()).upper()
        self.canvas.setFillColorRGB(*self.accent)
        if round_:
            self.canvas.circle(x + size / 2, self.height - top - size / 2, size / 2, stroke=0, fill=1)
        else:
            self.canvas.rect(x, self.height - top - size, size, size, stroke=0, fill=1)
        self.text(x + size / 2, top + size / 2 + size * 0.14, initials, size * 0.4, bold=True, align="center",
                  color=WHITE)


# -- content shared by layouts ---------------------------------------------------------------------------

def meta_rows(spec: InvoiceSpec, *, with_number: bool = True) -> list[tuple[str, str]]:
    """The document details as (label, value) pairs, in the order software usually prints them."""
    labels = spec.labels
    rows = [(labels["number"], spec.number)] if with_number else []
    rows.append((labels["date"], spec.date_text(spec.issue_date)))
    if spec.due_date:
        rows.append((labels["due_date"], spec.date_text(spec.due_date)))
    if spec.doc_type != "purchase_order":
        rows.append((labels["customer_number"], spec.customer_number))
    if spec.reference:
        rows.append((labels["reference"], spec.reference))
    return rows


def totals_rows(spec: InvoiceSpec, *, currency_everywhere: bool) -> list[tuple[str, str]]:
    amount = spec.money_text if currency_everywhere else spec.number_text
    return [(spec.labels["subtotal"], amount(spec.subtotal)),
            (spec.labels["tax"].format(rate=spec.rate_text()), amount(spec.tax)),
            (spec.labels["total"], spec.money_text(spec.total))]


def vendor_lines(spec: InvoiceSpec) -> list[str]:
    return [spec.vendor.name, *spec.vendor.address_lines]


def customer_lines(spec: InvoiceSpec) -> list[str]:
    return [spec.customer.name, *spec.customer.address_lines]


def one_line_address(spec: InvoiceSpec, separator: str = " · ") -> str:
    return separator.join(vendor_lines(spec))


def _meta_list(sheet: Sheet, x_label: float, x_value: float, top: float, rows: Sequence[tuple[str, str]],
               *, size: float = 9, colon: bool = True, label_align: str = "left", value_align: str = "left") -> float:
    for label, value in rows:
        sheet.text(x_label, top, f"{label}:" if colon else label, size, color=GREY, align=label_align)
        sheet.text(x_value, top, value, size, bold=label == sheet.spec.labels["number"], align=value_align)
        top += size * 1.55
    return top


def _bill_to(sheet: Sheet, x: float, top: float, *, label: bool = True, size: float = 9.5) -> float:
    if label:
        sheet.text(x, top, sheet.spec.labels["bill_to"], size - 1.5, bold=True, color=GREY)
        top += size * 1.45
    return sheet.lines(x, top, customer_lines(sheet.spec), size, bold_first=True, max_width=230)


# -- headers: the first page above the table -------------------------------------------------------------

def header_classic(sheet: Sheet) -> None:
    spec, right = sheet.spec, sheet.width - MARGIN
    sheet.text(MARGIN, 62, spec.labels["title"], 24, bold=True, color=sheet.accent)
    sheet.logo(right - 58, 36, 58)
    sheet.lines(MARGIN, 92, vendor_lines(spec), 9, bold_first=True)
    _bill_to(sheet, MARGIN, 168)
    _meta_list(sheet, right - 215, right, 168, meta_rows(spec), value_align="right")


def header_band(sheet: Sheet) -> None:
    spec, right = sheet.spec, sheet.width - MARGIN
    sheet.box(0, 0, sheet.width, 96, fill=sheet.accent, stroke=None)
    sheet.text(MARGIN, 44, spec.vendor.name, 15, bold=True, color=WHITE, max_width=300)
    sheet.text(MARGIN, 62, " · ".join(spec.vendor.address_lines), 8.5, color=WHITE)
    sheet.text(MARGIN, 76, f"{spec.vendor_contacts['phone']} · {spec.vendor_contacts['email']}", 8, color=WHITE)
    sheet.text(right, 58, spec.labels["title"].upper(), 24, bold=True, color=WHITE, align="right")
    _bill_to(sheet, MARGIN, 130)
    _meta_list(sheet, sheet.width / 2 + 20, right, 130, meta_rows(spec), value_align="right")


def header_minimal(sheet: Sheet) -> None:
    spec, right = sheet.spec, sheet.width - MARGIN
    sheet.lines(MARGIN, 55, vendor_lines(spec), 9, bold_first=True)
    sheet.text(right, 64, spec.labels["title"], 30, align="right")
    rows = meta_rows(spec)
    column = (right - MARGIN) / len(rows)
    for index, (label, value) in enumerate(rows):
        x = MARGIN + index * column
        sheet.text(x, 132, label, 7.5, color=GREY, max_width=column - 6)
        sheet.text(x, 145, value, 9.5, bold=index == 0, max_width=column - 6)
    _bill_to(sheet, MARGIN, 182)


def header_boxed(sheet: Sheet) -> None:
    spec, right = sheet.spec, sheet.width - MARGIN
    sheet.box(MARGIN, 36, 250, 78)
    sheet.lines(MARGIN + 8, 54, vendor_lines(spec), 9, bold_first=True, max_width=234)
    sheet.text(right, 56, spec.labels["title"], 20, bold=True, align="right")
    rows, x_split = meta_rows(spec), right - 120
    for index, (label, value) in enumerate(rows):
        top = 70 + index * 17
        sheet.box(right - 240, top, 240, 17)
        sheet.vline(x_split, top, top + 17)
        sheet.text(right - 235, top + 12, label, 8.5, max_width=112)
        sheet.text(x_split + 5, top + 12, value, 8.5, bold=index == 0, max_width=112)
    sheet.box(MARGIN, 140, 250, 84)
    _bill_to(sheet, MARGIN + 8, 156)


def header_zebra(sheet: Sheet) -> None:
    spec, right = sheet.spec, sheet.width - MARGIN
    sheet.logo(MARGIN, 34, 46, round_=True)
    sheet.lines(MARGIN + 58, 48, vendor_lines(spec), 9, bold_first=True)
    sheet.text(right, 56, spec.labels["title"], 22, bold=True, align="right", color=sheet.accent)
    _bill_to(sheet, MARGIN, 146)
    _meta_list(sheet, right - 108, right - 100, 146, meta_rows(spec), label_align="right")


def header_letterhead(sheet: Sheet) -> None:
    spec, middle, right = sheet.spec, sheet.width / 2, sheet.width - MARGIN
    sheet.text(middle, 52, spec.vendor.name, 18, bold=True, align="center")
    sheet.text(middle, 68, ", ".join(spec.vendor.address_lines), 9, align="center")
    sheet.text(middle, 80, f"{spec.labels['phone']} {spec.vendor_contacts['phone']} · {spec.vendor_contacts['email']}",
               8, align="center", color=GREY)
    sheet.rule(MARGIN, 90, right, 1.2, color=sheet.accent)
    sheet.text(middle, 124, spec.labels["title"], 16, bold=True, align="center")
    _bill_to(sheet, MARGIN, 152)
    _meta_list(sheet, middle + 40, middle + 150, 152, meta_rows(spec))


def header_din(sheet: Sheet) -> None:
    """DIN 5008 business letter: sender line above a window address, info block on the right."""
    spec, right = sheet.spec, sheet.width - MARGIN
    sheet.lines(right, 50, vendor_lines(spec), 9, bold_first=True, align="right")
    sender = one_line_address(spec, " · ")
    width = sheet.text(MARGIN + 5, 128, sender, 6.5, max_width=240)
    sheet.rule(MARGIN + 5, 130, MARGIN + 5 + width, 0.3)
    sheet.lines(MARGIN + 5, 146, customer_lines(spec), 10)
    _meta_list(sheet, right - 200, right - 95, 140, meta_rows(spec), size=8.5)
    sheet.text(MARGIN, 250, spec.labels["title"], 14, bold=True)


def header_split(sheet: Sheet) -> None:
    spec, right = sheet.spec, sheet.width - MARGIN
    sheet.logo(right - 40, 30, 40)
    sheet.lines(right, 86, vendor_lines(spec), 8.5, bold_first=True, align="right")
    _bill_to(sheet, MARGIN, 60)
    sheet.text(MARGIN, 158, spec.labels["title"], 22, bold=True)
    sheet.text(MARGIN, 176, f"{spec.labels['number']} {spec.number}", 11, bold=True)
    rows = meta_rows(spec, with_number=False)
    column = (right - MARGIN) / len(rows)
    sheet.box(MARGIN, 190, right - MARGIN, 32, fill=LIGHT, stroke=None)
    for index, (label, value) in enumerate(rows):
        x = MARGIN + 6 + index * column
        sheet.text(x, 202, label, 7.5, color=GREY, max_width=column - 10)
        sheet.text(x, 215, value, 9, max_width=column - 10)


def header_sidebar(sheet: Sheet) -> None:
    spec = sheet.spec
    sheet.logo(24, 36, 40)
    top = 100
    for line in simpleSplit(spec.vendor.name, sheet.bold, 11, 130):
        sheet.text(24, top, line, 11, bold=True)
        top += 14
    top = sheet.lines(24, top + 2, spec.vendor.address_lines, 8.5, max_width=130)
    top = sheet.lines(24, top + 6, [spec.vendor_contacts["phone"], spec.vendor_contacts["email"],
                                    f"{spec.labels['vat_id']} {spec.vendor_contacts['tax_id']}"], 7.5,
                      color=GREY, max_width=130)
    for label, value in meta_rows(spec):
        top += 10
        sheet.text(24, top, label.upper(), 7, color=GREY, max_width=130)
        sheet.text(24, top + 12, value, 10, bold=True, max_width=130)
        top += 14
    sheet.text(SIDEBAR_CONTENT_X, 72, spec.labels["title"], 28, bold=True, color=sheet.accent)
    _bill_to(sheet, SIDEBAR_CONTENT_X, 118)


SIDEBAR_WIDTH = 170
SIDEBAR_CONTENT_X = SIDEBAR_WIDTH + 24


def _sidebar_panel(sheet: Sheet) -> None:
    sheet.box(0, 0, SIDEBAR_WIDTH, sheet.height, fill=(0.94, 0.94, 0.9), stroke=None)


def header_ledger(sheet: Sheet) -> None:
    spec, right = sheet.spec, sheet.width - MARGIN
    sheet.text(MARGIN, 44, spec.vendor.name, 14, bold=True)
    sheet.text(MARGIN, 58, ", ".join(spec.vendor.address_lines), 8.5)
    sheet.text(sheet.width / 2, 48, spec.labels["title"].upper(), 20, bold=True, align="center")
    rows = meta_rows(spec)
    for index, (label, value) in enumerate(rows):
        top = 30 + index * 15
        sheet.box(right - 230, top, 230, 15, stroke=GREY)
        sheet.text(right - 226, top + 11, label, 8, color=GREY, max_width=108)
        sheet.text(right - 4, top + 11, value, 8.5, bold=index == 0, align="right", max_width=108)
    _bill_to(sheet, MARGIN, 92)


def header_two_line(sheet: Sheet) -> None:
    spec, right = sheet.spec, sheet.width - MARGIN
    sheet.logo(MARGIN, 34, 52)
    sheet.lines(right, 46, vendor_lines(spec), 9, bold_first=True, align="right")
    sheet.text(MARGIN, 140, spec.labels["title"], 26)
    sheet.rule(MARGIN, 148, MARGIN + 120, 2, color=sheet.accent)
    _bill_to(sheet, MARGIN, 176)


def first_page_foot_details(sheet: Sheet) -> None:
    """The two-line layout prints the document details in a strip at the foot of page one."""
    rows, right = meta_rows(sheet.spec), sheet.width - MARGIN
    top = sheet.height - 128
    sheet.rule(MARGIN, top, right, 0.8)
    column = (right - MARGIN) / len(rows)
    for index, (label, value) in enumerate(rows):
        x = MARGIN + index * column
        sheet.text(x, top + 13, label, 7.5, color=GREY, max_width=column - 6)
        sheet.text(x, top + 26, value, 9, bold=index == 0, max_width=column - 6)
    sheet.rule(MARGIN, top + 34, right, 0.8)


# -- the item table --------------------------------------------------------------------------------------

#: relative column widths; the description takes whatever is left
COLUMN_WIDTHS = {"pos": 0.06, "code": 0.1, "quantity": 0.1, "unit_price": 0.15, "vat": 0.08, "amount": 0.16}
COLUMN_LABELS = {"pos": "position", "description": "description", "quantity": "quantity", "unit_price": "unit_price",
                 "amount": "amount"}


def _columns(x0: float, x1: float, kinds: Sequence[str]) -> list[tuple[str, float, float]]:
    fixed = sum(COLUMN_WIDTHS.get(kind, 0) for kind in kinds)
    total = x1 - x0
    columns, x = [], x0
    for kind in kinds:
        width = total * (COLUMN_WIDTHS[kind] if kind in COLUMN_WIDTHS else 1 - fixed)
        columns.append((kind, x, x + width))
        x += width
    return columns


def _header_label(spec: InvoiceSpec, kind: str) -> str:
    if kind == "code":
        return {"en": "Code", "de": "Art.-Nr.", "fr": "Réf.", "nl": "Art.nr."}[spec.language]
    if kind == "vat":
        return {"en": "VAT", "de": "USt.", "fr": "TVA", "nl": "BTW"}[spec.language]
    return spec.labels[COLUMN_LABELS[kind]]


def _cell(spec: InvoiceSpec, layout: Layout, kind: str, index: int, item: Item) -> str:
    money = spec.money_text if layout.currency_in_table else spec.number_text
    if kind == "pos":
        return str(index + 1)
    if kind == "code":
        return f"{zlib.crc32(item.description.encode()) % 90000 + 10000}"  # stable per description
    if kind == "description":
        return item.description
    if kind == "quantity":
        return spec.quantity_text(item.quantity)
    if kind == "unit_price":
        return money(item.unit_price)
    if kind == "vat":
        return f"{spec.rate_text()}%"
    return money(item.amount)


def draw_table(sheet: Sheet, layout: Layout, first_index: int, items: Sequence[Item], top: float,
               brought_forward: Decimal | None, carried_forward: Decimal | None) -> float:
    """Draw the header row, the item rows and any carry-forward rows; returns the table's bottom."""
    spec, row = sheet.spec, layout.row_height
    x0, x1 = layout.table_x(sheet)
    columns = _columns(x0, x1, layout.columns)
    style = layout.table_style

    def cell_x(kind: str, left: float, right: float) -> tuple[float, str]:
        return (left + 4, "left") if kind in ("description", "pos", "code") else (right - 4, "right")

    # header row
    if style in ("grid", "boxed", "zebra"):
        sheet.box(x0, top, x1 - x0, row, fill=sheet.accent if style == "boxed" else LIGHT,
                  stroke=BLACK if style == "grid" else None)
    header_color = WHITE if style == "boxed" else (sheet.accent if style == "header_rule" else BLACK)
    for kind, left, right in columns:
        x, align = cell_x(kind, left, right)
        sheet.text(x, top + row - 5, _header_label(spec, kind), 8.5, bold=True, align=align, color=header_color,
                   max_width=right - left - 6)
    if style in ("header_rule", "lines", "plain", "two_line"):
        sheet.rule(x0, top + row + 1, x1, 1.2 if style != "plain" else 0.4,
                   color=sheet.accent if style == "header_rule" else BLACK)
    header_top, top = top, top + row
    body_top = top
    if brought_forward is not None:
        top = _carry_row(sheet, layout, top, spec.labels["brought_forward"], brought_forward)
    items_top = top

    for offset, item in enumerate(items):
        index = first_index + offset
        if style == "zebra" and index % 2 == 1:
            sheet.box(x0, top, x1 - x0, row, fill=(0.95, 0.95, 0.97), stroke=None)
        if style == "two_line":
            _two_line_row(sheet, columns, top, item)
        else:
            for kind, left, right in columns:
                x, align = cell_x(kind, left, right)
                sheet.text(x, top + row - 5, _cell(spec, layout, kind, index, item), 8.5, align=align,
                           max_width=right - left - 8)
        if style == "lines":
            sheet.rule(x0, top + row, x1, 0.3, color=GREY)
        if style == "two_line":
            sheet.rule(x0, top + row, x1, 0.3, color=LIGHT)
        top += row
    items_bottom = top

    if carried_forward is not None:
        top = _carry_row(sheet, layout, top, spec.labels["carried_forward"], carried_forward)

    if style == "grid":
        _grid_lines(sheet, columns, header_top, body_top, row)
        _grid_lines(sheet, columns, items_top, items_bottom, row)
    elif style == "boxed":
        sheet.box(x0, header_top, x1 - x0, top - header_top)
        for _, left, _ in columns[1:]:
            sheet.vline(left, items_top, items_bottom, color=GREY)
    elif style in ("header_rule", "plain", "zebra"):
        sheet.rule(x0, top + 1, x1, 0.8 if style == "header_rule" else 0.4)
    return top


def _carry_row(sheet: Sheet, layout: Layout, top: float, label: str, value: Decimal) -> float:
    """A running total between pages ("Übertrag"), spanning the table without column rules."""
    x0, x1 = layout.table_x(sheet)
    row = layout.row_height
    if layout.table_style == "grid":
        sheet.box(x0, top, x1 - x0, row)
    else:
        sheet.rule(x0, top, x1, 0.6)
    sheet.text(x0 + 4, top + row - 5, label, 8.5, bold=True)
    sheet.text(x1 - 4, top + row - 5, sheet.spec.number_text(value), 8.5, bold=True, align="right")
    return top + row


def _grid_lines(sheet: Sheet, columns: Sequence[tuple[str, float, float]], top: float, bottom: float,
                row: float) -> None:
    y = top
    while y <= bottom + 0.01:
        sheet.rule(columns[0][1], y, columns[-1][2], 0.5)
        y += row
    for x in [left for _, left, _ in columns] + [columns[-1][2]]:
        sheet.vline(x, top, bottom)


def _two_line_row(sheet: Sheet, columns: Sequence[tuple[str, float, float]], top: float, item: Item) -> None:
    spec = sheet.spec
    left, right = columns[0][1], columns[-1][2]
    sheet.text(left + 4, top + 12, item.description, 9, bold=True, max_width=right - left - 110)
    detail = f"{spec.quantity_text(item.quantity)} × {spec.number_text(item.unit_price)}"
    sheet.text(left + 14, top + 23, detail, 8, color=GREY)
    sheet.text(right - 4, top + 12, spec.number_text(item.amount), 9, align="right")


# -- totals blocks ---------------------------------------------------------------------------------------

def totals_right(sheet: Sheet, layout: Layout, top: float) -> float:
    right = layout.table_x(sheet)[1]
    rows = totals_rows(sheet.spec, currency_everywhere=layout.currency_in_table)
    for index, (label, value) in enumerate(rows):
        last = index == len(rows) - 1
        top += 16 if not last else 20
        if last:
            sheet.rule(right - 200, top - 13, right, 0.8)
        sheet.text(right - 200, top, label, 10 if last else 9, bold=last)
        sheet.text(right - 4, top, value, 10 if last else 9, bold=last, align="right")
    return top


def totals_boxed(sheet: Sheet, layout: Layout, top: float) -> float:
    right = layout.table_x(sheet)[1]
    rows = totals_rows(sheet.spec, currency_everywhere=True)
    sheet.box(right - 220, top + 8, 220, 16 * len(rows) + 12, stroke=sheet.accent, line_width=1)
    top += 8
    for index, (label, value) in enumerate(rows):
        last = index == len(rows) - 1
        top += 16
        sheet.text(right - 212, top + 2, label, 9.5, bold=last)
        sheet.text(right - 8, top + 2, value, 9.5, bold=last, align="right")
    return top + 12


def totals_bar(sheet: Sheet, layout: Layout, top: float) -> float:
    x0, x1 = layout.table_x(sheet)
    rows = totals_rows(sheet.spec, currency_everywhere=False)
    for label, value in rows[:-1]:
        top += 15
        sheet.text(x1 - 160, top, label, 9, align="right", color=GREY)
        sheet.text(x1 - 4, top, value, 9, align="right")
    sheet.box(x0, top + 6, x1 - x0, 22, fill=sheet.accent, stroke=None)
    label, value = rows[-1]
    sheet.text(x1 - 160, top + 21, label, 11, bold=True, align="right", color=WHITE)
    sheet.text(x1 - 4, top + 21, value, 11, bold=True, align="right", color=WHITE)
    return top + 30


def totals_left(sheet: Sheet, layout: Layout, top: float) -> float:
    x0 = layout.table_x(sheet)[0]
    rows = totals_rows(sheet.spec, currency_everywhere=True)
    top += 6
    for index, (label, value) in enumerate(rows):
        last = index == len(rows) - 1
        top += 15
        sheet.text(x0 + 4, top, f"{label}:", 9.5, bold=last)
        sheet.text(x0 + 230, top, value, 9.5, bold=last, align="right")
    sheet.rule(x0 + 4, top + 4, x0 + 230, 0.6)
    sheet.rule(x0 + 4, top + 6, x0 + 230, 0.6)
    return top + 6


def totals_grid(sheet: Sheet, layout: Layout, top: float) -> float:
    """Totals as more cells under the last two grid columns."""
    x0, x1 = layout.table_x(sheet)
    columns = _columns(x0, x1, layout.columns)
    label_left = columns[-3][1]
    for label, value in totals_rows(sheet.spec, currency_everywhere=True):
        sheet.box(label_left, top, x1 - label_left, layout.row_height)
        sheet.vline(columns[-1][1], top, top + layout.row_height)
        bold = label == sheet.spec.labels["total"]
        sheet.text(label_left + 4, top + layout.row_height - 5, label, 8.5, bold=bold)
        sheet.text(x1 - 4, top + layout.row_height - 5, value, 8.5, bold=bold, align="right")
        top += layout.row_height
    return top


def totals_leaders(sheet: Sheet, layout: Layout, top: float) -> float:
    x1 = layout.table_x(sheet)[1]
    x0 = x1 - 260
    for label, value in totals_rows(sheet.spec, currency_everywhere=True):
        top += 17
        bold = label == sheet.spec.labels["total"]
        label_width = sheet.text(x0, top, label, 9.5, bold=bold)
        value_width = pdfmetrics.stringWidth(value, sheet.bold if bold else sheet.regular, 9.5)
        sheet.rule(x0 + label_width + 4, top, x1 - value_width - 4, 0.6, color=GREY, dash=(1, 2))
        sheet.text(x1, top, value, 9.5, bold=bold, align="right")
    return top


# -- footers ---------------------------------------------------------------------------------------------

def footer_bank_columns(sheet: Sheet) -> None:
    spec, width = sheet.spec, sheet.width
    top = sheet.height - 68
    sheet.rule(MARGIN, top - 10, width - MARGIN, 0.4, color=GREY)
    column = (width - 2 * MARGIN) / 3
    sheet.lines(MARGIN, top, vendor_lines(spec), 7, color=GREY, max_width=column - 8)
    sheet.lines(MARGIN + column, top, [spec.labels["bank"], spec.vendor_contacts["iban"]], 7, color=GREY)
    sheet.lines(MARGIN + 2 * column, top, [f"{spec.labels['vat_id']} {spec.vendor_contacts['tax_id']}",
                                           f"{spec.labels['phone']} {spec.vendor_contacts['phone']}",
                                           spec.vendor_contacts["email"]], 7, color=GREY)


def footer_centered_note(sheet: Sheet) -> None:
    spec, middle = sheet.spec, sheet.width / 2
    top = sheet.height - 48
    sheet.text(middle, top, f"{one_line_address(spec)} · {spec.labels['vat_id']} {spec.vendor_contacts['tax_id']}",
               7, align="center", color=GREY, max_width=sheet.width - 2 * MARGIN)
    sheet.text(middle, top + 10, f"{spec.labels['bank']}: {spec.vendor_contacts['iban']} · "
                                 f"{spec.vendor_contacts['email']}", 7, align="center", color=GREY)


def footer_contact_line(sheet: Sheet) -> None:
    spec = sheet.spec
    sheet.text(sheet.width / 2, sheet.height - 40, f"{spec.vendor_contacts['email']} · {spec.vendor_contacts['phone']}",
               7.5, align="center", color=GREY)


def footer_sidebar(sheet: Sheet) -> None:
    spec = sheet.spec
    sheet.lines(24, sheet.height - 60, [spec.labels["bank"], spec.vendor_contacts["iban"]], 6.5, color=GREY,
                max_width=SIDEBAR_WIDTH - 34)


# -- layouts ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Layout:
    name: str
    split: str  # "dev" or "heldout"
    header: Callable[[Sheet], None]
    table_style: str  # grid | header_rule | lines | zebra | plain | boxed | two_line
    columns: tuple[str, ...]
    totals: Callable[[Sheet, Layout, float], float]
    footer: Callable[[Sheet], None] | None
    first_table_top: float
    page_number: str = "bottom_center"  # bottom_center | bottom_right | top_right
    number_single_pages: bool = False
    row_height: float = 16
    #: space kept free under the table for totals, measured in points
    totals_height: float = 72
    #: distance from the page bottom that table rows never cross (footer and "continued" line live there)
    bottom_reserve: float = 100
    first_page_bottom_reserve: float | None = None
    next_table_top: float = 96
    carry_forward: bool = False
    currency_in_table: bool = False
    landscape: bool = False
    left: float = MARGIN
    on_every_page: Callable[[Sheet], None] | None = None
    first_page_extra: Callable[[Sheet], None] | None = None

    def table_x(self, sheet: Sheet) -> tuple[float, float]:
        return self.left, sheet.width - MARGIN

    def rows_available(self, page_height: float, *, first: bool) -> int:
        top = self.first_table_top if first else self.next_table_top
        reserve = self.first_page_bottom_reserve if first and self.first_page_bottom_reserve else self.bottom_reserve
        rows = math.floor((page_height - reserve - top) / self.row_height) - 1  # minus the header row
        if self.carry_forward:
            rows -= 1 if first else 2  # a carried-forward row, and on later pages a brought-forward row
        return rows


_STANDARD = ("description", "quantity", "unit_price", "amount")
_WITH_POSITION = ("pos", *_STANDARD)

LAYOUTS: dict[str, Layout] = {layout.name: layout for layout in (
    Layout("classic", "dev", header_classic, "grid", _STANDARD, totals_right, footer_bank_columns, 262),
    Layout("band", "dev", header_band, "header_rule", _WITH_POSITION, totals_boxed, footer_centered_note, 238,
           page_number="bottom_right", totals_height=80),
    Layout("minimal", "dev", header_minimal, "plain", _STANDARD, totals_right, None, 262, page_number="top_right",
           number_single_pages=True, bottom_reserve=70, row_height=17),
    Layout("boxed", "dev", header_boxed, "grid", _WITH_POSITION, totals_grid, footer_bank_columns, 248,
           page_number="bottom_right", carry_forward=True),
    Layout("zebra", "dev", header_zebra, "zebra", ("quantity", "description", "unit_price", "amount"), totals_bar,
           footer_contact_line, 240, totals_height=80, row_height=18, bottom_reserve=80),
    Layout("letterhead", "dev", header_letterhead, "header_rule", _STANDARD, totals_left, footer_centered_note, 240,
           number_single_pages=True),
    Layout("din", "dev", header_din, "lines", _WITH_POSITION, totals_right, footer_bank_columns, 266,
           page_number="bottom_right", number_single_pages=True, carry_forward=True),
    Layout("split", "dev", header_split, "boxed", _STANDARD, totals_boxed, footer_contact_line, 242,
           currency_in_table=True, totals_height=80, bottom_reserve=80),
    # held-out only: arrangements the dev layouts never use
    Layout("sidebar", "heldout", header_sidebar, "header_rule", _STANDARD, totals_right, footer_sidebar, 200,
           page_number="bottom_right", left=SIDEBAR_CONTENT_X, on_every_page=_sidebar_panel, bottom_reserve=70),
    Layout("ledger", "heldout", header_ledger, "grid", ("pos", "code", "description", "quantity", "unit_price",
                                                         "vat", "amount"),
           totals_grid, footer_centered_note, 168, page_number="top_right", number_single_pages=True,
           row_height=15, landscape=True, next_table_top=80, bottom_reserve=80),
    Layout("two_line", "heldout", header_two_line, "two_line", ("description", "amount"), totals_leaders,
           footer_contact_line, 230, row_height=28, totals_height=70, bottom_reserve=80, first_page_bottom_reserve=150,
           first_page_extra=first_page_foot_details, currency_in_table=False),
)}

DEV_LAYOUTS = tuple(name for name, layout in LAYOUTS.items() if layout.split == "dev")
HELDOUT_LAYOUTS = tuple(name for name, layout in LAYOUTS.items() if layout.split == "heldout")


def page_size(spec: InvoiceSpec) -> tuple[float, float]:
    size = LETTER if spec.region.page_size == "LETTER" else A4
    layout = LAYOUTS.get(spec.layout)
    return landscape(size) if layout is not None and layout.landscape else size


def _notes_height(spec: InvoiceSpec) -> float:
    return 14 + 12 * len(spec.notes)


def paginate(spec: InvoiceSpec) -> tuple[tuple[int, int], ...]:
    """Item ranges [start, end) per page: totals only on the last page, never on a page of their own."""
    layout = LAYOUTS[spec.layout]
    height = page_size(spec)[1]
    totals_rows = math.ceil((layout.totals_height + _notes_height(spec)) / layout.row_height)
    count, start, ranges = len(spec.items), 0, []
    while True:
        capacity = layout.rows_available(height, first=not ranges)
        remaining = count - start
        if remaining + totals_rows <= capacity:
            ranges.append((start, count))
            return tuple(ranges)
        # the totals do not fit after the rest: fill this page but keep an item for the last one
        # (every layout fits an item plus the totals on a page, so ``remaining`` is at least 2 here)
        taken = min(capacity, remaining - 1)
        ranges.append((start, start + taken))
        start += taken


# -- drawing an itemised document --------------------------------------------------------------------

def draw_itemised(canvas: Canvas, spec: InvoiceSpec) -> None:
    """Draw every page of an invoice, credit note or purchase order, ending each with ``showPage``."""
    draw_pages(canvas, spec, LAYOUTS[spec.layout], draw_table, _continuation_header)


def draw_pages(canvas: Canvas, spec: InvoiceSpec, layout: Layout, table: Callable[..., float],
               continuation_header: Callable[[Sheet, Layout], None]) -> None:
    """The page loop of an itemised document: header or continuation header, the page's share of
    the table (``table`` draws it, with running totals where the layout carries them forward),
    totals and notes on the last page, footer and page numbers. ``layout`` may be any object
    with :class:`Layout`'s attributes (the tune layouts draw their own tables through it)."""
    size = page_size(spec)
    running_total = Decimal("0.00")
    for page_index, (start, end) in enumerate(spec.page_items):
        sheet = Sheet(canvas, spec, size, page_index + 1, spec.pages)
        first, last = page_index == 0, page_index == spec.pages - 1
        if layout.on_every_page:
            layout.on_every_page(sheet)
        if first:
            layout.header(sheet)
            if layout.first_page_extra:
                layout.first_page_extra(sheet)
            top = layout.first_table_top
        else:
            continuation_header(sheet, layout)
            top = layout.next_table_top
        items = spec.items[start:end]
        brought = running_total if layout.carry_forward and not first else None
        running_total += sum((item.amount for item in items), Decimal("0.00"))
        carried = running_total if layout.carry_forward and not last else None
        top = table(sheet, layout, start, items, top, brought, carried)
        if last:
            top = layout.totals(sheet, layout, top)
            sheet.lines(layout.left, top + 24, spec.notes, 8.5, leading=12)
        else:
            sheet.text(sheet.width - MARGIN, top + 16, spec.labels["continued_next"], 8, align="right", color=GREY)
        if layout.footer:
            layout.footer(sheet)
        if spec.pages > 1 or layout.number_single_pages:
            _page_number(sheet, layout)
        canvas.showPage()


def _continuation_header(sheet: Sheet, layout: Layout) -> None:
    spec = sheet.spec
    x0, x1 = layout.table_x(sheet)
    sheet.text(x0, 50, spec.vendor.name, 11, bold=True)
    sheet.text(x1, 50, f"{spec.labels['title']} {spec.labels['number']} {spec.number} "
                       f"{spec.labels['continued_header']}", 9, align="right", max_width=x1 - x0 - 200)
    sheet.rule(x0, 60, x1, 0.5, color=GREY)


def _page_number(sheet: Sheet, layout: Layout) -> None:
    text = sheet.spec.labels["page"].format(page=sheet.page, pages=sheet.pages)
    right = sheet.width - MARGIN
    if layout.page_number == "top_right":
        sheet.text(right, 24, text, 8, align="right", color=GREY)
    elif layout.page_number == "bottom_right":
        sheet.text(right, sheet.height - 20, text, 8, align="right", color=GREY)
    else:
        sheet.text(sheet.width / 2, sheet.height - 20, text, 8, align="center", color=GREY)

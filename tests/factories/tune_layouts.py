"""Tune layouts: a third family of invoice arrangements, to widen what extraction rules are tuned on.

The dev layouts are what the rules grew up on and the held-out ones measure generalisation,
so tuning on dev alone overfits its few arrangements. These layouts vary what real invoices
vary and the dev ones keep fixed: column orders (price before quantity, amount before unit
price, quantity first), SKU/article, unit, discount and VAT-rate columns, quantities with
their unit ("2 pcs", "3,5 h"), descriptions that wrap inside their cell with the numbers on
the first or the last of their lines, sub-headings inside the table, tables with full
borders, an outer border only, or no rules at all, tables continued over pages with the
header repeated and carried-forward subtotals, and vendors named in a large logo-like
type, in a right-hand letterhead, after a "From:"/"Lieferant:" label, or only in the footer.

Rows have their own height here (a wrapped description takes several lines), so pagination
measures each row with the same text metrics the renderer uses, and both always agree.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import TYPE_CHECKING

from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from .layouts import (GREY, LIGHT, MARGIN, WHITE, Sheet, _bill_to, _fonts, _meta_list, customer_lines,
                      draw_pages, footer_bank_columns, footer_centered_note, footer_contact_line, meta_rows,
                      page_size, totals_bar, totals_boxed, totals_leaders, totals_left,
                      totals_right, vendor_lines)
from .locales import SURNAMES, TRADES

if TYPE_CHECKING:
    from .invoices import InvoiceSpec, Item

#: the labels of the columns the dev table never prints, per language
_EXTRA_HEADERS = {
    "code": {"en": ("SKU", "Art. No.", "Item code"), "de": ("Art.-Nr.", "Artikelnr."), "fr": ("Réf.", "Code article"),
             "nl": ("Art.nr.", "Artikelcode")},
    "unit": {"en": ("Unit",), "de": ("Einheit", "ME"), "fr": ("Unité",), "nl": ("Eenheid",)},
    "discount": {"en": ("Disc.", "Discount %"), "de": ("Rabatt", "Rab. %"), "fr": ("Remise", "Rem. %"),
                 "nl": ("Korting", "Kort. %")},
    "vat": {"en": ("VAT %", "Tax rate"), "de": ("USt. %", "MwSt."), "fr": ("TVA %", "Taux TVA"),
            "nl": ("BTW %", "Btw-tarief")},
}
#: other words software prints over the usual columns; half the tune documents use one of these
_OTHER_HEADERS = {
    "description": {"en": ("Product", "Service", "Article", "Description of goods"),
                    "de": ("Leistung", "Artikelbezeichnung", "Produkt"), "fr": ("Libellé", "Article", "Produit"),
                    "nl": ("Product", "Artikel", "Omschrijving")},
    "quantity": {"en": ("Units", "Qty."), "de": ("Stück", "Anz."), "fr": ("Nombre", "Qté"),
                 "nl": ("Stuks", "Aantal")},
    "unit_price": {"en": ("Unit cost", "Price each", "Unit price"), "de": ("Stückpreis", "Einzelpreis netto", "Preis"),
                   "fr": ("Prix HT", "PU HT", "Tarif"), "nl": ("Eenheidsprijs", "Prijs per stuk")},
    "amount": {"en": ("Net amount", "Total", "Amount (excl. VAT)"), "de": ("Summe", "Betrag netto", "Gesamt netto"),
               "fr": ("Montant net", "Total"), "nl": ("Totaal", "Bedrag excl. btw")},
    "position": {"en": ("No.", "Line"), "de": ("Nr.", "Pos."), "fr": ("N°", "Ligne"), "nl": ("Nr.", "Regel")},
}
#: labels before the vendor's block, per language
VENDOR_LABELS = {"en": ("From:", "Seller:", "Supplier:"), "de": ("Lieferant:", "Verkäufer:", "Absender:"),
                 "fr": ("Fournisseur :", "Vendeur :", "Émetteur :"), "nl": ("Leverancier:", "Van:", "Verkoper:")}
#: a purchase order is issued by the buyer, whose block says only where it comes from
_ISSUER_LABELS = {"en": ("From:",), "de": ("Absender:",), "fr": ("Émetteur :",), "nl": ("Van:",)}


def _vendor_label(spec: InvoiceSpec) -> str:
    variants = (_ISSUER_LABELS if spec.doc_type == "purchase_order" else VENDOR_LABELS)[spec.language]
    return variants[zlib.crc32(spec.vendor.name.encode()) % len(variants)]
#: relative widths of the narrow columns; the description takes the rest
_WIDTHS = {"pos": 0.05, "code": 0.1, "quantity": 0.12, "unit": 0.07, "unit_price": 0.14, "discount": 0.08,
           "vat": 0.08, "amount": 0.15}
_STANDARD_KEYS = {"pos": "position", "description": "description", "quantity": "quantity", "unit_price": "unit_price",
                  "amount": "amount"}
_LEFT_ALIGNED = ("pos", "code", "description", "unit")
_FONT_SIZE = 8.5
_LINE = 10.5  # leading of the lines inside one cell
_PAD = 6.0  # space a row keeps above and below its text


@dataclass(frozen=True)
class TuneLayout:
    """One tune arrangement. Attribute names shared with :class:`layouts.Layout` let the totals
    blocks, continuation header and page numbers of the dev layouts draw on these pages too."""

    name: str
    header: Callable[[Sheet], None]
    columns: tuple[str, ...]  # pos, code, description, quantity, unit, unit_price, discount, vat, amount
    table_style: str  # grid | outer | rules | plain | shaded
    totals: Callable[[Sheet, TuneLayout, float], float]
    footer: Callable[[Sheet], None] | None
    first_table_top: float
    wrap: bool = False  # descriptions wrap inside their cell instead of shrinking to one line
    numbers_at: str = "top"  # top | bottom: which line of a wrapped row carries the numbers
    units_in_quantity: bool = False  # "2 pcs" in the quantity cell
    subheadings: bool = False
    two_line_header: bool = False  # column headings broken over two lines ("Unit" / "price")
    carry_forward: bool = False
    currency_in_table: bool = False
    page_number: str = "bottom_center"
    next_table_top: float = 96
    bottom_reserve: float = 100
    totals_height: float = 80
    row_height: float = _LINE + 2 * _PAD  # of a one-line row; the totals blocks use it as their step
    left: float = MARGIN
    # what the shared page loop (layouts.draw_pages) asks of every layout
    number_single_pages: bool = False
    on_every_page: Callable[[Sheet], None] | None = None
    first_page_extra: Callable[[Sheet], None] | None = None

    def table_x(self, sheet: Sheet) -> tuple[float, float]:
        return self.left, sheet.width - MARGIN


# -- headers: where the vendor is named ------------------------------------------------------------------

def header_logo_name(sheet: Sheet) -> None:
    """The vendor's name as a word mark in large type, its address in one small line below."""
    spec, right = sheet.spec, sheet.width - MARGIN
    sheet.text(MARGIN, 62, spec.vendor.name, 24, bold=True, color=sheet.accent, max_width=330)
    sheet.text(MARGIN, 78, " | ".join(spec.vendor.address_lines), 8, color=GREY)
    sheet.text(right, 60, spec.labels["title"], 16, bold=True, align="right")
    _bill_to(sheet, MARGIN, 122)
    _meta_list(sheet, right - 200, right, 122, meta_rows(spec), value_align="right")


def header_stacked_mark(sheet: Sheet) -> None:
    """The vendor's name as a two-line word mark: the name large, its legal form small beneath."""
    spec, right = sheet.spec, sheet.width - MARGIN
    name, legal = _split_legal_form(spec.vendor.name)
    sheet.text(MARGIN, 58, name, 22, bold=True, max_width=300)
    sheet.text(MARGIN, 72, legal, 10, color=sheet.accent)
    sheet.lines(MARGIN, 90, list(spec.vendor.address_lines), 8.5, color=GREY)
    sheet.text(right, 58, spec.labels["title"], 14, bold=True, align="right")
    _meta_list(sheet, right - 200, right, 80, meta_rows(spec), size=8.5, value_align="right")
    _bill_to(sheet, MARGIN, 150)


def _split_legal_form(name: str) -> tuple[str, str]:
    """"Krüger Elektrotechnik" and "UG (haftungsbeschränkt)" from the full name, whichever end the form is at."""
    for form in sorted((f for forms in TUNE_LEGAL_FORMS.values() for f in forms), key=len, reverse=True):
        if name.endswith(" " + form):
            return name[:-len(form) - 1], form
        if name.startswith(form + " "):
            return name[len(form) + 1:], form
    return name, ""


def header_right_letterhead(sheet: Sheet) -> None:
    """The vendor's block at the top right, the title and the customer on the left."""
    spec, right = sheet.spec, sheet.width - MARGIN
    sheet.lines(right, 48, vendor_lines(spec), 9, bold_first=True, align="right")
    sheet.text(right, 48 + 11.7 * (len(vendor_lines(spec)) + 0.3), spec.vendor_contacts["email"], 8, align="right",
               color=GREY)
    sheet.text(MARGIN, 60, spec.labels["title"], 26, bold=True)
    _bill_to(sheet, MARGIN, 130)
    _meta_list(sheet, right - 190, right - 95, 140, meta_rows(spec))


def header_from_label(sheet: Sheet) -> None:
    """Seller and buyer side by side, each under its label ("From:" / "Bill to")."""
    spec, right, middle = sheet.spec, sheet.width - MARGIN, sheet.width / 2
    label = _vendor_label(spec)
    sheet.text(MARGIN, 56, spec.labels["title"], 20, bold=True, color=sheet.accent)
    _meta_list(sheet, right - 190, right, 50, meta_rows(spec), size=8.5, value_align="right")
    top = 150
    sheet.text(MARGIN, top, label, 8, bold=True, color=GREY)
    sheet.lines(MARGIN, top + 14, vendor_lines(spec), 9.5, bold_first=True, max_width=220)
    _bill_to(sheet, middle + 10, top)


def header_inline_label(sheet: Sheet) -> None:
    """"Seller: Name" on one line, the address under it, the customer right of it."""
    spec, right, middle = sheet.spec, sheet.width - MARGIN, sheet.width / 2
    label = _vendor_label(spec)
    sheet.text(right, 58, spec.labels["title"].upper(), 18, bold=True, align="right")
    width = sheet.text(MARGIN, 58, label, 9, color=GREY)
    sheet.text(MARGIN + width + 5, 58, spec.vendor.name, 10, bold=True)
    sheet.lines(MARGIN, 72, list(spec.vendor.address_lines), 9)
    sheet.text(MARGIN, 72 + 11.7 * len(spec.vendor.address_lines), f"{spec.labels['vat_id']} "
                                                                   f"{spec.vendor_contacts['tax_id']}", 8, color=GREY)
    _bill_to(sheet, middle + 10, 100)
    rows = meta_rows(spec)
    sheet.box(MARGIN, 186, right - MARGIN, 30, fill=LIGHT, stroke=None)
    column = (right - MARGIN) / len(rows)
    for index, (name, value) in enumerate(rows):
        sheet.text(MARGIN + 6 + index * column, 198, name, 7.5, color=GREY, max_width=column - 10)
        sheet.text(MARGIN + 6 + index * column, 211, value, 9, bold=index == 0, max_width=column - 10)


def header_footer_vendor(sheet: Sheet) -> None:
    """Only a logo and the title at the top: the vendor is named in the footer alone."""
    spec, right = sheet.spec, sheet.width - MARGIN
    sheet.logo(MARGIN, 34, 54)
    sheet.text(right, 64, spec.labels["title"], 24, bold=True, align="right", color=sheet.accent)
    _bill_to(sheet, MARGIN, 130)
    _meta_list(sheet, right - 200, right, 130, meta_rows(spec), value_align="right")


def footer_vendor_block(sheet: Sheet) -> None:
    """The vendor's name, address, registration and bank in small type at the foot of every page."""
    spec, width = sheet.spec, sheet.width
    top = sheet.height - 62
    sheet.rule(MARGIN, top - 11, width - MARGIN, 0.4, color=GREY)
    sheet.text(MARGIN, top, spec.vendor.name, 7.5, bold=True, color=GREY)
    sheet.text(MARGIN, top + 10, ", ".join(spec.vendor.address_lines), 7, color=GREY)
    sheet.text(width - MARGIN, top, f"{spec.labels['vat_id']} {spec.vendor_contacts['tax_id']}", 7, align="right",
               color=GREY)
    sheet.text(width - MARGIN, top + 10, f"{spec.labels['bank']}: {spec.vendor_contacts['iban']}", 7,
               align="right", color=GREY)


# -- the item table --------------------------------------------------------------------------------------

def _columns(x0: float, x1: float, kinds: Sequence[str]) -> list[tuple[str, float, float]]:
    fixed = sum(_WIDTHS.get(kind, 0) for kind in kinds)
    columns, x = [], x0
    for kind in kinds:
        width = (x1 - x0) * _WIDTHS.get(kind, 1 - fixed)
        columns.append((kind, x, x + width))
        x += width
    return columns


def header_label(spec: InvoiceSpec, kind: str) -> str:
    if kind in _EXTRA_HEADERS:
        variants = _EXTRA_HEADERS[kind][spec.language]
        return variants[spec.seed % len(variants)]
    key = _STANDARD_KEYS[kind]
    if spec.seed % 2:
        variants = _OTHER_HEADERS[key][spec.language]
        return variants[spec.seed // 2 % len(variants)]
    return spec.labels[key]


def item_code(item: Item) -> str:
    return f"{chr(65 + zlib.crc32(item.description.encode()) % 26)}{zlib.crc32(item.description.encode()) % 9000 + 1000}"


def cell_text(spec: InvoiceSpec, layout: TuneLayout, kind: str, index: int, item: Item) -> str:
    money = spec.money_text if layout.currency_in_table else spec.number_text
    if kind == "pos":
        return str(index + 1)
    if kind == "code":
        return item_code(item)
    if kind == "quantity":
        quantity = spec.quantity_text(item.quantity)
        return f"{quantity} {item.unit}" if layout.units_in_quantity and item.unit else quantity
    if kind == "unit":
        return item.unit or ""
    if kind == "unit_price":
        return money(item.unit_price)
    if kind == "discount":
        return f"{spec.style.number_format.format_quantity(item.discount, None)} %" if item.discount else "-"
    if kind == "vat":
        return f"{spec.rate_text()}%"
    return money(item.amount)


def _description_lines(spec: InvoiceSpec, layout: TuneLayout, width: float, item: Item) -> list[str]:
    if not layout.wrap:
        return [item.description]
    regular, _ = _fonts(spec.style.font_family)
    return simpleSplit(item.description, regular, _FONT_SIZE, width - 8) or [item.description]


def _description_width(spec: InvoiceSpec, layout: TuneLayout) -> float:
    x0, x1 = layout.left, page_size(spec)[0] - MARGIN
    return next(right - left for kind, left, right in _columns(x0, x1, layout.columns) if kind == "description")


def row_height(spec: InvoiceSpec, layout: TuneLayout, item: Item) -> float:
    return len(_description_lines(spec, layout, _description_width(spec, layout), item)) * _LINE + 2 * _PAD


def _starts_group(spec: InvoiceSpec, layout: TuneLayout, index: int) -> bool:
    return layout.subheadings and spec.items[index].group is not None and (
        index == 0 or spec.items[index - 1].group != spec.items[index].group)


_SUBHEADING = _LINE + 2 * _PAD + 4


def draw_table(sheet: Sheet, layout: TuneLayout, first_index: int, items: Sequence[Item], top: float,
               brought_forward: Decimal | None, carried_forward: Decimal | None) -> float:
    spec = sheet.spec
    x0, x1 = layout.table_x(sheet)
    columns = _columns(x0, x1, layout.columns)
    style = layout.table_style
    header_height = _LINE + 2 * _PAD

    def cell_x(kind: str, left: float, right: float) -> tuple[float, str]:
        return (left + 4, "left") if kind in _LEFT_ALIGNED else (right - 4, "right")

    if layout.two_line_header:
        header_height += _LINE
    if style in ("grid", "shaded"):
        sheet.box(x0, top, x1 - x0, header_height, fill=LIGHT if style == "grid" else sheet.accent,
                  stroke=None)
    header_color = WHITE if style == "shaded" else (0, 0, 0)
    for kind, left, right in columns:
        x, align = cell_x(kind, left, right)
        label = header_label(spec, kind)
        words = label.split(" ", 1) if layout.two_line_header else [label]
        for number, text in enumerate(words):
            sheet.text(x, top + _PAD + _LINE - 2 + number * _LINE, text, 8.5, bold=True, align=align,
                       color=header_color, max_width=right - left - 6)
    if style in ("rules", "outer", "plain"):
        sheet.rule(x0, top + header_height, x1, 1 if style != "plain" else 0.4)
    table_top, top = top, top + header_height
    rows: list[float] = [top]  # row boundaries, for the grid

    def carry(label: str, value: Decimal) -> None:
        nonlocal top
        sheet.text(x0 + 4, top + _PAD + _LINE - 2, label, 8.5, bold=True)
        sheet.text(x1 - 4, top + _PAD + _LINE - 2, sheet.spec.number_text(value), 8.5, bold=True, align="right")
        top += _LINE + 2 * _PAD
        rows.append(top)

    if brought_forward is not None:
        carry(spec.labels["brought_forward"], brought_forward)
    description_width = next(right - left for kind, left, right in columns if kind == "description")
    description_left = next(left for kind, left, _ in columns if kind == "description")
    for offset, item in enumerate(items):
        index = first_index + offset
        if _starts_group(spec, layout, index):
            sheet.text(description_left + 4, top + _SUBHEADING - _PAD - 2, item.group or "", 9, bold=True,
                       color=sheet.accent)
            top += _SUBHEADING
            rows.append(top)
        lines = _description_lines(spec, layout, description_width, item)
        first_baseline = top + _PAD + _LINE - 2
        numbers_baseline = first_baseline + (len(lines) - 1) * _LINE if layout.numbers_at == "bottom" \
            else first_baseline
        for kind, left, right in columns:
            x, align = cell_x(kind, left, right)
            if kind == "description":
                for number, text in enumerate(lines):
                    sheet.text(x, first_baseline + number * _LINE, text, _FONT_SIZE, max_width=right - left - 8)
            else:
                sheet.text(x, numbers_baseline, cell_text(spec, layout, kind, index, item), _FONT_SIZE, align=align,
                           max_width=right - left - 6)
        top += len(lines) * _LINE + 2 * _PAD
        rows.append(top)
        if style == "rules":
            sheet.rule(x0, top, x1, 0.3, color=GREY)
    if carried_forward is not None:
        carry(spec.labels["carried_forward"], carried_forward)

    if style == "grid":
        for y in rows:
            sheet.rule(x0, y, x1, 0.5)
        sheet.rule(x0, table_top, x1, 0.5)
        for x in [left for _, left, _ in columns] + [x1]:
            sheet.vline(x, table_top, top)
    elif style == "outer":
        sheet.box(x0, table_top, x1 - x0, top - table_top)
        for _, left, _ in columns[1:]:
            sheet.vline(left, table_top, top, color=GREY)
    elif style == "shaded":
        sheet.rule(x0, top + 1, x1, 0.8, color=sheet.accent)
    return top


# -- layouts ---------------------------------------------------------------------------------------------

TUNE_LAYOUT_TABLE: dict[str, TuneLayout] = {layout.name: layout for layout in (
    TuneLayout("sku_grid", header_logo_name, ("pos", "code", "description", "quantity", "unit_price", "vat", "amount"),
               "grid", totals_right, footer_bank_columns, 200, units_in_quantity=True, carry_forward=True,
               page_number="bottom_right"),
    TuneLayout("web_shop", header_right_letterhead, ("description", "unit_price", "quantity", "amount"), "rules",
               totals_boxed, footer_contact_line, 236, wrap=True, currency_in_table=True, bottom_reserve=80),
    TuneLayout("service_wrap", header_from_label, ("code", "description", "quantity", "unit", "unit_price",
                                                   "discount", "amount"),
               "plain", totals_leaders, footer_centered_note, 262, wrap=True, numbers_at="bottom", subheadings=True,
               page_number="top_right"),
    TuneLayout("footer_vendor", header_footer_vendor, ("pos", "quantity", "description", "unit_price", "vat",
                                                       "amount"),
               "shaded", totals_bar, footer_vendor_block, 226, units_in_quantity=True, wrap=True),
    TuneLayout("amount_first", header_inline_label, ("pos", "description", "amount", "quantity", "unit_price"),
               "rules", totals_left, footer_bank_columns, 236, subheadings=True, page_number="bottom_right"),
    TuneLayout("stacked_mark", header_stacked_mark, ("pos", "description", "quantity", "unit_price", "vat", "amount"),
               "rules", totals_right, footer_bank_columns, 236, two_line_header=True, units_in_quantity=True,
               wrap=True, page_number="bottom_right"),
    TuneLayout("outer_discount", header_right_letterhead, ("description", "quantity", "unit_price", "discount", "vat",
                                                           "amount"),
               "outer", totals_right, footer_centered_note, 236, wrap=True, currency_in_table=True,
               carry_forward=True),
)}
TUNE_LAYOUTS = tuple(TUNE_LAYOUT_TABLE)


def _notes_height(spec: InvoiceSpec) -> float:
    return 14 + 12 * len(spec.notes)


def paginate(spec: InvoiceSpec) -> tuple[tuple[int, int], ...]:
    """Item ranges [start, end) per page, measured row by row; totals only on the last page, with
    at least one item."""
    layout = TUNE_LAYOUT_TABLE[spec.layout]
    height = page_size(spec)[1]
    header_height = _LINE + 2 * _PAD + (_LINE if layout.two_line_header else 0)
    heights = [row_height(spec, layout, item) + (_SUBHEADING if _starts_group(spec, layout, index) else 0)
               for index, item in enumerate(spec.items)]
    totals = layout.totals_height + _notes_height(spec)
    ranges: list[tuple[int, int]] = []
    start, count = 0, len(spec.items)
    while True:
        top = layout.first_table_top if not ranges else layout.next_table_top
        room = height - layout.bottom_reserve - top - header_height
        carry_row = _LINE + 2 * _PAD
        if layout.carry_forward:
            room -= carry_row * (1 if not ranges else 2)
        if sum(heights[start:]) + totals <= room + (carry_row if layout.carry_forward else 0):
            ranges.append((start, count))
            return tuple(ranges)
        end, used = start, 0.0
        while end < count - 1 and used + heights[end] <= room:
            used += heights[end]
            end += 1
        end = max(end, start + 1)
        ranges.append((start, end))
        start = end


def draw_itemised(canvas: Canvas, spec: InvoiceSpec) -> None:
    """Every page of an itemised document in a tune layout, ending each with ``showPage``."""
    draw_pages(canvas, spec, TUNE_LAYOUT_TABLE[spec.layout], draw_table, _continuation_header)  # type: ignore[arg-type]


def _continuation_header(sheet: Sheet, layout: TuneLayout) -> None:
    """The vendor and the document number above a continued table, each kept to its half."""
    spec = sheet.spec
    x0, x1 = layout.table_x(sheet)
    half = (x1 - x0) / 2 - 10
    sheet.text(x0, 50, spec.vendor.name, 11, bold=True, max_width=half)
    sheet.text(x1, 50, f"{spec.labels['title']} {spec.labels['number']} {spec.number} "
                       f"{spec.labels['continued_header']}", 9, align="right", max_width=half)
    sheet.rule(x0, 60, x1, 0.5, color=GREY)


def tallest_row_fits(spec: InvoiceSpec) -> bool:
    """Whether the tallest row plus the totals fit on a continuation page (pagination relies on it)."""
    layout = TUNE_LAYOUT_TABLE[spec.layout]
    room = page_size(spec)[1] - layout.bottom_reserve - layout.next_table_top - 3 * (_LINE + 2 * _PAD)
    tallest = max((row_height(spec, layout, item) for item in spec.items), default=0) + _SUBHEADING
    return tallest + layout.totals_height + _notes_height(spec) <= room


# -- what tune documents print differently: vendors, units, discounts, longer descriptions -----------------

#: legal forms as vendors really write them, per language: with and without dots, long and short
TUNE_LEGAL_FORMS = {"en": ("Ltd", "Ltd.", "Limited", "LLC", "Inc.", "PLC", "Co. Ltd"),
                    "de": ("GmbH", "AG", "GmbH & Co. KG", "UG (haftungsbeschränkt)", "e.K.", "KG", "OHG"),
                    "fr": ("SARL", "S.A.", "SAS", "S.à r.l.", "EURL", "SA"),
                    "nl": ("B.V.", "BV", "N.V.", "V.O.F.", "NV")}
#: (unit for whole quantities, unit for fractional ones) per language
_UNITS = {"en": (("pcs", "ea", "box"), ("h", "kg", "m")), "de": (("Stk.", "St.", "Pkt."), ("Std.", "kg", "m")),
          "fr": (("pce", "u", "lot"), ("h", "kg", "m")), "nl": (("st.", "stuks", "pak"), ("uur", "kg", "m"))}
_SUBHEADINGS = {"en": ("Hardware", "Services", "Materials", "Labour"),
                "de": ("Material", "Dienstleistungen", "Arbeitszeit", "Hardware"),
                "fr": ("Matériel", "Prestations", "Main-d'oeuvre", "Fournitures"),
                "nl": ("Materiaal", "Diensten", "Arbeid", "Hardware")}
#: what long descriptions add to an item: periods, serial numbers, quotes, sizes (numbers inside text)
_DETAILS = {"en": (" for the period {month}/{year}, as agreed in quote Q-{n}", " including set-up, testing and "
                   "documentation", ", serial no. SN{n}", ", size 2 x {small} m", " (order ref. {n}, delivered in "
                   "{small} parts)"),
            "de": (" für den Zeitraum {month}/{year} gemäß Angebot A-{n}", " inklusive Einrichtung, Test und "
                   "Dokumentation", ", Seriennummer SN{n}", ", Maße 2 x {small} m", " (Lieferschein {n}, "
                   "Teillieferung {small})"),
            "fr": (" pour la période {month}/{year} selon devis D-{n}", " y compris installation, essais et "
                   "documentation", ", numéro de série SN{n}", ", dimensions 2 x {small} m", " (bon de livraison "
                   "{n}, livré en {small} fois)"),
            "nl": (" voor de periode {month}/{year} volgens offerte O-{n}", " inclusief installatie, testen en "
                   "documentatie", ", serienummer SN{n}", ", afmeting 2 x {small} m", " (pakbon {n}, geleverd in "
                   "{small} delen)")}
_DISCOUNTS = (Decimal(5), Decimal(10), Decimal(15), Decimal(20), Decimal("2.5"), Decimal(3))


def tune_company_name(rng: random.Random, language: str) -> str:
    surname, other = rng.sample(SURNAMES[language], 2)
    trade = rng.choice(TRADES[language])
    legal = rng.choice(TUNE_LEGAL_FORMS[language])
    pattern = rng.choice(("{surname} {trade} {legal}", "{trade} {surname} {legal}", "{surname} & {other} {legal}",
                          "{surname} {legal}"))
    if language == "fr" and rng.random() < 0.4:
        pattern = "{legal} {surname} {trade}"
    return pattern.format(surname=surname, other=other, trade=trade, legal=legal)


def tune_items(rng: random.Random, language: str, items: Sequence[Item], layout: str) -> tuple[Item, ...]:
    """The drawn items with units, some longer descriptions and section groups, and discounts where
    the layout prints a discount column; only units on a till receipt, whose short lines print
    none of the rest."""
    table = TUNE_LAYOUT_TABLE.get(layout)
    itemised, discounts = table is not None, table is not None and "discount" in table.columns
    whole_units, fractional_units = _UNITS[language]
    sections = rng.sample(_SUBHEADINGS[language], 2)
    split_at = rng.randint(1, max(1, len(items) - 1))
    result = []
    for index, item in enumerate(items):
        fractional = item.quantity != item.quantity.to_integral_value()
        unit = rng.choice(fractional_units if fractional else whole_units)
        description = item.description
        if rng.random() < 0.35 and itemised:
            description += rng.choice(_DETAILS[language]).format(month=rng.randint(1, 12), year=rng.randint(2024, 2026),
                                                                 n=rng.randint(1000, 99999), small=rng.randint(2, 9))
        discount = rng.choice(_DISCOUNTS) if rng.random() < 0.3 and discounts else Decimal(0)
        result.append(replace(item, description=description, unit=unit, discount=discount,
                              group=None if not itemised else sections[0] if index < split_at else sections[1]))
    return tuple(result)


# -- the tune2 split: more places and ways to name the vendor --------------------------------------------
#
# The tune layouts above name the vendor in five ways; real invoices have many more. The tune2
# split draws only these layouts (its own seeds and streams, so the dev, held-out and tune
# documents stay byte-identical): the issuer after labels the others never print, only in the
# payment details, in a narrow column beside the customer, in capitals with a tagline, as a word
# mark broken over two lines, in a one-line sender strip, under the customer's block, beside a
# delivery address that names another company, and centred under its tagline.

#: labels before the issuer's block that no other split prints
ISSUED_BY_LABELS = {"en": ("Issued by:", "Invoice from:", "Billed by", "Supplier details"),
                    "de": ("Rechnungssteller:", "Aussteller", "Leistungserbringer:", "Rechnung von:"),
                    "fr": ("Émis par :", "Facturé par", "Prestataire :", "Émetteur de la facture"),
                    "nl": ("Uitgegeven door:", "Gefactureerd door", "Dienstverlener:", "Factuur van:")}
#: how the payment details name the account holder: the only place some invoices name the vendor
PAYABLE_TO = {"en": ("Please make cheques payable to {name}", "Payable to: {name}", "Account name: {name}"),
              "de": ("Kontoinhaber: {name}", "Zahlungsempfänger: {name}", "Empfänger: {name}"),
              "fr": ("Chèques à l'ordre de {name}", "Titulaire du compte : {name}", "Bénéficiaire : {name}"),
              "nl": ("Rekeninghouder: {name}", "Ten name van {name}", "Begunstigde: {name}")}
#: a slogan printed beside or above the name
TAGLINES = {"en": ("Quality you can rely on", "Your partner since 1987", "Solutions that work"),
            "de": ("Ihr Partner für Qualität", "Zuverlässig. Schnell. Fair.", "Qualität aus Meisterhand"),
            "fr": ("Votre partenaire de confiance", "La qualité au quotidien", "Au service des professionnels"),
            "nl": ("Uw partner in kwaliteit", "Vakmanschap en service", "Betrouwbaar en snel")}
#: the label over a delivery address, which names a company that is not the vendor
SHIP_TO_LABELS = {"en": ("Ship to", "Delivery address", "Deliver to"), "de": ("Lieferanschrift", "Lieferadresse",
                                                                           "Versandadresse"),
                  "fr": ("Adresse de livraison", "Livrer à", "Lieu de livraison"),
                  "nl": ("Afleveradres", "Leveradres", "Bezorgadres")}
#: legal forms as tune2 vendors write them: the tune ones plus dotted and rarer spellings
TUNE2_LEGAL_FORMS = {"en": (*TUNE_LEGAL_FORMS["en"], "L.L.C.", "Corp.", "LLP", "Co."),
                     "de": (*TUNE_LEGAL_FORMS["de"], "mbH", "GmbH & Co. KG", "AG & Co. KG", "e.G."),
                     "fr": (*TUNE_LEGAL_FORMS["fr"], "S.A.R.L.", "SASU", "S.A.S."),
                     "nl": (*TUNE_LEGAL_FORMS["nl"], "Holding B.V.", "C.V.", "VOF")}


#: first names of sole traders, who print no legal form ("Malerbetrieb Thomas Weber")
_FIRST_NAMES = ("Anna", "Thomas", "Marie", "Peter", "Julia", "Martin", "Sophie", "Lukas", "Emma", "Jan")


def tune2_company_name(rng: random.Random, language: str) -> str:
    surname, other = rng.sample(SURNAMES[language], 2)
    trade = rng.choice(TRADES[language])
    if rng.random() < 0.2:  # a sole trader or partnership without a legal form
        return rng.choice(("{trade} {first} {surname}", "{surname} {trade}", "{first} {surname} {trade}")).format(
            trade=trade, first=rng.choice(_FIRST_NAMES), surname=surname)
    legal = rng.choice(TUNE2_LEGAL_FORMS[language])
    pattern = rng.choice(("{surname} {trade} {legal}", "{trade} {surname} {legal}", "{surname} & {other} {legal}",
                          "{surname} {legal}", "{surname} {trade} {legal}"))
    if language == "fr" and rng.random() < 0.4:
        pattern = "{legal} {surname} {trade}"
    return pattern.format(surname=surname, other=other, trade=trade, legal=legal)


def _pick(spec: InvoiceSpec, variants: Sequence[str], salt: str = "") -> str:
    """One of ``variants``, fixed per vendor, without drawing from any random stream."""
    return variants[zlib.crc32((salt + spec.vendor.name).encode()) % len(variants)]


def _issued_by_label(spec: InvoiceSpec) -> str:
    return _pick(spec, ISSUED_BY_LABELS[spec.language])


def _contact_lines(spec: InvoiceSpec) -> list[str]:
    return [f"{spec.labels['phone']} {spec.vendor_contacts['phone']}", spec.vendor_contacts["email"],
            f"{spec.labels['vat_id']} {spec.vendor_contacts['tax_id']}"]


def header_issued_by(sheet: Sheet) -> None:
    """The customer on the left, the issuer on the right under a label of its own line."""
    spec, right, middle = sheet.spec, sheet.width - MARGIN, sheet.width / 2
    sheet.text(MARGIN, 58, spec.labels["title"], 22, bold=True)
    _meta_list(sheet, right - 190, right, 52, meta_rows(spec), size=8.5, value_align="right")
    _bill_to(sheet, MARGIN, 140)
    x = middle + 30
    sheet.text(x, 140, _issued_by_label(spec), 8, bold=True, color=GREY)
    top = sheet.lines(x, 154, vendor_lines(spec), 9.5, bold_first=True, max_width=right - x)
    sheet.lines(x, top, _contact_lines(spec)[:2], 8, color=GREY)


def header_inline_issued_by(sheet: Sheet) -> None:
    """"Issued by: ACME Ltd" on one line at the top left, the address below, the customer on the right."""
    spec, right, middle = sheet.spec, sheet.width - MARGIN, sheet.width / 2
    label = _issued_by_label(spec).rstrip(" :")
    label = label + (" :" if spec.language == "fr" else ":")
    width = sheet.text(MARGIN, 52, label, 9, color=GREY)
    sheet.text(MARGIN + width + 4, 52, spec.vendor.name, 10, bold=True, max_width=middle - MARGIN - width - 10)
    sheet.lines(MARGIN, 66, list(spec.vendor.address_lines), 9)
    sheet.text(right, 52, spec.labels["title"].upper(), 16, bold=True, align="right")
    _bill_to(sheet, middle + 40, 84)
    rows = meta_rows(spec)
    _meta_list(sheet, MARGIN, MARGIN + 110, 150, rows, size=8.5)


def header_payable_only(sheet: Sheet) -> None:
    """A logo, the title, customer and details: the vendor is named only where it asks to be paid."""
    spec, right = sheet.spec, sheet.width - MARGIN
    sheet.logo(right - 50, 32, 50, round_=True)
    sheet.text(MARGIN, 60, spec.labels["title"], 24, bold=True, color=sheet.accent)
    _meta_list(sheet, MARGIN, MARGIN + 110, 90, meta_rows(spec), size=8.5)
    _bill_to(sheet, sheet.width / 2 + 20, 100)


def footer_payable_to(sheet: Sheet) -> None:
    """The payment details at the foot: the account holder, the vendor's address and bank account."""
    spec, width = sheet.spec, sheet.width
    top = sheet.height - 70
    sheet.rule(MARGIN, top - 11, width - MARGIN, 0.4, color=GREY)
    phrase = _pick(spec, PAYABLE_TO[spec.language]).format(name=spec.vendor.name)
    sheet.text(MARGIN, top, phrase, 8, bold=True)
    sheet.text(MARGIN, top + 11, ", ".join(spec.vendor.address_lines), 7.5, color=GREY)
    sheet.text(MARGIN, top + 22, f"IBAN {spec.vendor_contacts['iban']} · {spec.labels['vat_id']} "
                                 f"{spec.vendor_contacts['tax_id']}", 7, color=GREY)


_COLUMN = 150


def _left_column(sheet: Sheet) -> None:
    """The vendor's block in a narrow column down the left edge of page one, beside everything else."""
    spec = sheet.spec
    sheet.box(0, 0, MARGIN + _COLUMN, sheet.height, fill=LIGHT, stroke=None)
    top = sheet.lines(MARGIN - 20, 150, vendor_lines(spec), 8.5, bold_first=True, max_width=_COLUMN - 10)
    top = sheet.lines(MARGIN - 20, top + 8, _contact_lines(spec), 7, color=GREY, max_width=_COLUMN - 10)
    sheet.lines(MARGIN - 20, top + 8, [spec.labels["bank"], spec.vendor_contacts["iban"]], 7, color=GREY,
                max_width=_COLUMN - 10)


def header_left_column(sheet: Sheet) -> None:
    spec, right, x = sheet.spec, sheet.width - MARGIN, MARGIN + _COLUMN + 10
    _left_column(sheet)
    sheet.text(x, 64, spec.labels["title"], 22, bold=True, color=sheet.accent)
    _bill_to(sheet, x, 112)
    _meta_list(sheet, right - 150, right, 112, meta_rows(spec), size=8.5, value_align="right")


def header_caps_tagline(sheet: Sheet) -> None:
    """The name in capitals with its legal form, a tagline on the same line; a rule under both."""
    spec, right = sheet.spec, sheet.width - MARGIN
    name, tagline = spec.vendor.name.upper(), _pick(spec, TAGLINES[spec.language])
    width = sheet.text(MARGIN, 54, name, 13, bold=True, max_width=300)
    if zlib.crc32(spec.vendor.name.encode()) % 2:
        sheet.text(MARGIN + width + 30, 54, tagline, 8.5, color=GREY)  # apart: a segment of its own
    else:
        sheet.text(MARGIN + width + 6, 54, f"| {tagline}", 8.5, color=GREY)  # the same segment as the name
    sheet.rule(MARGIN, 62, right, 0.8, color=sheet.accent)
    sheet.text(MARGIN, 76, " · ".join(spec.vendor.address_lines), 8, color=GREY)
    sheet.text(right, 100, spec.labels["title"], 16, bold=True, align="right")
    _bill_to(sheet, MARGIN, 120)
    _meta_list(sheet, right - 190, right, 120, meta_rows(spec), size=8.5, value_align="right")


def _break_name(name: str) -> tuple[str, str]:
    """The name broken into two lines at the word nearest its middle."""
    words = name.split()
    if len(words) < 2:
        return name, ""
    at = min(range(1, len(words)), key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))))
    return " ".join(words[:at]), " ".join(words[at:])


def header_broken_mark(sheet: Sheet) -> None:
    """A word mark broken over two lines of large type, the address in small type under it."""
    spec, right = sheet.spec, sheet.width - MARGIN
    first, second = _break_name(spec.vendor.name)
    sheet.text(MARGIN, 54, first, 22, bold=True, color=sheet.accent, max_width=280)
    sheet.text(MARGIN, 76, second, 22 if len(second) < 14 else 16, bold=True, color=sheet.accent, max_width=280)
    sheet.lines(MARGIN, 96, list(spec.vendor.address_lines), 8, color=GREY)
    sheet.text(right, 56, spec.labels["title"], 18, bold=True, align="right")
    _meta_list(sheet, right - 190, right, 84, meta_rows(spec), size=8.5, value_align="right")
    _bill_to(sheet, MARGIN, 150)


def header_sender_strip(sheet: Sheet) -> None:
    """The vendor only in a one-line strip at the very top ("Name · Street · City · VAT ...")."""
    spec, right = sheet.spec, sheet.width - MARGIN
    parts = [spec.vendor.name, *spec.vendor.address_lines]
    if zlib.crc32(spec.vendor.name.encode()) % 2:
        parts.append(f"{spec.labels['vat_id']} {spec.vendor_contacts['tax_id']}")
    separator = _pick(spec, (" · ", " | ", " – "), "strip")
    sheet.box(0, 0, sheet.width, 30, fill=sheet.accent, stroke=None)
    sheet.text(MARGIN, 19, separator.join(parts), 8.5, color=WHITE, max_width=right - MARGIN)
    sheet.text(MARGIN, 74, spec.labels["title"], 24, bold=True)
    _bill_to(sheet, MARGIN, 110)
    _meta_list(sheet, right - 190, right, 110, meta_rows(spec), size=8.5, value_align="right")


def header_customer_above(sheet: Sheet) -> None:
    """The customer's block at the top left (a window envelope), the vendor's block under it."""
    spec, right = sheet.spec, sheet.width - MARGIN
    _bill_to(sheet, MARGIN, 50)
    sheet.text(right, 58, spec.labels["title"], 20, bold=True, align="right")
    _meta_list(sheet, right - 190, right, 80, meta_rows(spec), size=8.5, value_align="right")
    top = 142
    if zlib.crc32(spec.vendor.name.encode()) % 2:
        sheet.text(MARGIN, top, _issued_by_label(spec), 8, bold=True, color=GREY)
        top += 13
    top = sheet.lines(MARGIN, top, vendor_lines(spec), 9, bold_first=True, max_width=240)
    sheet.text(MARGIN, top, " · ".join(_contact_lines(spec)[:2]), 7.5, color=GREY)


def header_ship_to(sheet: Sheet) -> None:
    """Customer and delivery address side by side, each naming a company, the vendor's block right of them."""
    spec, right = sheet.spec, sheet.width - MARGIN
    assert spec.ship_to is not None, "the ship-to layout prints a delivery company"
    sheet.text(MARGIN, 58, spec.labels["title"], 22, bold=True, color=sheet.accent)
    _meta_list(sheet, right - 190, right, 52, meta_rows(spec), size=8.5, value_align="right")
    column = (right - MARGIN) / 3
    gutter = 24  # the blocks keep apart, as a real three-column head does
    ship_label = spec.labels["po_deliver_to"] if spec.doc_type == "purchase_order" else _pick(
        spec, SHIP_TO_LABELS[spec.language], "ship")
    blocks = ((spec.labels["bill_to"], customer_lines(spec)), (ship_label, [spec.ship_to.name,
                                                                            *spec.ship_to.address_lines]))
    for number, (label, lines) in enumerate(blocks):
        x = MARGIN + number * column
        sheet.text(x, 130, label, 7, bold=True, color=GREY)
        sheet.lines(x, 142.3, lines, 8.5, bold_first=True, max_width=column - gutter)
    x = MARGIN + 2 * column
    sheet.logo(x, 96, 24)
    sheet.lines(x, 142.3, vendor_lines(spec), 8.5, bold_first=True, max_width=right - x)


def header_centred_tagline(sheet: Sheet) -> None:
    """A centred letterhead: logo, tagline above the name, the address and contacts under it."""
    spec, middle, right = sheet.spec, sheet.width / 2, sheet.width - MARGIN
    sheet.logo(middle - 16, 22, 32, round_=True)
    sheet.text(middle, 66, _pick(spec, TAGLINES[spec.language]).upper(), 7, align="center", color=GREY)
    sheet.text(middle, 84, spec.vendor.name, 16, bold=True, align="center", max_width=right - MARGIN)
    sheet.text(middle, 98, " · ".join(spec.vendor.address_lines), 8.5, align="center")
    sheet.text(middle, 110, " · ".join(_contact_lines(spec)), 7.5, align="center", color=GREY)
    sheet.text(MARGIN, 146, spec.labels["title"], 15, bold=True)
    _bill_to(sheet, MARGIN, 170)
    _meta_list(sheet, right - 190, right, 150, meta_rows(spec), size=8.5, value_align="right")


#: how a register entry under the name reads, per language
_REGISTER = {"en": "Registered in England and Wales No. {n}", "de": "Amtsgericht München HRB {n}",
             "fr": "RCS Paris B {n}", "nl": "KvK {n}"}


def header_window_return_line(sheet: Sheet) -> None:
    """DIN-style: the customer in the window with the vendor's return line above it, the vendor's
    block at the right, lower than the window, with its register entry under the name."""
    spec, right = sheet.spec, sheet.width - MARGIN
    width = sheet.text(MARGIN + 5, 118, " · ".join([spec.vendor.name, *spec.vendor.address_lines]), 6.5,
                       max_width=240)
    sheet.rule(MARGIN + 5, 120, MARGIN + 5 + width, 0.3)
    sheet.lines(MARGIN + 5, 136, customer_lines(spec), 10)
    x = right - 170
    sheet.text(x, 150, spec.vendor.name, 10, bold=True, max_width=170)
    sheet.text(x, 162, _REGISTER[spec.language].format(n=spec.vendor_contacts["tax_id"][-6:]), 7, color=GREY,
               max_width=170)
    top = sheet.lines(x, 176, list(spec.vendor.address_lines), 8.5)
    sheet.lines(x, top, _contact_lines(spec)[:2], 7.5, color=GREY)
    sheet.text(MARGIN, 60, spec.labels["title"], 18, bold=True)
    _meta_list(sheet, right - 190, right, 52, meta_rows(spec), size=8.5, value_align="right")


def header_brand_over_legal_name(sheet: Sheet) -> None:
    """A brand in large capitals at the top (the name without its legal form), the full legal name
    in small type under it with the address."""
    spec, right = sheet.spec, sheet.width - MARGIN
    forms = sorted((f for forms in TUNE2_LEGAL_FORMS.values() for f in forms), key=len, reverse=True)
    brand = next((spec.vendor.name.replace(form, "").strip() for form in forms
                  if spec.vendor.name.endswith(" " + form) or spec.vendor.name.startswith(form + " ")),
                 spec.vendor.name.split()[0])
    sheet.text(MARGIN, 60, brand.upper(), 26, bold=True, color=sheet.accent, max_width=300)
    sheet.lines(MARGIN, 80, vendor_lines(spec), 8, color=GREY)
    sheet.text(right, 58, spec.labels["title"], 16, bold=True, align="right")
    _meta_list(sheet, right - 190, right, 84, meta_rows(spec), size=8.5, value_align="right")
    _bill_to(sheet, MARGIN, 150)


def header_meta_then_vendor(sheet: Sheet) -> None:
    """The customer at the top left without a label, the details at the top right, the vendor's
    block under the details."""
    spec, right = sheet.spec, sheet.width - MARGIN
    sheet.text(MARGIN, 50, spec.labels["title"].upper(), 20, bold=True)
    sheet.lines(MARGIN, 84, customer_lines(spec), 9.5, bold_first=True, max_width=220)
    top = _meta_list(sheet, right - 190, right, 84, meta_rows(spec), size=8.5, value_align="right")
    x = right - 190
    top = sheet.lines(x, top + 14, vendor_lines(spec), 8.5, bold_first=True, max_width=190)
    sheet.lines(x, top, _contact_lines(spec), 7, color=GREY, max_width=190)


TUNE2_LAYOUT_TABLE: dict[str, TuneLayout] = {layout.name: layout for layout in (
    TuneLayout("issued_by", header_issued_by, ("pos", "description", "quantity", "unit_price", "amount"), "rules",
               totals_right, footer_contact_line, 246, wrap=True, page_number="bottom_right"),
    TuneLayout("inline_issued_by", header_inline_issued_by, ("description", "quantity", "unit", "unit_price",
                                                             "amount"),
               "grid", totals_boxed, footer_centered_note, 236),
    TuneLayout("payable_to", header_payable_only, ("pos", "code", "description", "quantity", "unit_price", "amount"),
               "plain", totals_leaders, footer_payable_to, 206, wrap=True, bottom_reserve=110),
    TuneLayout("left_column", header_left_column, ("description", "quantity", "unit_price", "amount"), "rules",
               totals_right, None, 230, wrap=True, left=MARGIN + _COLUMN + 10, page_number="bottom_right"),
    TuneLayout("caps_tagline", header_caps_tagline, ("pos", "description", "quantity", "unit_price", "vat", "amount"),
               "shaded", totals_bar, footer_bank_columns, 216, units_in_quantity=True),
    TuneLayout("broken_mark", header_broken_mark, ("code", "description", "quantity", "unit_price", "amount"),
               "outer", totals_right, footer_bank_columns, 236, wrap=True, numbers_at="bottom"),
    TuneLayout("sender_strip", header_sender_strip, ("description", "quantity", "unit_price", "discount", "amount"),
               "rules", totals_left, footer_contact_line, 210, currency_in_table=True, page_number="top_right"),
    TuneLayout("customer_above", header_customer_above, ("pos", "description", "quantity", "unit_price", "amount"),
               "grid", totals_right, footer_centered_note, 236, carry_forward=True),
    TuneLayout("ship_to", header_ship_to, ("pos", "code", "description", "quantity", "unit_price", "amount"),
               "rules", totals_boxed, footer_bank_columns, 226, wrap=True, subheadings=True),
    TuneLayout("centred_tagline", header_centred_tagline, ("description", "quantity", "unit_price", "amount"),
               "plain", totals_right, footer_centered_note, 240, page_number="bottom_right"),
    TuneLayout("window_return", header_window_return_line, ("pos", "description", "quantity", "unit_price", "vat",
                                                             "amount"),
               "rules", totals_right, footer_contact_line, 262, wrap=True, carry_forward=True),
    TuneLayout("brand_mark", header_brand_over_legal_name, ("description", "quantity", "unit", "unit_price",
                                                            "amount"),
               "grid", totals_boxed, footer_bank_columns, 226),
    TuneLayout("meta_then_vendor", header_meta_then_vendor, ("pos", "code", "description", "quantity",
                                                             "unit_price", "amount"),
               "outer", totals_leaders, None, 262, wrap=True, page_number="bottom_right"),
)}
TUNE2_LAYOUTS = tuple(TUNE2_LAYOUT_TABLE)
TUNE_LAYOUT_TABLE.update(TUNE2_LAYOUT_TABLE)  # one table for pagination and drawing; each split draws its own names

"""Line items from word geometry: a header row fixes the columns, rows follow below it.

A word belongs to the column whose band (between the midpoints of neighbouring header
cells) holds its centre, so right-aligned numbers land in the right column even where
a row's text alone would be ambiguous. A table that runs onto the next page continues
there, with that page's repeated header or, without one, with the previous columns.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal

from quire.extraction.labels import QUANTITY_UNIT, QUANTITY_UNITS, amount_role
from quire.extraction.layout import BLOCK_GAP_CHARS, NumberToken, TextLine, find_numbers
from quire.extraction.normalise import format_amount, format_quantity, one_edit_apart, parse_amount
from quire.model import LineItem, Word

_HEADER_CELLS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((kind, re.compile(pattern, re.IGNORECASE)) for kind, pattern in (
    # a column of rates (a discount, the VAT rate): named first, so "Tax rate" is no price column
    ("rate", r"(?:\b(?:discount|rabatt|remise|korting|steuersatz)\b|\b(?:disc|rem)\.|"
             r"\b(?:tax|vat|gst|mwst|ust|btw)\.?[\s-]*(?:(?:rate|satz|tarief)\b|%)|"
             r"\btaux(?:\s*(?:de\s*)?tva)?\b)(?:\s*%)?"),
    ("unit_price", r"\bunit\s*(?:price|cost)|\bprice\s*(?:per\s*unit|each)|\bp\.\s*u\.|\bprix\s*unit(?:aire)?\.?|"
                   r"\be(?:inzel)?[\s-]*preis|\bstuk\s*prijs|\beenheids\s*prijs|\bstukprijs|\beenheidsprijs|"
                   r"\bst[üu]ck-?preis|\bp\.?\s?u\.?\s*ht\b|\bpu\b|"
                   r"\bprice\b|\brate\b|\bpreis\b|\bprix\b|\bprijs\b|\btarief\b|\btarif\b"),
    ("amount", r"\bline\s*total|\bamount\b|\bbetrag\b|\bgesamt(?:preis)?\b|\bmontant(?:\s*ht)?\b|\bbedrag\b|"
               r"\btotal\b|\btotaal\b|\bsumme\b"),
    ("quantity", r"\bqty\b|\bquantity\b|\bunits\b|\bmenge\b|\banzahl\b|\banz\b|\bst[üu]ck\b|\bquantit[ée]\b|"
                 r"\bqt[ée]\b|\bnombre\b|\baantal\b|\bhoeveelheid\b|\bstuks\b"),
    ("description", r"\bdescription\b|\bitems?\b|\barticle\b|\bproduct\b|\bservices?\b|\bparticulars\b|"
                    r"\bdetails\b|\bbeschreibung\b|\b\w*bezeichnung\b|\bartikel\b|\bprodukt\b|\bleistung\b|"
                    r"\bd[ée]signation\b|\blibell[ée]\b|\bproduit\b|\bomschrijving\b|\bcode/desc\b"),
))
#: page furniture that is never part of a row description; a sum carried to the next page ("Report 37 978,05")
#: may group its thousands with spaces
_FURNITURE = re.compile(r"\bpage\s*\d+|\bseite\s*\d+|\bpagina\s*\d+|\bcontinued\b|\(\s*cont\.?\s*\)|"
                        r"\bfortsetzung\b|\bsuite\b|"
                        r"\bvervolg\b|\b(?:carried|brought)\s*forward\b|\bübertrag\b|\b[àa]\s*reporter\b|"
                        r"^\W*(?:report|transport)\W*(?:\S*\d(?:\S|\s\d{3}\b)*\W*)?$", re.IGNORECASE)
_NUMERIC_KINDS = ("quantity", "unit_price", "amount")
_LETTER = re.compile(r"[^\W\d_]")


@dataclass(frozen=True, slots=True)
class Column:
    kind: str  # description | quantity | unit_price | amount | other
    x0: float
    x1: float
    #: marked only by a scan speck or a rule OCR read into the heading: its numbers stay out of the other
    #: columns, but the words under it may be a long description's
    unread: bool = False


@dataclass(frozen=True, slots=True)
class LineItemTable:
    """The rows read from a document's item table and how many rows the table visibly shows."""

    items: tuple[LineItem, ...]
    rows_seen: int  # lines in the table region that carry a money amount
    #: the document marks its rows (a table header, or a receipt's "quantity x price" lines), so
    #: ``rows_seen`` can be held against the rows read
    rows_countable: bool


def find_header(line: TextLine) -> tuple[Column, ...] | None:
    """Columns from a header row, left to right; None unless it names an amount or price and one more kind."""
    claimed: list[tuple[int, int, str]] = []
    for kind, pattern in _HEADER_CELLS:
        for match in pattern.finditer(line.text):
            if all(match.end() <= s or match.start() >= e for s, e, _ in claimed):
                claimed.append((match.start(), match.end(), kind))
    claimed = _join_alternatives(line.text, claimed)
    descriptions = sorted((c for c in claimed if c[2] == "description"), key=lambda c: c[0])
    for extra in descriptions[:-1]:  # "Item" before "Description" numbers the rows
        claimed[claimed.index(extra)] = (extra[0], extra[1], "other")
    kinds = {kind for _, _, kind in claimed} - {"rate"}
    if len(kinds) < 2 or not kinds & {"amount", "unit_price"}:
        return None
    columns: list[Column] = []
    rates: list[Column] = []
    covered: set[Word] = set()
    for start, end, kind in claimed:
        words = line.words_in_span(start, end)
        covered.update(words)
        x0, x1 = min(w.x0 for w in words), max(w.x1 for w in words)
        if kind == "rate":
            rates.append(Column("other", x0, x1))
        else:
            columns.append(Column(kind, x0, x1))
    # header words we do not understand ("#", "VAT %", "Unit") still mark a column, so their numbers stay out;
    # so do scan specks and rules read into the heading (often the only trace of an unreadable cell)
    for word in line.words:
        if word not in covered:
            columns.append(Column("other", word.x0, word.x1, unread=is_speck(word) or bool(_RULE.match(word.text))))
    columns.sort(key=lambda c: c.x0)
    # a rate column's numbers stay out of the others, and it is a column of its own, however close its
    # heading is set to the price's ("Unit cost Discount %")
    return tuple(sorted((*_merge_adjacent(columns, line.char_width()), *rates), key=lambda c: c.x0))


def _with_lost_description(columns: tuple[Column, ...]) -> tuple[Column, ...]:
    """A heading whose description cell OCR lost ("Artikel" read as "Bari" on a line of its own) but whose
    first cell is a number column: the text left of that column is the rows' description, so it gets a
    description column of its own at the page's left edge instead of being cut off as a sidebar."""
    if any(c.kind == "description" for c in columns) or columns[0].kind not in _NUMERIC_KINDS:
        return columns
    return (Column("description", 0.0, 0.0), *columns)


#: a table rule as OCR reads it: a run of dashes, underscores or bars, no letter or digit
_RULE = re.compile(r"^[\W_]{3,}$")


#: what joins two names of one column into one heading ("Item / Service", "Product & Service")
_ALTERNATIVE = re.compile(r"^\s*(?:[/&+|]|and|or|und|oder|et|ou|en|of)\s*$", re.IGNORECASE)


def _join_alternatives(text: str, claimed: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Header cells of one kind joined by "/" or "&" into the one cell they name together."""
    joined: list[tuple[int, int, str]] = []
    for start, end, kind in sorted(claimed):
        if joined and joined[-1][2] == kind and _ALTERNATIVE.match(text[joined[-1][1]:start]):
            joined[-1] = (joined[-1][0], end, kind)
        else:
            joined.append((start, end, kind))
    return joined


def _merge_adjacent(columns: list[Column], char_width: float) -> tuple[Column, ...]:
    """Join an unknown header word to a neighbour it touches ("Unit" + "Price" -> one cell)."""
    merged: list[Column] = []
    for column in columns:
        # an unknown cell left of the description is a column of its own (a code, a position), not part of it
        if merged and column.x0 - merged[-1].x1 < 1.5 * char_width and "other" in (column.kind, merged[-1].kind) \
                and (merged[-1].kind, column.kind) != ("other", "description"):
            previous = merged.pop()
            kind = previous.kind if column.kind == "other" else column.kind
            merged.append(Column(kind, previous.x0, column.x1, previous.unread and column.unread))
        else:
            merged.append(column)
    return tuple(merged)


def _column_of(x0: float, x1: float, columns: Sequence[Column]) -> Column:
    """The column a box belongs to: the band around its centre, except that anything ending
    before the column after the description starts is description text (descriptions run
    wider than their header word)."""
    center = (x0 + x1) / 2
    column = columns[-1]
    for left, right in zip(columns, columns[1:], strict=False):
        if center < (left.x1 + right.x0) / 2:
            column = left
            break
    kinds = [c.kind for c in columns]
    if "description" in kinds and column.kind != "description":
        after_description = kinds.index("description") + 1
        position = columns.index(column)
        if position >= after_description and after_description < len(columns) \
                and x1 <= columns[after_description].x0:
            return columns[after_description - 1]
    return column


@dataclass
class _Row:
    description: list[str]
    numbers: dict[str, NumberToken]
    line: TextLine  # the line that carries the amount
    bottom: float  # moves down as continuation lines join the description
    spare: tuple[NumberToken, ...] = ()  # numbers under header cells we could not read
    numbers_on_line: tuple[NumberToken, ...] = ()
    described_here: bool = False  # the first description is the amount line's own text
    column_kinds: frozenset[str] = frozenset()  # what the table's header names


def extract_line_items(lines: Sequence[TextLine], decimal_separator: str | None) -> LineItemTable:
    """Read the item table that follows the first header row, across pages, until a totals line."""
    columns: tuple[Column, ...] | None = None
    rows: list[_Row] = []
    # description lines printed above their numbers (receipt style, or a wrapped cell whose numbers
    # stand on its last line), with their lines for judging what they belong to
    pending: list[tuple[str, TextLine]] = []
    rows_seen = 0
    header_found = False
    first_header_page = lines[0].page_number if lines else 0
    ended = False
    current_page = None
    page_rows = 0  # rows read on the current page
    page_done = False  # past a "continued on the next page" line under rows: the rest is page furniture
    skip = -1  # the second line of a heading read over two lines
    for position, line in enumerate(lines):
        if position == skip:
            continue
        header = find_header(line)
        if not ended and (columns is None or header is not None or page_rows == 0
                          or line.page_number != current_page):
            two_line = _two_line_header(lines, position, header, decimal_separator)
            if two_line is not None:
                header, skip = two_line, position + 1
        if header is not None and not ended:
            if not header_found:
                first_header_page = line.page_number
            columns, header_found, pending, page_done = _with_lost_description(header), True, [], False
            if line.page_number != current_page:
                page_rows = 0
            current_page = line.page_number
            continue
        if columns is None or ended:
            continue
        if line.page_number != current_page:  # a new page without its own header keeps the columns
            current_page, pending, page_done, page_rows = line.page_number, [], False, 0
        if page_done:
            continue
        line = _within_table(line, columns)
        if not line.words:
            continue
        if amount_role(line.text) is not None and _is_totals_line(line, columns, decimal_separator):
            ended = True
            continue
        if _FURNITURE.search(line.text):
            page_done = page_rows > 0 and _CONTINUED.search(line.text) is not None
            continue
        numbers = find_numbers(line, decimal_separator)
        cells = _with_inline_times(line, _assign(line, numbers, columns), columns, decimal_separator)
        if any(n.has_fraction for n in numbers):
            rows_seen += 1
        if "amount" not in cells.numbers and cells.description:
            cells = _with_lost_amount(cells, columns)
        if "amount" in cells.numbers:
            above = _wrapped_above(pending, line)
            if cells.description:
                description = [*above, *cells.description]
            else:
                description = above or [text for text, _ in pending]
            if not description and rows and len(rows[-1].description) > 1:
                # the line taken as the previous row's continuation was this row's description
                description = [rows[-1].description.pop()]
            rows.append(_Row([" ".join(description)] if description else [], cells.numbers, line, line.bottom,
                             cells.spare, numbers, bool(cells.description), frozenset(c.kind for c in columns)))
            pending = []
            page_rows += 1
        elif cells.description and not cells.numbers:
            if rows and _fills_row(rows[-1], line, columns, decimal_separator):
                continue
            following = lines[position + 1] if position + 1 < len(lines) else None
            # a row continues on its own page only: the top of the next page is no continuation
            if rows and line.page_number == rows[-1].line.page_number and line.top - rows[-1].bottom < 1.2 * line.height \
                    and not pending and not _closer_to_next(rows[-1].bottom, line, following):
                rows[-1].description.append(" ".join(cells.description))
                rows[-1].bottom = line.bottom
            else:
                pending = pending + [(" ".join(cells.description), line)]
    if not header_found:
        receipt = _receipt_items(lines, decimal_separator)
        return receipt if receipt.items else _arithmetic_table(lines, decimal_separator)
    rows = _with_lost_column_points(_with_lost_price_column(_with_lost_quantity_column(rows)))
    items = _without_row_numbers([_to_item(row) for row in rows], scanned=_scanned(lines))
    if first_header_page > lines[0].page_number:
        # the table began on an earlier page whose header OCR lost: its rows are found by arithmetic
        earlier = [line for line in lines if line.page_number < first_header_page]
        items = [*_arithmetic_table(earlier, decimal_separator).items, *items]
    # an amount alone names no item: a totals line whose label OCR lost
    items = [item for item in items if item.description or item.quantity is not None or item.unit_price is not None]
    if not items:  # a header whose amount column we cannot name ("Value", "Ext."): rows by arithmetic
        return replace(_arithmetic_table(lines, decimal_separator), rows_seen=rows_seen, rows_countable=True)
    return LineItemTable(tuple(items), rows_seen, header_found)


#: how far left of its header a table's text may start (OCR and cell padding move it a little), in characters
_TABLE_EDGE_CHARS = 2.0


def _within_table(line: TextLine, columns: Sequence[Column]) -> TextLine:
    """The words of a line that stand in the table: text left of the header's first cell belongs to
    something printed beside the table (a sidebar, a margin note), never to a row."""
    left = columns[0].x0 - _TABLE_EDGE_CHARS * line.char_width()
    inside = tuple(w for w in line.words if w.x1 > left)
    return line if len(inside) == len(line.words) else TextLine(line.page_number, line.index, inside)


def _with_lost_amount(cells: _Cells, columns: Sequence[Column]) -> _Cells:
    """A described row whose amount OCR lost but whose quantity and unit price it read: the amount is their
    product rounded to the cent, standing where the amount column is."""
    quantity, price = cells.numbers.get("quantity"), cells.numbers.get("unit_price")
    amount_column = next((c for c in columns if c.kind == "amount"), None)
    if quantity is None or price is None or amount_column is None or not price.has_fraction:
        return cells
    value = (quantity.value * price.value).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    amount = NumberToken(value, "", amount_column.x0, amount_column.x1, True)
    return replace(cells, numbers={**cells.numbers, "amount": amount})


def _fills_row(row: _Row, line: TextLine, columns: Sequence[Column], decimal_separator: str | None) -> bool:
    """A detail line under a row that printed only its amount ("2 x 600.00" below "Website redesign
    1,200.00"): its quantity and unit price go to the row, and the line's item words to its description."""
    amount = row.numbers.get("amount")
    if amount is None or "quantity" in row.numbers or "unit_price" in row.numbers \
            or line.page_number != row.line.page_number or line.top - row.bottom > 1.2 * line.height:
        return False
    detail = _detail_numbers(line, _description_words(line, columns), amount.value, decimal_separator)
    if detail is None:
        return False
    before, row.numbers["quantity"], row.numbers["unit_price"] = detail
    if before:
        row.description.append(" ".join(before))
    row.bottom = line.bottom
    return True


def _with_lost_quantity_column(rows: list[_Row]) -> list[_Row]:
    """Rows under a header that names a unit price and an amount but no quantity, where the amounts
    mostly differ from the prices: the table has a quantity column whose heading (and often whose
    numbers) OCR lost, so a row's quantity may be worked out by division. Where every amount is its
    price the table has no quantities to find."""
    priced = [row for row in rows if "quantity" not in row.column_kinds
              and {"unit_price", "amount"} <= row.column_kinds and "unit_price" in row.numbers
              and "amount" in row.numbers]
    differing = [row for row in priced if row.numbers["unit_price"].value != row.numbers["amount"].value]
    if len(differing) < 2 or len(differing) < 0.5 * len(priced):
        return rows
    for row in priced:
        row.column_kinds = row.column_kinds | {"quantity"}
    return rows


def _with_lost_price_column(rows: list[_Row]) -> list[_Row]:
    """Scanned rows under a header that names a quantity and an amount but no unit price, where most rows
    print a number a cell gap right of their description text: the table has a price column whose heading
    OCR lost, so its numbers were read into the description. They are the rows' unit prices (misread ones
    are then repaired by the arithmetic like any price), and the descriptions lose them."""
    candidates = [row for row in rows if row.line.scanned and row.described_here and row.description
                  and "unit_price" not in row.column_kinds and {"quantity", "amount"} <= row.column_kinds]
    found = [(row, price) for row in candidates if (price := _price_beside_description(row)) is not None]
    if len(found) < 3 or len(found) < 0.5 * len(candidates):
        return rows
    for row in candidates:
        row.column_kinds = row.column_kinds | {"unit_price"}
    for row, price in found:
        printed = [w.text for w in row.line.words if w.x1 > price.x0 and w.x0 < price.x1]
        described = row.description[0].split()
        if printed and described[-len(printed):] == printed:
            row.description[0] = " ".join(described[:-len(printed)])
            row.numbers["unit_price"] = price
    return rows


def _price_beside_description(row: _Row) -> NumberToken | None:
    """The number right before a row's amount, set a cell gap right of the word before it, that no
    column claimed."""
    amount = row.numbers.get("amount")
    if amount is None or "unit_price" in row.numbers:
        return None
    claimed = [*row.numbers.values(), *row.spare]
    before = [token for token in row.numbers_on_line if token.x1 <= amount.x0 and token not in claimed]
    if not before:
        return None
    price = before[-1]
    quantity = row.numbers.get("quantity")
    left = [w for w in row.line.words if w.x1 <= price.x0 + 0.01 and not _inside(w, price)]
    if (quantity is not None and price.x0 < quantity.x1) or not left \
            or price.x0 - left[-1].x1 <= BLOCK_GAP_CHARS * row.line.char_width():
        return None
    return price


#: a price or amount column prints decimals when at least this share of its scanned cells show them
_DECIMAL_COLUMN = 0.7
_FRACTION_DIGITS = re.compile(r"\d[.,](\d+)\D*$")


def _with_lost_column_points(rows: list[_Row]) -> list[_Row]:
    """Scanned rows whose price or amount OCR read without its decimal point ("15000", "211201") where the
    rest of the column prints decimals: the number is the same digits with the column's decimal places
    (150.00, 2112.01). Read as it stood, the lost point made a quantity of 100 by division, or a price a
    hundred times too high. Integers of fewer digits than a cent amount has, and text-layer tables, whose
    numbers are exact, stay as printed."""
    scanned = [row for row in rows if row.line.scanned]
    for kind in ("unit_price", "amount"):
        cells = [row.numbers[kind] for row in scanned if kind in row.numbers]
        printed = [match for token in cells if token.has_fraction and (match := _FRACTION_DIGITS.search(token.text))]
        if len(cells) < 3 or len(printed) < _DECIMAL_COLUMN * len(cells):
            continue
        places = Counter(len(match.group(1)) for match in printed).most_common(1)[0][0]
        for row in scanned:
            token = row.numbers.get(kind)
            if token is not None and not token.has_fraction and token.text.isdigit() and len(token.text) > places:
                row.numbers[kind] = replace(token, value=token.value / 10 ** places, has_fraction=True)
    return rows


def _known_kinds(columns: Sequence[Column] | None) -> int:
    return len({c.kind for c in columns or () if c.kind != "other"})


def _two_line_header(lines: Sequence[TextLine], position: int, header: tuple[Column, ...] | None,
                     decimal_separator: str | None) -> tuple[Column, ...] | None:
    """Columns from a heading broken over two lines ("Unit" / "price", "Line" / "total", "Betrag" /
    "netto"): a line of words without numbers set tightly under it that, read with it, names at least
    as many kinds of column as either line alone (and at least two)."""
    line = lines[position]
    if position + 1 >= len(lines):
        return None
    below = lines[position + 1]
    if below.page_number != line.page_number or below.top - line.bottom > _WRAPPED_GAP * line.height \
            or find_numbers(below, decimal_separator) or find_numbers(line, decimal_separator) \
            or not all(any(min(u.x1, w.x1) > max(u.x0, w.x0) for u in line.words) for w in below.words):
        return None  # every word of a heading's second line stands under a word of its first
    columns = find_header(TextLine(line.page_number, line.index, _stacked(line.words, below.words)))
    kinds = _known_kinds(columns)
    return columns if kinds >= max(2, _known_kinds(header), _known_kinds(find_header(below))) else None


def _stacked(upper: Sequence[Word], lower: Sequence[Word]) -> tuple[Word, ...]:
    """The words of two heading lines in reading order cell by cell: a lower word follows the upper
    word it stands under ("Unit" then "price"), whatever their alignment."""
    def overlap(a: Word, b: Word) -> float:
        return min(a.x1, b.x1) - max(a.x0, b.x0)

    keyed = [((w.x0, 0, w.x0), w) for w in upper]
    for word in lower:
        anchor = max(upper, key=lambda u: overlap(u, word), default=None)
        keyed.append(((anchor.x0, 1, word.x0) if anchor is not None and overlap(anchor, word) > 0
                      else (word.x0, 0, word.x0), word))
    return tuple(word for _, word in sorted(keyed, key=lambda item: item[0]))


#: the line that sends the reader to the next page; what follows it on its page is never an item
_CONTINUED = re.compile(r"\bcontinued\b|\bfortsetzung\b|\bsuite\b|\bvervolg\b", re.IGNORECASE)
#: lines of one wrapped cell are set this close (a share of the line height); rows stand further apart
_WRAPPED_GAP = 0.6


def _wrapped_above(pending: Sequence[tuple[str, TextLine]], line: TextLine) -> list[str]:
    """The pending lines that wrap down into ``line``: the run of them set tightly above it
    (a sub-heading or a description of its own stands further off)."""
    taken: list[str] = []
    below = line
    for text, candidate in reversed(pending):
        if candidate.page_number != line.page_number or below.top - candidate.bottom > _WRAPPED_GAP * line.height:
            break
        taken.insert(0, text)
        below = candidate
    return taken


def _closer_to_next(row_bottom: float, line: TextLine, following: TextLine | None) -> bool:
    """Whether a description line under a row belongs with the line below it instead: the first
    line of a wrapped cell whose numbers stand on its last line sits far closer to what follows."""
    if following is None or following.page_number != line.page_number:
        return False
    return following.top - line.bottom < _WRAPPED_GAP * (line.top - row_bottom)


_LEADING_ORDINAL = re.compile(r"^(\d{1,3})\.?\s+(?=\S)")
#: marks OCR leaves around a description ("—‘Travel expenses.", "[Network switch")
_EDGE_MARKS = re.compile(r"^[\s\-—–‘’'\"`_.,:;|~*\[\]{}]+|[\s‘’'\"`_.,:;|~*\[\]{}]+$")


#: square metres in a unit, written one way ("m²"): as printed "m2", and as OCR reads the superscript two
#: ("80 g/m?, box", "g/mz", "g/m’", "Reinigung (m*)", "(m7)", "(m’)") or drops it after "g/" (paper is
#: weighed per m²); a question mark, star, apostrophe, "z" or "7" after "g/" or inside "( )" is no other unit
_SQUARE_METRE = re.compile(r"(?:(?<=g/)m(?:\?2?|\*|z2?|2|7|[’'])?|(?<=\()m(?:\?2?|\*|z2?|2|7|[’']))(?=[),.\s]|$)")


def _without_row_numbers(items: list[LineItem], *, scanned: bool) -> list[LineItem]:
    """Descriptions without stray OCR marks at their edges and without a position column that was
    read into them (its header unreadable): leading integers that count up the rows, mostly by one."""
    items = [replace(item, description=_SQUARE_METRE.sub("m²", _EDGE_MARKS.sub("", item.description)))
             for item in items]
    ordinals = [_LEADING_ORDINAL.match(item.description) for item in items]
    numbered = [(row, int(m.group(1))) for row, m in enumerate(ordinals) if m is not None]
    # all rows numbered, or on a scan nearly all (OCR misread a few numbers: "El" for 8)
    if len(numbered) >= 2 and (all(ordinals) or (scanned and len(numbered) >= _NUMBERED_SCAN * len(items))):
        steps = [(b - a, row_b - row_a) for (row_a, a), (row_b, b) in zip(numbered, numbered[1:], strict=False)]
        # counting rows: always up, mostly by one a row (a row lost to OCR skips a number); on a scan that lost
        # many rows, a long rising run that skips fewer numbers than it holds ("2 5 6 8 9 10 11 ... 24")
        by_one = sum(step == rows for step, rows in steps) >= 0.7 * len(steps)
        rising_run = scanned and len(numbered) >= _RISING_RUN and \
            numbered[-1][1] - numbered[0][1] < 2 * len(numbered)
        if all(step > 0 for step, _ in steps) and (by_one or rising_run):
            items = [replace(item, description=_EDGE_MARKS.sub("", item.description[m.end():]) if m else item.description)
                     for item, m in zip(items, ordinals, strict=True)]
    return items


#: the share of a scanned table's rows that must start with a counting number for it to be a position column
_NUMBERED_SCAN = 0.8
#: so many rising numbers are a position column even where lost rows left gaps in their count
_RISING_RUN = 5


def _scanned(lines: Sequence[TextLine]) -> bool:
    """Whether the lines were read by OCR."""
    return any(line.scanned for line in lines)


#: "2 x 3,50", "1.5 × 4.00", "3 @ 1.99": a till receipt's quantity times unit price, also with the marks
#: OCR sets around them on a faint print ("_3 x 16,03", "5,75 x 4,06: „23,35")
_TIMES = re.compile(r"^(?P<before>.*?)(?<![^\W_]|[.,])(?P<qty>\d+(?:[.,]\d+)?)\s*(?:[x×*]|@)\s*"
                    r"(?P<price>(?:RM|[$€£])?\s?\d(?:[\d.,']*\d)?)[:;.,]*(?P<after>\s.*)?$", re.IGNORECASE)


_CENTS = re.compile(r"[.,]\d{2}$")


def _priced(times: re.Match[str] | None) -> bool:
    """Whether a line's quantity times price has the price with its cents, as a receipt's rows do ("6*1"
    in "TWIST DRILL 6*1" is a size)."""
    return times is not None and _CENTS.search(times["price"]) is not None


def _receipt_items(lines: Sequence[TextLine], decimal_separator: str | None) -> LineItemTable:
    """Rows of a receipt without a table header: "quantity x unit price ... amount", described on the
    same line before the quantity or on the line above. Reading stops at the first totals line
    after a row. Every "quantity x price" line is a row seen, so a row whose amount OCR garbled
    ("2,25 x 32,76 T3374") is counted as unread instead of vanishing from the receipt."""
    rows: list[LineItem] = []
    rows_seen = 0
    previous: TextLine | None = None
    previous_priced = False
    for line in lines:
        if rows_seen and amount_role(line.text) is not None:
            break
        match = _TIMES.match(line.text)
        numbers = find_numbers(line, decimal_separator)
        priced = _priced(match)
        if priced:
            rows_seen += 1
        if match is not None and numbers and numbers[-1].has_fraction:
            quantity = parse_amount(match["qty"], decimal_separator)
            unit_price = parse_amount(match["price"], decimal_separator)
            amount = numbers[-1].value
            description = match["before"].strip()
            if not _LETTER.search(description) and previous is not None \
                    and previous.page_number == line.page_number and not previous_priced \
                    and not any(n.has_fraction for n in find_numbers(previous, decimal_separator)):
                description = " ".join(w.text for w in _without_stray_tail(list(previous.words), previous,
                                                                           stray=_is_unsure_and_short))
            if quantity is not None and unit_price is not None and quantity * unit_price - amount <= Decimal("0.01") \
                    and amount - quantity * unit_price <= Decimal("0.01"):
                confidence = min(line.confidence, previous.confidence if previous is not None else 1.0)
                rows.append(LineItem(_SQUARE_METRE.sub("m²", " ".join(description.split())), format_quantity(quantity),
                                     format_amount(unit_price), format_amount(amount), confidence))
        previous, previous_priced = line, priced
    return LineItemTable(tuple(rows), rows_seen, bool(rows_seen))


#: a word that is only a currency, printed beside the number it belongs to ("$", "EUR")
_CURRENCY_WORD = re.compile(r"^(?:[$€£¥]|[A-Z]{3}|RM|Fr\.?)$")


def _arithmetic_table(lines: Sequence[TextLine], decimal_separator: str | None) -> LineItemTable:
    """Rows of a table whose header names no column we know (or that has no header at all), found by
    arithmetic alone: a line with text and three numbers where quantity x unit price = amount is a row,
    wherever its columns stand. Text-only lines set tightly under a row continue its description; those
    set tightly above a row whose own line has no text begin it. Reading stops at the first totals line
    after a row."""
    rows: list[LineItem] = []
    pending: list[tuple[str, TextLine]] = []
    last: TextLine | None = None  # the line the last row's description ends on
    for line in lines:
        numbers = find_numbers(line, decimal_separator)
        if rows and amount_role(line.text) is not None and len(numbers) <= 1:
            break
        if _FURNITURE.search(line.text):
            pending = []
            continue
        triple = _verified_triple(numbers)
        if triple is not None:
            description = _triple_description(line, triple) or " ".join(_wrapped_above(pending, line))
            if _LETTER.search(description):
                quantity, price, amount = triple
                rows.append(LineItem(" ".join(description.split()), format_quantity(quantity.value),
                                     format_amount(price.value), format_amount(amount.value), line.confidence))
                last = line
            pending = []
            continue
        text = _text_beside(line, numbers)
        if numbers or not text:
            pending = []
            continue
        if rows and last is not None and last.page_number == line.page_number \
                and line.top - last.bottom < _WRAPPED_GAP * line.height and not pending:
            rows[-1] = replace(rows[-1], description=f"{rows[-1].description} {' '.join(text.split())}")
            last = line
        else:
            pending.append((text, line))
    items = _without_row_numbers(rows, scanned=_scanned(lines))
    return LineItemTable(tuple(items), len(items), False)


def _triple_description(line: TextLine, triple: tuple[NumberToken, NumberToken, NumberToken]) -> str:
    """The text of a row read by arithmetic, its own numbers included: what stands left of the quantity
    ("Paper A4 80 g/m² 2 4.50 9.00") when it has a letter (else it is a row number), otherwise what stands
    between the quantity's unit and the unit price, in a table that prints the quantity first ("2.00 box
    Copy paper A4, 80 g/m², box 100.35 0% 200.70"). What stands right of the price (a VAT rate, a tax
    code) is never an item's text. Where the triple's quantity was a row number that happens to equal it, the
    real quantity cell starts the text ("6u" read for "6 u") or ends it, set apart (a misread "5"): neither
    is kept."""
    quantity, price, _ = triple
    unit = _unit_after(line, quantity)
    before = [w for w in line.words if w.x1 <= quantity.x0 + 0.01]
    between = [w for w in line.words if w.x0 >= quantity.x1 - 0.01 and w.x1 <= price.x0 + 0.01
               and w is not unit and not _inside(w, quantity)]
    while between and _QUANTITY_WITH_UNIT.match(between[0].text):
        between.pop(0)
    # a number set apart at the end is a cell of its own; "Zeitraum 2/2025" is the text's
    between = _without_stray_tail(between, line, stray=lambda word: not _LETTER.search(word.text))
    parts = [" ".join(w.text for w in _without_stray_tail(part, line)
                      if not _CURRENCY_WORD.match(w.text) and not is_speck(w)) for part in (before, between)]
    return next((part for part in parts if _LETTER.search(part)), "")


#: a quantity that OCR joined to its unit ("6u", "1lot", "2pcs")
_QUANTITY_WITH_UNIT = re.compile(rf"^\d+(?:[.,]\d+)?{QUANTITY_UNITS}$", re.IGNORECASE)


def _text_beside(line: TextLine, numbers: Sequence[NumberToken]) -> str:
    """A row line's words that are not its numbers or the currencies printed with them."""
    return " ".join(w.text for w in line.words
                    if not any(_inside(w, n) for n in numbers) and not _CURRENCY_WORD.match(w.text) and not is_speck(w))


def _is_totals_line(line: TextLine, columns: Sequence[Column], decimal_separator: str | None) -> bool:
    """A subtotal/total/tax line, not an item whose description happens to say "total"."""
    numbers = find_numbers(line, decimal_separator)
    description_words = _assign(line, numbers, columns).description
    return not description_words or len(numbers) <= 1


@dataclass(frozen=True, slots=True)
class _Cells:
    description: list[str]
    numbers: dict[str, NumberToken]
    spare: tuple[NumberToken, ...] = ()


def _assign(line: TextLine, numbers: Sequence[NumberToken], columns: Sequence[Column]) -> _Cells:
    numeric_words: set[Word] = set()
    assigned: dict[str, NumberToken] = {}
    spare: list[NumberToken] = []
    description_end = max((c.x1 for c in columns if c.kind == "description"), default=None)
    for token in numbers:
        words = [w for w in line.words if _inside(w, token)]
        column = _column_of(token.x0, token.x1, columns)
        unit = _unit_after(line, token)
        if unit is not None and _column_of(token.x0, unit.x1, columns).kind == "quantity":
            column = _column_of(token.x0, unit.x1, columns)  # "2 pcs": the cell is the number and its unit
            words.append(unit)
        if column.kind in _NUMERIC_KINDS:
            assigned[column.kind] = token
            numeric_words.update(words)
        elif column.kind == "other":
            numeric_words.update(words)
            if description_end is not None and token.x0 > description_end:
                spare.append(token)
    described = _described_columns(columns)
    description = _without_stray_tail([w for w in line.words if w not in numeric_words
                                       and _column_of(w.x0, w.x1, columns) in described and not is_speck(w)], line)
    return _Cells([w.text for w in description], assigned, tuple(spare))


#: the longest word that, set a cell gap right of a description's text, is taken for scan noise
_STRAY_CHARS = 4


def _is_short(word: Word) -> bool:
    return len(word.text) <= _STRAY_CHARS


def _is_unsure_and_short(word: Word) -> bool:
    """A short word OCR was unsure of, digits or not: a speck beside a description, not a weight ("1KG")."""
    return _is_short(word) and word.confidence is not None and word.confidence < SPECK_CONFIDENCE


def _without_stray_tail(words: list[Word], line: TextLine, *,
                        stray: Callable[[Word], bool] = _is_short) -> list[Word]:
    """A row's description words without the ``stray`` ones set a cell gap right of the text at its end
    (words of a cell's text are set a word space apart). By default those are the short words OCR read
    from scan noise between the description and the next column ("Project management    “i", "... box    4")."""
    words = list(words)
    while len(words) > 1 and stray(words[-1]) and words[-1].x0 - words[-2].x1 > BLOCK_GAP_CHARS * line.char_width():
        words.pop()
    return words


def _described_columns(columns: Sequence[Column]) -> tuple[Column, ...]:
    """The description column and the unread ones right after it: a speck over a long description's end
    marks no cell of its own, so the words under it (not its numbers) are the description's. So does an
    unread cell right before it, a garbled start of its heading ("Item / Service" read "Item tem Service")."""
    kinds = [c.kind for c in columns]
    if "description" not in kinds:
        return ()
    start = kinds.index("description")
    end = start + 1
    while start > 0 and columns[start - 1].unread:
        start -= 1
    while end < len(columns) and columns[end].unread:
        end += 1
    return tuple(columns[start:end])


#: the words a detail line prints around its quantity and unit price ("Qty: 2 x 600.00 each", "12 h @ 95.00/h",
#: "Menge 3 zu je 12,50"): signs, connectors, labels and units, never an item's name
_DETAIL_WORD = re.compile(r"^(?:[x×*@:;,.·|/()=-]+|at|à|a|zu|je|per|each|pro|par|stuk|unit|units|price|prix|preis|"
                          r"prijs|qty|quantity|menge|anzahl|qté|quantité|aantal|rate|tarif)$|^/",
                          re.IGNORECASE)


def _is_detail_word(word: str) -> bool:
    word = word.strip(":;,.()")
    return not word or bool(_DETAIL_WORD.match(word) or QUANTITY_UNIT.match(word) or _CURRENCY_WORD.match(word))


def _detail_numbers(line: TextLine, words: Sequence[Word], amount: Decimal,
                    decimal_separator: str | None) -> tuple[list[str], NumberToken, NumberToken] | None:
    """Quantity and unit price printed as text in a row's description cell or on a detail line of its
    own ("2 x 600.00", "Qty: 3 @ 12.50 each"): two numbers, the quantity first, whose product is the
    row's amount, with nothing but signs, labels and units after the quantity. Returns the words
    before the quantity that name the item (none if they are labels too) and the two numbers."""
    words = [_without_per_unit(w) for w in words]
    cell = TextLine(line.page_number, line.index, tuple(words))
    numbers = find_numbers(cell, decimal_separator) if words else ()
    for i, quantity in enumerate(numbers):
        for price in numbers[i + 1:]:
            if quantity.value <= 0 or not _fits(quantity.value, price.value, amount):
                continue
            others = [w for w in words if not (_inside(w, quantity) or _inside(w, price))]
            before = [w.text for w in others if w.x1 <= quantity.x0 + 0.01]
            if not all(_is_detail_word(w.text) for w in others if w.x1 > quantity.x0 + 0.01):
                continue
            return ([] if all(_is_detail_word(text) for text in before) else before), quantity, price
    return None


_PER_UNIT = re.compile(r"(.*\d)/[^\W\d_]+\.?")


def _without_per_unit(word: Word) -> Word:
    """ "95.00/h" as the number it starts with, in the share of the box its characters take."""
    match = _PER_UNIT.fullmatch(word.text)
    if match is None:
        return word
    share = len(match.group(1)) / len(word.text)
    return replace(word, text=match.group(1), x1=word.x0 + share * (word.x1 - word.x0))


def _with_inline_times(line: TextLine, cells: _Cells, columns: Sequence[Column],
                       decimal_separator: str | None) -> _Cells:
    """A row whose quantity and unit price are printed in its description cell ("2 x 600.00" under
    the description heading, the amount in its column): both read from there, and only the text
    before them is description (none at all if the item is named on the line above)."""
    amount = cells.numbers.get("amount")
    if amount is None or ("quantity" in cells.numbers and "unit_price" in cells.numbers):
        return cells
    words = _description_words(line, columns)
    detail = _detail_numbers(line, words, amount.value, decimal_separator)
    if detail is None:
        return cells
    before, quantity, price = detail
    return _Cells(before, {"quantity": quantity, "unit_price": price, **cells.numbers}, cells.spare)


def _description_words(line: TextLine, columns: Sequence[Column]) -> list[Word]:
    return [w for w in line.words if _column_of(w.x0, w.x1, columns).kind == "description" and not is_speck(w)]


def _inside(word: Word, token: NumberToken) -> bool:
    """Whether a word is (part of) what a number was read from."""
    return word.x0 >= token.x0 - 0.01 and word.x1 <= token.x1 + 0.01


def _unit_after(line: TextLine, token: NumberToken) -> Word | None:
    """The unit word printed right after a number ("pcs" in "2 pcs"), if any."""
    after = next((w for w in line.words if w.x0 >= token.x1 - 0.01), None)
    if after is None or after.x0 - token.x1 > 1.5 * line.char_width() or not QUANTITY_UNIT.match(after.text):
        return None
    return after


#: OCR reads scan specks as short words it is unsure of ("ae", "eee", "tt" at 0.05-0.6, where the
#: real words of the same scans read at 0.9 or more)
SPECK_CONFIDENCE = 0.65


def is_speck(word: Word) -> bool:
    """A short word without digits OCR was unsure of: a scan speck, not text."""
    return (len(word.text) <= 3 and not any(ch.isdigit() for ch in word.text)
            and word.confidence is not None and word.confidence < SPECK_CONFIDENCE)


def _fill_by_arithmetic(numbers: dict[str, NumberToken], spare: Sequence[NumberToken]) -> dict[str, NumberToken]:
    """Quantity and unit price from numbers under unreadable header cells (OCR garbled "Qty"/"Rate"):
    the ones whose product is the row's amount, the left one being the quantity."""
    amount = numbers.get("amount")
    if amount is None or ("quantity" in numbers and "unit_price" in numbers) or not spare:
        return numbers

    def fits(quantity: NumberToken, price: NumberToken) -> bool:
        return abs(quantity.value * price.value - amount.value) <= Decimal("0.01")

    filled = dict(numbers)
    if "quantity" in numbers:
        price = next((p for p in spare if fits(numbers["quantity"], p)), None)
        if price is not None:
            filled["unit_price"] = price
    elif "unit_price" in numbers:
        quantity = next((q for q in spare if fits(q, numbers["unit_price"])), None)
        if quantity is not None:
            filled["quantity"] = quantity
    else:
        pair = next(((q, p) for i, q in enumerate(spare) for p in spare[i + 1:] if fits(q, p)), None)
        if pair is not None:
            filled["quantity"], filled["unit_price"] = pair
    return filled


def _fits(quantity: Decimal, price: Decimal, amount: Decimal) -> bool:
    return abs(quantity * price - amount) <= Decimal("0.01")


def _verified_triple(numbers: Sequence[NumberToken]) -> tuple[NumberToken, NumberToken, NumberToken] | None:
    """Quantity, unit price and amount read off a line by arithmetic alone, the amount as far right as
    possible: for rows whose columns OCR shifted or whose header cells it lost. A quantity that OCR
    joined to the price as a digit group ("1 179,30" for "1" and "179,30") is split off again."""
    for k in range(len(numbers) - 1, 0, -1):
        amount = numbers[k]
        if not amount.has_fraction or amount.value <= 0:
            continue
        for j in range(k - 1, -1, -1):
            price = numbers[j]
            split = _split_quantity(price)
            if split is not None and _fits(split[0].value, split[1].value, amount.value):
                return split[0], split[1], amount
            for i in range(j - 1, -1, -1):
                if numbers[i].value > 0 and _fits(numbers[i].value, price.value, amount.value):
                    return numbers[i], price, amount
    return None


def _split_quantity(price: NumberToken) -> tuple[NumberToken, NumberToken] | None:
    """ "1 179,30" as 1 and 179.30: the leading digit group taken as a quantity."""
    match = re.fullmatch(r"(\d{1,3}) (\d[\d ]*)[.,]\d{1,3}", price.text)
    if match is None or match.group(1).startswith("0"):
        return None
    quantity = Decimal(match.group(1))
    rest = price.value - quantity * 10 ** len(match.group(2).replace(" ", ""))
    if rest <= 0:
        return None
    return (NumberToken(quantity, match.group(1), price.x0, price.x0, False),
            NumberToken(rest, price.text[match.end(1) + 1:], price.x0, price.x1, True))


#: a quantity worked out by division is believed only with this few decimals (2, 1.5, 0.25, 12.75)
_QUANTITY_PLACES = Decimal("0.01")


def with_credit_signs(items: Sequence[LineItem], net: Decimal | None) -> tuple[LineItem, ...]:
    """A credit note's rows whose minus signs OCR lost ("99.53  622.06" on a note for -622.06): where the
    net amount is negative and the rows sum to it only with every positive row made negative, they are."""
    if net is None or net >= 0:
        return tuple(items)
    signed = tuple(_negated(item) for item in items)
    read, credited = (sum((Decimal(i.amount) for i in rows if i.amount is not None), Decimal(0))
                      for rows in (items, signed))
    return signed if read != credited and abs(credited - net) <= Decimal("0.01") else tuple(items)


def _negated(item: LineItem) -> LineItem:
    """The row as a credit: its positive price and amount made negative."""
    def credit(value: str | None) -> str | None:
        return format_amount(-Decimal(value)) if value is not None and Decimal(value) > 0 else value
    return replace(item, unit_price=credit(item.unit_price), amount=credit(item.amount))


def _complete_by_division(numbers: dict[str, NumberToken], kinds: frozenset[str],
                          line: TextLine) -> dict[str, NumberToken]:
    """The one number of quantity x price = amount that OCR lost, from the other two, where the header has
    its column and one number (a price to the cent, a quantity to two places) gives the amount as printed,
    less a discount rate printed on the line if one explains it (1 x 3.68 less 3 % = 3.57, not 0.97 x 3.68);
    and a credit row's price or amount takes the minus sign of the other that OCR dropped."""
    quantity, price, amount = (numbers.get(kind) for kind in _NUMERIC_KINDS)
    if amount is None or amount.value == 0:
        return numbers
    # a quantity or price of zero beside an amount is a misread cell (a lone "0" for 3.09), as good as lost
    completed = {kind: token for kind, token in numbers.items() if kind == "amount" or token.value != 0}
    quantity, price = completed.get("quantity"), completed.get("unit_price")
    if quantity is None and price is not None and "quantity" in kinds:
        value = _quotient_after_discount(amount.value, price.value, _QUANTITY_PLACES, line)
        if value is not None and value > 0:
            completed["quantity"] = NumberToken(value, "", price.x0, price.x0, False)
    elif price is None and quantity is not None and quantity.value > 0 and "unit_price" in kinds:
        value = _quotient_after_discount(amount.value, quantity.value, Decimal("0.01"), line)
        if value is not None:
            completed["unit_price"] = NumberToken(value, "", amount.x0, amount.x0, True)
    elif quantity is not None and price is not None and amount.value < 0 < price.value \
            and _fits(quantity.value, -price.value, amount.value):
        completed["unit_price"] = replace(price, value=-price.value)
    elif quantity is not None and price is not None and quantity.value > 0 > price.value \
            and _fits(quantity.value, price.value, -amount.value):
        completed["amount"] = replace(amount, value=-amount.value)
    return completed


def _rounded_quotient(amount: Decimal, divisor: Decimal, places: Decimal) -> Decimal | None:
    """The one number to ``places`` whose product with ``divisor`` comes to ``amount`` once rounded to the
    cent (9.25 x 23.69 = 219.1325, printed 219.13), or None where no such number, or more than one, does
    (any of 3.02, 3.03 and 3.04 times 0.33 rounds to 1.00)."""
    nearest = (amount / divisor).quantize(places)
    fitting = [value for value in (nearest - places, nearest, nearest + places)
               if abs(value * divisor - amount) <= _HALF_CENT]
    return fitting[0] if len(fitting) == 1 else None


_HALF_CENT = Decimal("0.005")


def _quotient_after_discount(amount: Decimal, divisor: Decimal, places: Decimal, line: TextLine) -> Decimal | None:
    """The rounded quotient of ``amount`` by ``divisor``, or by ``divisor`` less a rate printed on the line
    where that quotient is the rounder number (1 rather than 0.97): a rate that is a tax, not a discount,
    makes a quotient no rounder than the true one, which is kept."""
    quotients = [_rounded_quotient(amount, divisor, places),
                 *(_rounded_quotient(amount, divisor * (1 - rate / 100), places)
                   for rate in _percentages(line.text) if rate < 100)]
    found = [value for value in quotients if value is not None]
    return min(found, key=_decimal_places) if found else None


def _decimal_places(value: Decimal) -> int:
    return max(0, -value.normalize().as_tuple().exponent)


#: OCR drops a decimal point now and then ("2188" for 21.88); a quantity or price read without one
#: is tried with this many decimal places
_LOST_POINT_PLACES = (1, 2, 3)


def _with_lost_points(numbers: dict[str, NumberToken], line: TextLine) -> dict[str, NumberToken]:
    """Quantity x price = amount restored where OCR lost the decimal point of the quantity, the price or
    the amount ("315" for 3.15): the one printed without decimals is divided by 10, 100 or 1000 when that,
    and only that, makes the product the amount, less a discount rate printed on the line where one
    explains it ("95" x 6.42 less 20 % = 48.79 is 9.5 x 6.42)."""
    quantity, price, amount = (numbers.get(kind) for kind in _NUMERIC_KINDS)
    if quantity is None or price is None or amount is None \
            or _explained(quantity.value, price.value, amount.value, line):
        return numbers
    for kind, token in (("quantity", quantity), ("unit_price", price), ("amount", amount)):
        if token.has_fraction or token.value <= 0:
            continue
        for places in _LOST_POINT_PLACES:
            restored = {**numbers, kind: replace(token, value=token.value / 10 ** places, has_fraction=True)}
            if _explained(*(restored[k].value for k in _NUMERIC_KINDS), line):
                return restored
    return numbers


def _explained(quantity: Decimal, price: Decimal, amount: Decimal, line: TextLine) -> bool:
    """Whether quantity x price comes to the amount, as it is or less a rate printed on the line."""
    return _fits(quantity, price, amount) or _printed_discount(quantity, price, amount, line) is not None


def _with_one_misread_character(numbers: dict[str, NumberToken], line: TextLine) -> dict[str, NumberToken]:
    """Quantity x price = amount restored where OCR got one character of a number wrong: lost its first digit
    ("$427.90" for 5,427.90, a speck where the "5" was), read a cell's rule as one ("410" for 10), or misread
    or dropped a digit ("42" for 12, "15.5" for 1.5): the number the other two make (the product rounded to
    the cent, or the one quotient whose product rounds to the amount) is the one read with one character more,
    less or changed, or, where it was read without a decimal point, whose digits are ("1235" for 12.75: the
    point lost and the "7" misread). A row whose discount on the line explains the difference
    (5 x 524.00 less 20 % = 2096.00) is left as read."""
    quantity, price, amount = (numbers.get(kind) for kind in _NUMERIC_KINDS)
    if quantity is None or price is None or amount is None or min(quantity.value, price.value, amount.value) <= 0 \
            or _explained(quantity.value, price.value, amount.value, line):
        return numbers
    implied = {"amount": (quantity.value * price.value).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP),
               "unit_price": _rounded_quotient(amount.value, quantity.value, Decimal("0.01")),
               "quantity": _rounded_quotient(amount.value, price.value, _QUANTITY_PLACES)}
    repairs = []
    for kind, value in implied.items():
        if value is None:
            continue
        read = numbers[kind]
        shown = format_quantity if kind == "quantity" else format_amount
        printed = read.text or shown(read.value)
        if one_edit_apart(shown(value), shown(read.value)) or (
                not read.has_fraction and one_edit_apart(_digits(shown(value)), _digits(printed))):
            repairs.append({**numbers, kind: replace(read, value=value, has_fraction=kind != "quantity")})
    # 3 x "196.00" = "3,588.00": the price's "1" lost, or the amount's "3" a rule? Either; so neither
    return repairs[0] if len(repairs) == 1 else numbers


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


_PERCENTAGE = re.compile(r"(\d{1,2}(?:[.,]\d{1,2})?)\s?%")


def _percentages(text: str) -> list[Decimal]:
    """The rates printed on a line ("20 %", "2,5%")."""
    return [Decimal(match.group(1).replace(",", ".")) for match in _PERCENTAGE.finditer(text)]


def _printed_discount(quantity: Decimal, price: Decimal, amount: Decimal, line: TextLine) -> Decimal | None:
    """The rate printed on the line that quantity x price, less it, comes to the amount (5 x 28.00 less
    10 % = 126.00), where quantity x price alone does not: a discount column or a "less 10 %" note. A VAT
    rate on the same line leaves the product as it is, so the arithmetic tells the two apart."""
    if _fits(quantity, price, amount):
        return None
    return next((rate for rate in _percentages(line.text) if _fits(quantity, price * (1 - rate / 100), amount)),
                None)


def _to_item(row: _Row) -> LineItem:
    numbers = _fill_by_arithmetic(row.numbers, row.spare)
    if not all(kind in numbers for kind in _NUMERIC_KINDS) \
            or not _fits(numbers["quantity"].value, numbers["unit_price"].value, numbers["amount"].value):
        triple = _verified_triple(row.numbers_on_line)
        if triple is not None:
            numbers = dict(zip(_NUMERIC_KINDS, triple, strict=True))
            left = [w.text for w in row.line.words if w.x1 <= triple[0].x0 + 0.01]
            if row.described_here and left:
                row.description[:1] = [" ".join(left)]
    numbers = _with_one_misread_character(_with_lost_points(numbers, row.line), row.line)
    numbers = _complete_by_division(numbers, row.column_kinds, row.line)
    quantity, unit_price, amount = (numbers.get(kind) for kind in _NUMERIC_KINDS)
    confidences = [w.confidence for w in row.line.words if w.confidence is not None]
    confidence = sum(confidences) / len(confidences) if confidences else 1.0
    discount = None
    if quantity is not None and unit_price is not None and amount is not None:
        discount = _printed_discount(quantity.value, unit_price.value, amount.value, row.line)
        consistent = discount is not None or _fits(quantity.value, unit_price.value, amount.value)
        confidence *= 1.0 if consistent else 0.8
    return LineItem(
        description=" ".join(" ".join(row.description).split()),
        quantity=format_quantity(quantity.value) if quantity is not None else None,
        unit_price=format_amount(unit_price.value) if unit_price is not None else None,
        amount=format_amount(amount.value) if amount is not None else None,
        confidence=confidence,
        discount_percent=format_quantity(discount) if discount is not None else None,
    )

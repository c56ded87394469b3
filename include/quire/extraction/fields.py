"""Generic field extraction: labels, the geometry around them, and normalisation.

No vendor template is needed: each field is found next to (right of, or below) a label
printed in one of the supported languages, or failing that by a documented fallback with
a lower confidence. A matching vendor template (templates.py) overrides what it defines.
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal
from itertools import dropwhile

from quire.extraction import labels
from quire.extraction.layout import (
    DocumentContext,
    NumberToken,
    TextLine,
    build_context,
    find_numbers,
    split_segments,
    text_above,
    text_below,
    text_right,
)
from quire.extraction.line_items import extract_line_items, find_header, is_speck, with_credit_signs
from quire.extraction.normalise import (DateMatch, amounts_one_edit_apart, find_dates, find_misread_dates,
                                        fold, format_amount, misread_amount, one_edit_apart, rejoined,
                                        whole_date)
from quire.extraction.templates import Template, apply_template, load_templates, match_template
from quire.extraction.validate import validate_extraction
from quire.model import Classification, Extraction, FieldValue, ParsedDocument, TextMethod, Word
from quire.settings import Settings, get_settings

#: bump when a rule changes what is extracted, so stored results can be traced to the rules
EXTRACTOR_VERSION = "generic-127"

FIELD_NAMES = ("vendor_name", "vendor_address", "invoice_number", "issue_date", "due_date", "currency",
               "subtotal_amount", "tax_amount", "total_amount")

# confidence of a value by how it was found, before the OCR confidence of its words scales it
_LABELLED_SAME_LINE = 0.95
_LABELLED_BELOW = 0.85
_FALLBACK = 0.55
_MISREAD = 0.45  # a value read through a repaired OCR misreading
#: the largest difference rounding makes between two totals (cash rounding to 5 cents)
_ROUNDING_STEP = Decimal("0.05")
_MISSING = FieldValue(None, 0.0)


def extract_fields(parsed: ParsedDocument, classification: Classification, *,
                   templates: Sequence[Template] | None = None, settings: Settings | None = None) -> Extraction:
    """Extract the normalised fields and line items of one document, validate them and route it.

    ``templates`` defaults to the YAML templates in ``settings.template_dir``; the first that
    matches overrides the generic value of each field it defines, and its ``name@version``
    is recorded on the result.
    """
    settings = settings if settings is not None else get_settings()
    if templates is None:
        templates = load_templates(settings.template_dir) if settings.template_dir else ()
    context = build_context(parsed)
    fields = extract_generic_fields(context, classification.doc_type)
    table = extract_line_items(context.lines, context.decimal_separator)
    template = match_template(parsed, templates)
    if template is not None:
        fields.update(apply_template(template, context))
    table = replace(table, items=with_credit_signs(table.items, _net_amount(fields)))
    read_by_ocr = any(page.method is TextMethod.OCR for page in parsed.pages)
    validation, routing = validate_extraction(fields, table, classification.doc_type, settings.review_confidence,
                                              adjusted=_prints_adjustment(context), read_by_ocr=read_by_ocr)
    return Extraction(fields=fields, line_items=table.items, validation=validation, routing=routing,
                      extractor_version=EXTRACTOR_VERSION,
                      template=template.reference if template is not None else None)


def _prints_adjustment(context: DocumentContext) -> bool:
    """Whether a line prices a discount, a further charge or a rounding ("DISCOUNT -30.00", "SERV CHARGE 10%
    4.96", "ROUNDING ADJ -0.03"): what takes a total away from subtotal plus tax."""
    return any((labels.TOTALS_ADJUSTMENT.search(line.text) or labels.OTHER_CHARGE.search(line.text))
               and any(n.value for n in _money(line, context)) for line in context.lines)


def _net_amount(fields: dict[str, FieldValue]) -> Decimal | None:
    """What the line items sum to: the subtotal, or the total where none is printed."""
    value = (fields.get("subtotal_amount") or _MISSING).value or (fields.get("total_amount") or _MISSING).value
    return Decimal(value) if value is not None else None


def extract_generic_fields(context: DocumentContext, doc_type: str | None = None) -> dict[str, FieldValue]:
    """Every field in FIELD_NAMES by the label rules, in a fixed order."""
    vendor_name, vendor_address = find_vendor(context.lines, doc_type)
    dates = find_labelled_dates(context)
    amounts = find_amounts(context, doc_type)
    found = {
        "vendor_name": vendor_name,
        "vendor_address": vendor_address,
        "invoice_number": find_invoice_number(context.lines),
        "issue_date": dates.get("issue_date", _MISSING),
        "due_date": dates.get("due_date", _MISSING),
        "currency": FieldValue(context.currency, 0.9) if context.currency
        else _unprinted_currency(context, vendor_address) if "total_amount" in amounts else _MISSING,
        **amounts,
    }
    return {name: found.get(name, _MISSING) for name in FIELD_NAMES}


def _unprinted_currency(context: DocumentContext, vendor_address: FieldValue) -> FieldValue:
    """Where nothing printed names the currency of a document's total (OCR lost the "€" or "$" of every
    amount), the currency of the issuer's country, less sure than a printed one: the country its VAT number
    names ("BTW-nummer BE0641537476": EUR), only when every VAT number on the page names the same currency;
    where the page prints no VAT number, the country the issuer's address ends in (see :func:`_address_currency`)."""
    found = {(labels.VAT_COUNTRY_CURRENCIES.get(match.group(1)), line.confidence)
             for line in context.lines for match in labels.VAT_NUMBER.finditer(line.text)}
    if not found:
        currency = _address_currency(vendor_address.value) if vendor_address.value else None
        return FieldValue(currency, _LABELLED_BELOW * vendor_address.confidence) if currency else _MISSING
    currencies = {currency for currency, _ in found}
    if len(currencies) != 1 or None in currencies:
        return _MISSING
    # told by the VAT number, not printed: as sure as a value labelled below its label
    return FieldValue(currencies.pop(), _LABELLED_BELOW * min(confidence for _, confidence in found))


def _address_currency(address: str) -> str | None:
    """The currency of the country an address ends in: its country's name ("..., Hamburg, Deutschland"), a
    US state and ZIP code ("Austin, TX 78701"), an Eircode ("Galway H91 E2K3") or a British postcode
    ("Bristol BS1 5TR"); None for a postcode of digits alone, which many countries share."""
    country = _country(address.rsplit(",", 1)[-1])
    if country is not None:
        return labels.COUNTRY_CURRENCIES.get(country)
    if labels.US_STATE_ZIP.search(address):
        return "USD"
    if labels.EIRCODE_END.search(address):
        return "EUR"
    return "GBP" if labels.UK_POSTCODE_END.search(address) else None


# -- label geometry --------------------------------------------------------------------------------------

def _text_after(line: TextLine, end: int) -> str:
    """Text right of a label on its line."""
    return line.text[end:]


# -- invoice number --------------------------------------------------------------------------------------

# OCR adds stray quotes and marks around a label ("N° de ticket‘ 2875-020068"): any punctuation may precede
_NUMBER_PREFIX = re.compile(r"^[\W_]*(?:(?:no|nr|n[°o]|number|nummer|num[ée]ro)\.?[\W_]*)?", re.IGNORECASE)
_IDENTIFIER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9\-/._]*")


#: a short OCR leftover between a label and its value ("Credit Memo #: ree _CN-2026-26162", "Invoice 4 INV-...",
#: a speck read as a capital before a number of digits: "L 2025/65432")
_LEFTOVER = re.compile(r"^[\W_]*[a-zäöüéèà]{1,3}\b|^[\W_]*\d\s+(?=[A-Za-z])|^[\W_]*[A-Z]\s+(?=\d)")


#: a number OCR split inside its letter prefix ("IN V0045838" for "INV0045838"): capitals, one space, the
#: prefix's last capitals and the digits
_SPLIT_PREFIX = re.compile(r"^([\W_]*)([A-Z]{1,2}) (?=([A-Z]{1,2})-?\d)")
#: the longest prefix a split is joined into: a speck ("L 2025/65432") or a code ("CR FA2026-14185") before
#: a whole number makes a longer one or none
_PREFIX_LETTERS = 3


def _joined_prefix(text: str) -> str:
    """The text with a document number's prefix that OCR set apart joined to it again."""
    match = _SPLIT_PREFIX.match(text)
    if match is None or len(match.group(2)) + len(match.group(3)) > _PREFIX_LETTERS:
        return text
    return match.group(1) + match.group(2) + text[match.end():]


#: the letter O OCR read for a zero: after the prefix "INV" (an abbreviation no other word starts a number
#: with, "INVO026376") or between two digits ("R2025O3155"), where the number's own shape says it is a digit
_O_FOR_ZERO = re.compile(r"(?<=^INV)[O]+(?=\d)|(?<=\d)O+(?=\d)")


def _zeros_repaired(value: str) -> str:
    """A document number with the O's its shape makes zeros read as zeros."""
    return _O_FOR_ZERO.sub(lambda match: "0" * len(match.group(0)), value)


#: a number OCR broke in two at the end of its line: a short run of digits after its digits ("3256-0835 16",
#: "20251 5993"), or the rest after a hyphen, also one it read twice, wherever the line goes on
#: ("CR-2024- -60422", "PO-2026- 39201 (cont.)")
_BROKEN_TAIL = re.compile(r"^([\W_]*[A-Za-z]{0,4}[-/.]?\d[\d\-/.]*\d) (\d{1,5})\s*$"
                          r"|^([\W_]*[A-Za-z]{0,4}[-/.]?\d[\d\-/.]*-) -?(\d+)(?!\S)")
#: a final 1 OCR read as an exclamation mark ("9251-08025!")
_MARK_FOR_ONE = re.compile(r"(?<=\d)!(?=\s|$)")
#: a hyphen between digits OCR read as a tilde ("1891~015492")
_TILDE_FOR_HYPHEN = re.compile(r"(?<=\d)~(?=\d)")


def _mended(text: str) -> str:
    """The text after a label with a number OCR broke at its end made whole again."""
    text = _TILDE_FOR_HYPHEN.sub("-", _MARK_FOR_ONE.sub("1", text))
    match = _BROKEN_TAIL.match(text)
    if match is None:
        return text
    head, tail = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
    return head + tail


def _identifier(text: str) -> str | None:
    text = _mended(text)
    value = _plain_identifier(text)
    rest = _NUMBER_PREFIX.sub("", text, count=1)
    leftover = _LEFTOVER.match(rest)
    if leftover is not None and (value is None or len(value) == 1):
        value = _plain_identifier(rest[leftover.end():]) or value
    return value


def _plain_identifier(text: str) -> str | None:
    match = _IDENTIFIER.match(_joined_prefix(_NUMBER_PREFIX.sub("", text, count=1)))
    if match is None:
        return None
    value = _zeros_repaired(match.group(0).rstrip("._-/"))
    return value if any(ch.isdigit() for ch in value) and not _is_date(value) else None


def _is_date(value: str) -> bool:
    """Whether an identifier is a date and nothing else ("12/03/2024" next to a misplaced label)."""
    return whole_date(value) is not None


def find_invoice_number(lines: Sequence[TextLine]) -> FieldValue:
    """The document number next to its label; labelled values only (a bare number is too risky).

    Invoice, credit note and receipt numbers come first; an order number only counts where
    none of those is printed (on an invoice it is the customer's reference).
    """
    # a misread invoice-number label still names the document's own number, which an order number does not
    found = (_labelled_number(lines, (labels.INVOICE_NUMBER,)) or _misread_compound_label(lines)
             or _labelled_number(lines, (labels.ORDER_NUMBER,)))
    if found is not None:
        return found
    # the label misread ("Invoice No." as "Invoice", "Rechnung Nr." as "Rechnung NT-."): a document-type
    # word followed closely by an identifier with several digits, with less confidence
    for position, line in enumerate(lines):
        for match in labels.DOCUMENT_WORD.finditer(line.text):
            if _CITED_BEFORE.search(line.text[:match.start()]):
                continue  # "Gutschrift zur Rechnung 144726" cites another document's number
            rest = _joined_prefix(line.text[match.end():])
            leftover = _LEFTOVER.match(rest)
            value = _loose_identifier(rest) or (_loose_identifier(rest[leftover.end():]) if leftover else None)
            if value is not None:
                return FieldValue(value, _FALLBACK * line.confidence)
            if _date_labels(line):  # a row of captions ("Invoice  Issue date ..."): the value heads its column
                for text, below in text_below(lines, position, match.start(), match.end(), max_lines=1):
                    value = _loose_identifier(text.split()[0])
                    if value is not None:
                        return FieldValue(value, _FALLBACK * below.confidence)
    return _misread_number_label(lines) or _self_named_number(lines) or _MISSING


#: a number whose own prefix names it an invoice's ("INV0032002", "INV-039896", "INV-2024-30523"), whatever
#: became of its label
_INVOICE_PREFIXED = re.compile(r"^INV-?\d{4,}(?:-\d{3,})?$")


def _self_named_number(lines: Sequence[TextLine]) -> FieldValue | None:
    """The first word of the first page shaped like an invoice number with the prefix INV, where OCR lost
    its label; not one another document cites ("Correction of invoice INV0012345")."""
    for line in lines:
        if line.page_number != lines[0].page_number:
            break
        for start, word in zip(line.word_starts(), line.words, strict=True):
            value = _zeros_repaired(word.text.strip(".,;:()[]'\"‘’“”"))
            before = labels.DOCUMENT_WORD.sub("", line.text[:start]).rstrip()  # "of invoice INV..." cites
            if _INVOICE_PREFIXED.match(value) and not _CITED_BEFORE.search(before):
                return FieldValue(value, _FALLBACK * line.confidence)
    return None


#: one-word number labels long enough that a word one character away from them is no other word
_COMPOUND_NUMBER_LABELS = ("rechnungsnummer", "gutschriftsnummer", "gutschriftnummer", "factuurnummer",
                           "creditnotanummer", "belegnummer", "quittungsnummer", "bonnummer")
_AROUND_A_WORD = re.compile(r"^[\W_]+|[\W_]+$")
#: a number sign after words OCR cut to a few letters ("& I nes #: INV0032048" for "Invoice #: INV0032048");
#: a whole word before it ("Account #:") names another number
_CUT_LABEL_NUMBER_SIGN = re.compile(r"(?:^|(?<=\s))(?:[^\w\s]{0,2}[^\W\d_]{0,3}\s+){1,3}#\s*:?\s*")


def _misread_compound_label(lines: Sequence[TextLine]) -> FieldValue | None:
    """A document number after a one-word label OCR misread by one letter ("Outschriftsnummer:",
    "reditnotanummer:"), with fallback confidence; the label is long enough to name no other number."""
    for line in lines:
        words = line.text.split()
        for position, word in enumerate(words[:-1]):
            label = _AROUND_A_WORD.sub("", word).lower()
            if len(label) >= 9 and any(one_edit_apart(label, known) for known in _COMPOUND_NUMBER_LABELS):
                value = _identifier(" ".join(words[position + 1:]))
                if value is not None:
                    return FieldValue(value, _FALLBACK * line.confidence)
    return None


def _misread_number_label(lines: Sequence[TextLine]) -> FieldValue | None:
    """A document number after a label OCR cut short ("& I nes #:"); with fallback confidence, and only
    identifiers with letters or separators besides four digits."""
    for line in lines:
        cut = _CUT_LABEL_NUMBER_SIGN.search(line.text)
        if cut is not None:
            value = _loose_identifier(line.text[cut.end():])
            if value is not None and not value.isdigit():
                return FieldValue(value, _FALLBACK * line.confidence)
    return None


#: up to two short words without digits (a misread "No."), then an identifier with at least three digits
_LOOSE_NUMBER = re.compile(r"^[\W_]*(?:[^\W\d_]{1,3}[^\w\s]*\s+[\W_]*){0,2}([A-Za-z]{0,4}[-/.]?\d[\w\-/.]*)")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_CITED_BEFORE = re.compile(r"\b(?:zur|zu|(?<!bill )(?<!invoice )(?<!ship )to|for|of|on|against|re|your|ihre?|votre|"
                           r"sur|op|bij|uw|auf)\W*$", re.IGNORECASE)  # "Bill to"/"Invoice to" head an address


def _loose_identifier(text: str) -> str | None:
    match = _LOOSE_NUMBER.match(text)
    if match is None:
        return None
    value = _zeros_repaired(match.group(1).rstrip("._-/"))
    if sum(ch.isdigit() for ch in value) < 4 or _YEAR.match(value) or find_dates(value):
        return None
    return value


def _labelled_number(lines: Sequence[TextLine], patterns: Sequence[re.Pattern[str]]) -> FieldValue | None:
    for pattern in patterns:
        found = _number_beside_or_below(lines, pattern) or _number_above(lines, pattern)
        if found is not None:
            return found
    return None


def _number_beside_or_below(lines: Sequence[TextLine], pattern: re.Pattern[str]) -> FieldValue | None:
    for position, line in enumerate(lines):
        for match in _every_match(pattern, line.text):
            after = _text_after(line, match.end())
            value = _identifier(after)
            if value is not None:
                return FieldValue(value, _LABELLED_SAME_LINE * line.confidence)
            if not after.strip(" :;,#.-"):  # OCR reads the point of "No." as a comma or semicolon
                value = _identifier(text_right(lines, position, match.end()) or "")
                if value is not None:
                    return FieldValue(value, _LABELLED_BELOW * line.confidence)
            for text, below in text_below(lines, position, match.start(), match.end()):
                value = _identifier(text)
                if value is not None:
                    return FieldValue(value, _LABELLED_BELOW * below.confidence)
    return None


def _every_match(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """The matches of a label, also those that start inside an earlier one: the title beside "N° de facture:"
    makes "FACTURE N°" a match, whose value "de" is none, and the label is "N° de facture"."""
    start = 0
    while (match := pattern.search(text, start)) is not None:
        yield match
        start = match.start() + 1


def _value_beside(line: TextLine, end: int) -> bool:
    """Whether the label ending at ``end`` has text after it in its own segment (the next block on the row
    is another label's)."""
    starts = line.word_starts()
    following = [w for w, start in zip(line.words, starts, strict=True) if start >= end]
    label = [w for w, start in zip(line.words, starts, strict=True) if start < end]
    if not following or not label:
        return False
    gap = following[0].x0 - label[-1].x1
    return bool(line.text[end:].strip(" :#.-")) and gap <= 2.5 * line.char_width()


def _number_above(lines: Sequence[TextLine], pattern: re.Pattern[str]) -> FieldValue | None:
    """A value printed over its label (a caption under its box), where no label of this kind has one
    beside or below it: one word alone in the label's column on the line right above."""
    for position, line in enumerate(lines):
        for match in pattern.finditer(line.text):
            if _value_beside(line, match.end()):
                continue
            for text, above in text_above(lines, position, match.start(), match.end(), max_lines=1):
                value = _identifier(text)
                if value is not None and len(text.split()) == 1:
                    return FieldValue(value, _FALLBACK * above.confidence)
    return None


# -- dates -----------------------------------------------------------------------------------------------

def _dates(text: str) -> list[DateMatch]:
    """The dates in ``text``, each with the digits OCR split off it joined back (see normalise.rejoined)."""
    return [rejoined(text, match) for match in find_dates(text)]


def _date_labels(line: TextLine) -> list[tuple[int, int, str]]:
    """Date labels on a line as (start, end, kind); a label inside a longer one is dropped."""
    found = [(m.start(), m.end(), kind) for kind, pattern in labels.DATE_LABELS
             for m in pattern.finditer(line.text)]
    found.sort(key=lambda f: (f[0], -(f[1] - f[0])))
    kept: list[tuple[int, int, str]] = []
    for start, end, kind in found:
        if kept and start < kept[-1][1]:
            continue
        kept.append((start, end, kind))
    return kept


def find_labelled_dates(context: DocumentContext) -> dict[str, FieldValue]:
    """Issue and due dates by their labels; else the first unlabelled date is the issue date."""
    values: dict[str, FieldValue] = {}
    claimed: set[tuple[int, int]] = set()  # (line position, date start) already read for some label
    lines = context.lines
    for position, line in enumerate(lines):
        line_labels = _date_labels(line)
        for i, (start, end, kind) in enumerate(line_labels):
            next_start = line_labels[i + 1][0] if i + 1 < len(line_labels) else len(line.text)
            dates = [d for d in _dates(line.text) if end <= d.start < next_start]
            if dates:
                claimed.add((position, dates[0].start))
                if kind not in values:
                    values[kind] = _date_value(dates[0], context, _LABELLED_SAME_LINE * line.confidence)
                continue
            if not line.text[end:next_start].strip(" :.-"):
                right = _dates(text_right(lines, position, end) or "")
                if right:
                    if kind not in values:
                        values[kind] = _date_value(right[0], context, _LABELLED_BELOW * line.confidence)
                    continue
            for text, below in text_below(lines, position, start, end):
                below_dates = _dates(text)
                if below_dates:
                    # only the date under this label: the row's others belong to the labels beside it, one
                    # of which OCR may have lost ("Dat um" over the issue date)
                    claimed.update((lines.index(below), d.start) for d in _dates(below.text)
                                   if below.text[d.start:d.end] == text[below_dates[0].start:below_dates[0].end])
                    if kind not in values:
                        values[kind] = _date_value(below_dates[0], context, _LABELLED_BELOW * below.confidence)
                    break
    if "issue_date" not in values:
        fallback = _unlabelled_date(context, claimed)
        # a till's timestamp, misread, is surer evidence of the sale's date than a product code's digits
        misread = _misread_date(context) if fallback is None or fallback[2] else None
        if misread is not None and (fallback is None or _stamped_with_time(*misread)):
            match, line = misread
            values["issue_date"] = _date_value(match, context, _MISREAD * line.confidence)
        elif fallback is not None:
            match, line, _ = fallback
            sure = _LABELLED_BELOW if _stamped_with_time(match, line) else _FALLBACK
            values["issue_date"] = _date_value(match, context, sure * line.confidence)
    values.pop("other_date", None)
    if "due_date" not in values and values.get("issue_date") is not None and values["issue_date"].value:
        due = _due_by_terms(values["issue_date"], context)
        if due is not None:
            values["due_date"] = due
    return values


#: payment terms in days ("Payment terms: 30 days net", "Zahlbar innerhalb von 14 Tagen", "Paiement à 45 jours",
#: "Betaling binnen 30 dagen"): a payment word, then the number of days on the same line
_PAYMENT_TERMS = re.compile(r"\b(?:pay\w*|terms|net|zahl\w*|paiement|r[èe]glement|betal\w*)\b[^\n]{0,40}?"
                            r"(?<![\d.,])(\d{1,3})\s*(?:days?|tagen?|jours?|dagen)\b", re.IGNORECASE)


def _due_by_terms(issue: FieldValue, context: DocumentContext) -> FieldValue | None:
    """The due date the payment terms give where none is printed: the issue date and the days they allow.
    As sure as a labelled value below its label, and no surer than the issue date it counts from: a clean
    invoice that states only its terms is not sent for review for it."""
    for line in context.lines:
        match = _PAYMENT_TERMS.search(line.text)
        if match is not None:
            due = date.fromisoformat(issue.value) + timedelta(days=int(match.group(1)))
            return FieldValue(due.isoformat(), _LABELLED_BELOW * min(issue.confidence, line.confidence))
    return None


def _misread_date(context: DocumentContext) -> tuple[DateMatch, TextLine] | None:
    """An issue date OCR misread (see find_misread_dates): first one after an issue-date label, then any."""
    for line in context.lines:
        for _, end, kind in _date_labels(line):
            found = find_misread_dates(line.text[end:], after_label=True) if kind == "issue_date" else []
            if found:
                return found[0], line
    for line in context.lines:
        found = find_misread_dates(line.text)
        if found:
            return found[0], line
    return None


_TIME = re.compile(r"(?<!\d)\d{1,2}:\d{2}(?::\d{2})?(?!\d)")
_CODE_BEFORE = re.compile(r"[A-Za-z]{1,4}[\s-]?$")


def _stamped_with_time(match: DateMatch, line: TextLine) -> bool:
    """Whether a time of day follows the date on its line ("19-09-17 15:39"): a till's record of the sale
    itself."""
    return bool(_TIME.search(line.text[match.end:]))


def _unlabelled_date(context: DocumentContext,
                     claimed: set[tuple[int, int]]) -> tuple[DateMatch, TextLine, bool] | None:
    """The issue date where no label names one: the first plausible date of the document, its line, and
    whether it is no more than a product code's digits.

    A date printed with a time of day (a till receipt's timestamp) is the best evidence; one that
    only reads in the order the rest of the document contradicts, or that follows letters as part
    of a product code ("CK 11-22-31"), is the weakest. A code carries no time of day after it: a
    timestamp after a word ("Entry Time 16/04/2018 (Mon) 8:21") is no code. Ties go to the first
    date printed.
    """
    best: tuple[int, DateMatch, TextLine, bool] | None = None
    for position, line in enumerate(context.lines):
        for match in _dates(line.text):
            if (position, match.start) in claimed:
                continue
            preferred = match.day_first if context.date_order == "dmy" else match.month_first
            code = (_CODE_BEFORE.search(line.text[:match.start]) and match.day_first != match.month_first
                    and not _stamped_with_time(match, line))
            score = 2 * bool(_TIME.search(line.text)) + (preferred is not None) - 2 * bool(code)
            if best is None or score > best[0]:
                best = (score, match, line, bool(code))
    return best[1:] if best is not None else None


def _date_value(match: DateMatch, context: DocumentContext, confidence: float) -> FieldValue:
    resolved = match.resolve(context.date_order)
    if resolved is None:
        return _MISSING
    if match.misread:  # a digit lost, added or split off: the date read may not be the date printed
        confidence = min(confidence, _MISREAD)
    # an ambiguous date resolved by document-level evidence is less certain than an unambiguous one
    return FieldValue(resolved.isoformat(), confidence * (0.9 if match.ambiguous else 1.0))


# -- amounts ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _AmountCandidate:
    role: str
    priority: int
    position: int
    value: Decimal
    confidence: float


def _money_right_of(numbers: Sequence[NumberToken], x: float) -> NumberToken | None:
    """The rightmost money amount right of ``x`` (amounts stand in the rightmost column)."""
    right = [n for n in numbers if n.x0 > x]
    with_fraction = [n for n in right if n.has_fraction]
    if with_fraction:
        return with_fraction[-1]
    return None


def find_amounts(context: DocumentContext, doc_type: str | None = None) -> dict[str, FieldValue]:
    """Subtotal, tax and total from labelled lines, cross-checked by subtotal + tax = total."""
    candidates: list[_AmountCandidate] = []
    payment_positions: list[int] = []
    for position, line in enumerate(context.lines):
        if labels.PAYMENT.search(line.text):
            payment_positions.append(position)
        role = labels.amount_role(line.text)
        if role is None:
            continue
        label = _label_match(line.text, role[0])
        # a label can swallow the start of its value ("TOTAL RM" in "TOTAL RM7.00"): measure from its start
        label_x = min((w.x0 for w in line.words_in_span(label.start(), label.end())), default=line.x0) \
            if label else line.x0
        token = _money_right_of(find_numbers(line, context.decimal_separator), label_x)
        if token is not None:
            candidates.append(_AmountCandidate(role[0], role[1], position, token.value, line.confidence))
        elif line.scanned:
            # a label with no amount OCR could read: the amount it ends with, its misread characters read
            # back, for a person to confirm
            misread = misread_amount(line.text[label.end() if label else 0:])
            if misread is not None:
                candidates.append(_AmountCandidate(role[0], role[1], position, misread,
                                                   min(line.confidence, _MISREAD)))
    chosen: dict[str, FieldValue] = {}
    added_tax = False
    for role in ("subtotal_amount", "tax_amount"):
        own = sorted((c for c in candidates if c.role == role), key=lambda c: (-c.priority, c.position))
        if own:
            # the first subtotal/tax printed is the document's; later ones are summaries by rate
            chosen[role] = FieldValue(format_amount(own[0].value), _LABELLED_SAME_LINE * own[0].confidence)
            added_tax = role == "tax_amount" and doc_type != "receipt" and _added_to_subtotal(own[0], context)
    totals = [c for c in candidates if c.role == "total_amount"]
    if totals:
        # totals printed after the payment lines (cash, change) are tax summaries, not the amount paid
        first_total = totals[0].position
        boundary = next((p for p in payment_positions if p > first_total), len(context.lines))
        totals = [c for c in totals if c.position < boundary]
    total = _choose_total(totals, chosen, context, added_tax=added_tax)
    if total is None:
        total = _total_around_tax(candidates, chosen, context)
    if total is None and not candidates:
        total = _unlabelled_totals_block(chosen, context)
    if total is not None:
        first_amount = min((c.position for c in candidates), default=len(context.lines))
        chosen["total_amount"] = _repair_misread_total(total, totals, chosen, first_amount, context)
        if "tax_amount" not in chosen and "subtotal_amount" in chosen:
            tax = _tax_between(chosen["subtotal_amount"], chosen["total_amount"], first_amount, context)
            if tax is not None:
                chosen["tax_amount"] = tax
        if "subtotal_amount" not in chosen and added_tax:
            subtotal = _unreadable_part("subtotal_amount", chosen, candidates, context)
            if subtotal is not None:
                chosen["subtotal_amount"] = subtotal
        if "tax_amount" not in chosen and doc_type != "receipt":
            tax = _unreadable_part("tax_amount", chosen, candidates, context)
            if tax is not None:
                chosen["tax_amount"] = tax
        if not _prints_adjustment(context):
            _repair_misread_part(chosen)
        _credit_signs(chosen)
    return chosen


def _repair_misread_part(chosen: dict[str, FieldValue]) -> None:
    """The subtotal or the tax read back where OCR misread one character of it, so that subtotal + tax =
    total again ("445.46" for 145.46 over a subtotal of 2078.06 and a total of 2223.52; "64.48" that lost
    its minus). Only where one of the two alone can be the misread one: where either could be ("2235.30"
    for 22235.30, or 105882.36 for 125882.36), both stay as read."""
    parts = [chosen.get(name) for name in ("subtotal_amount", "tax_amount", "total_amount")]
    if any(part is None or not part.value for part in parts):
        return
    subtotal, tax, total = (Decimal(part.value) for part in parts)  # type: ignore[union-attr, arg-type]
    if abs(subtotal + tax - total) <= _ROUNDING_STEP:
        return
    # each part as read, and as the other two make it (of the total's sign)
    readings = {"subtotal_amount": (subtotal, total - tax), "tax_amount": (tax, total - subtotal)}
    misread = [name for name, (read, made) in readings.items()
               if made * total >= 0 and amounts_one_edit_apart(made, read)]
    if len(misread) == 1:
        name = misread[0]
        chosen[name] = FieldValue(format_amount(readings[name][1]), min(chosen[name].confidence, _MISREAD))


def _credit_signs(chosen: dict[str, FieldValue]) -> None:
    """A credit's subtotal and tax take its negative total's sign where OCR lost theirs: "-4,956.21" under
    "4,552.20" and "404.01" that add up to it."""
    total, subtotal = chosen.get("total_amount"), chosen.get("subtotal_amount")
    if total is None or subtotal is None or not total.value or not subtotal.value:
        return
    tax = chosen.get("tax_amount")
    parts = [subtotal] + ([tax] if tax is not None and tax.value else [])
    values = [Decimal(part.value) for part in parts]
    if Decimal(total.value) < 0 and all(value >= 0 for value in values) \
            and abs(sum(values) + Decimal(total.value)) <= _ROUNDING_STEP:
        for name, part in zip(("subtotal_amount", "tax_amount"), parts):
            chosen[name] = FieldValue(format_amount(-Decimal(part.value)), part.confidence)


def _unreadable_part(role: str, chosen: dict[str, FieldValue], candidates: Sequence[_AmountCandidate],
                     context: DocumentContext) -> FieldValue | None:
    """The subtotal or the tax where its label is printed but OCR garbled its amount ("Total HT 29905",
    "Sous-total 39"351;67", "TVA (21%) 348747", "VAT @ 23% EUR 9,090:91"): the total less the other part,
    at fallback confidence, so that a person confirms it. Only for a tax added to the subtotal (the
    caller checks a read tax; a tax label here must not say the tax is included), with the label where the
    totals block prints it, and not where another charge, a discount or a rounding stands between the first
    of the two and the last total (the difference would include it)."""
    total = chosen.get("total_amount")
    other = chosen.get("tax_amount" if role == "subtotal_amount" else "subtotal_amount")
    if total is None or other is None or not total.value or not other.value:
        return None
    last_total = max((c.position for c in candidates if c.role == "total_amount"), default=None)
    other_at = min((c.position for c in candidates if c.role != role and c.role != "total_amount"), default=None)
    if last_total is None or other_at is None:
        return None
    # in the totals block: a subtotal's line right above the tax's, a tax's between the subtotal and the
    # total (a table header's "TVA" or "Subtotal" column is no such line)
    window = range(max(0, other_at - 2), other_at) if role == "subtotal_amount" else range(other_at + 1, last_total)
    label = next((p for p in window if _labels_part(context.lines[p].text, role)), None)
    if label is None:
        return None
    if any(labels.OTHER_CHARGE.search(line.text) or labels.AMOUNT_EXCLUDED.search(line.text)
           for line in context.lines[min(label, other_at) + 1:last_total]):
        return None
    difference = Decimal(total.value) - Decimal(other.value)
    # a tax is less than the total; a subtotal may equal it (a tax of 0.00), never exceed it by a unit
    ceiling = Decimal(total.value) + (1 if role == "subtotal_amount" else 0)
    if not 0 < difference < ceiling:
        return None
    return FieldValue(format_amount(difference), _FALLBACK * context.lines[label].confidence)


def _labels_part(text: str, role: str) -> bool:
    """Whether a line is labelled as ``role`` (subtotal or a tax added to it, not one included)."""
    found = labels.amount_role(text)
    if role == "subtotal_amount":
        return found is not None and found[0] == role
    return found == ("tax_amount", 2) and not _INCLUDED.search(text)


def _tax_between(subtotal: FieldValue, total: FieldValue, first_amount: int,
                 context: DocumentContext) -> FieldValue | None:
    """The tax where OCR lost its label but not its amount: total less subtotal, printed on a line of the
    totals block that no label makes another charge, a rounding, a discount or a payment ("ee es GBP 179.08"
    between "Subtotal ... 895.39" and "Total ... 1074.47")."""
    if not subtotal.value or not total.value:
        return None
    difference = Decimal(total.value) - Decimal(subtotal.value)
    if not 0 < difference < Decimal(total.value):
        return None
    for line in context.lines[first_amount:]:
        role = labels.amount_role(line.text)
        other = labels.AMOUNT_EXCLUDED.search(line.text) or labels.PAYMENT.search(line.text) \
            or labels.OTHER_CHARGE.search(line.text)
        if (role is None or role[0] == "tax_amount") and not other \
                and any(n.value == difference for n in _money(line, context)):
            return FieldValue(format_amount(difference), _FALLBACK * line.confidence)
    return None


def _repair_misread_total(total: FieldValue, totals: Sequence[_AmountCandidate], chosen: dict[str, FieldValue],
                          first_amount: int, context: DocumentContext) -> FieldValue:
    """The total a receipt's other readings agree on, where OCR misread one digit of the chosen one.

    A receipt states its total several ways: the item amount, subtotal (+ tax), total, rounded
    total, cash tendered less change. When the chosen total agrees with none of them, even within
    rounding, but an amount one character from it is what two of the others say, all of them
    misread a different digit ("Total 91.00", "Rounded Total 9.60" and the item's "9.00" for 9.00).
    Failing that, cash tendered less change is taken where another statement prints it exactly.
    A total that any other reading corroborates is kept.
    """
    value = Decimal(total.value)
    readings = [c.value for c in totals]
    subtotal, tax = chosen.get("subtotal_amount"), chosen.get("tax_amount")
    if subtotal is not None and subtotal.value:
        readings.append(Decimal(subtotal.value))
    if value in readings:
        readings.remove(value)  # the chosen total's own line
    # net + tax = total within rounding ("Total Sales 33.00", "GST 1.98", "Rounding 0.02", "TOTAL 35.00")
    with_tax = [r + Decimal(tax.value) for r in readings] if tax is not None and tax.value else []
    paid = _tendered_less_change(context, first_amount)
    sums = with_tax + ([paid] if paid is not None else [])
    above = [_money(line, context) for line in context.lines[:first_amount]]  # the items' lines
    printed = {n.value for money in above for n in money}
    if value in printed or any(abs(value - r) <= _ROUNDING_STEP for r in readings + sums):
        return total
    statements = readings + sums

    def support(amount: Decimal) -> int:  # the statements of the total within one character, and the items
        return sum(1 for s in statements if s == amount or amounts_one_edit_apart(s, amount)) \
            + (amount in printed)

    agreed = {v for v in {*statements, *printed} if v != value and amounts_one_edit_apart(v, value)
              and any(s == v or amounts_one_edit_apart(s, v) for s in statements) and support(v) >= 2}
    if len(agreed) == 1:
        return FieldValue(format_amount(agreed.pop()), min(total.confidence, _MISREAD))
    # misread beyond one character ("TOTAL 23.70" for 28.90): what was paid, where another statement of the
    # total prints the same amount ("SUB-TOTAL 27.27" + "GST 1.63", "CASH 30.00" less "CHANGE 1.10")
    if paid is not None and paid > 0 and paid in readings + with_tax:
        return FieldValue(format_amount(paid), min(total.confidence, _MISREAD))
    # what was paid, one character from a total that nothing corroborates, not even the items' amounts: two
    # amounts that make it by no chance ("TOTAL 75.90", "CASH 50.00" less "CHANGE 34.10"). Not net plus tax:
    # either of those may be the misread one (see _repair_misread_part)
    items = sum((money[-1].value for money in above if money), Decimal(0))  # each printed last on its line
    if paid is not None and paid > 0 and amounts_one_edit_apart(paid, value) and items != value:
        return FieldValue(format_amount(paid), min(total.confidence, _MISREAD))
    return total


def _tendered_less_change(context: DocumentContext, first_amount: int) -> Decimal | None:
    """Cash tendered less the change given, from the payment lines under the totals: the amount paid."""
    tendered = change = None
    for line in context.lines[first_amount:]:
        money = [n.value for n in _money(line, context)]
        if not money:
            continue
        if change is None and tendered is not None and labels.CHANGE.search(line.text):
            change = money[-1]
        elif tendered is None and labels.TENDERED.search(line.text):
            tendered = money[-1]
    if tendered is None or change is None or change > tendered:
        return None
    return tendered - change


def _label_match(text: str, role: str) -> re.Match[str] | None:
    patterns = {"subtotal_amount": (labels.SUBTOTAL,), "tax_amount": (labels.TAX,),
                "total_amount": (labels.TOTAL_STRONG, labels.TOTAL_PLAIN)}[role]
    for pattern in patterns:
        match = pattern.search(text)
        if match is not None:
            return match
    return None


def _added_to_subtotal(tax: _AmountCandidate, context: DocumentContext) -> bool:
    """Whether a tax line adds its tax to the subtotal ("Tax 7% 1,475.90"), not one that states the tax
    the subtotal already includes ("GST @ 6% included in total 0.34", "incl. 19 % MwSt."). A till receipt's
    prices include their tax, whether it says so or not (SROIE 388: "Total 96.20" over "GST 5.45"), so
    find_amounts asks this of other documents only."""
    return tax.priority >= 2 and not _INCLUDED.search(context.lines[tax.position].text)


_INCLUDED = re.compile(r"\bincl|\binklusive\b|\binbegrepen\b|\bcompris\b", re.IGNORECASE)


def _choose_total(totals: Sequence[_AmountCandidate], chosen: dict[str, FieldValue],
                  context: DocumentContext, *, added_tax: bool) -> FieldValue | None:
    """The grand total: one that equals subtotal + tax if any; else the last total printed.

    Receipts print several totals (before rounding, rounded); the last one before payment is
    what was paid. Without a labelled total, an amount equal to subtotal + tax is the total;
    where no line prints it (OCR lost the total's line, often set white on a dark bar), subtotal +
    a tax added to it is.
    """
    subtotal, tax = chosen.get("subtotal_amount"), chosen.get("tax_amount")
    expected = (Decimal(subtotal.value) + Decimal(tax.value)
                if subtotal is not None and tax is not None and subtotal.value and tax.value else None)
    if expected is not None:
        matching = [c for c in totals if c.value == expected]
        # a "total payable" printed after a total that only sums one tax rate's supplies is the total
        later = [c for c in totals if matching and c.position > matching[-1].position and c.priority >= 3
                 and c.value > matching[-1].value]
        if matching and not later:
            return FieldValue(format_amount(matching[-1].value), _LABELLED_SAME_LINE * matching[-1].confidence)
    if totals:
        last = totals[-1]
        confidence = _LABELLED_SAME_LINE if last.priority >= 3 else 0.8
        return FieldValue(format_amount(last.value), confidence * last.confidence)
    if expected is not None:
        for line in context.lines:
            if any(n.value == expected for n in _money(line, context)):
                return FieldValue(format_amount(expected), _FALLBACK * line.confidence)
    summary = _tax_summary_total(context)
    if summary is not None:
        return summary
    if expected is not None and added_tax:
        return FieldValue(format_amount(expected), _FALLBACK * min(subtotal.confidence, tax.confidence))
    if subtotal is not None:  # a receipt that prints only a "subtotal" (tax included) was paid that
        return FieldValue(subtotal.value, _FALLBACK * subtotal.confidence)
    return None


def _total_around_tax(candidates: Sequence[_AmountCandidate], chosen: dict[str, FieldValue],
                      context: DocumentContext) -> FieldValue | None:
    """Subtotal + tax = total on the lines around a labelled tax line whose neighbours' labels OCR lost
    ("Gous-totdl 11.057,69 / TVA (6%) 663,46 / Net à PAyOr 11.721,15"): the arithmetic names them.

    Fills the subtotal too when its label was unreadable. Only the nearest amount line above and below
    the first tax line count, so line items (whose sums are no neighbours of a tax line) cannot match.
    """
    tax = next((c for c in candidates if c.role == "tax_amount"), None)
    if tax is None:
        return None
    above = _line_amount(context, range(tax.position - 1, max(-1, tax.position - 3), -1))
    below = _line_amount(context, range(tax.position + 1, min(len(context.lines), tax.position + 3)))
    if above is None or below is None or above[0] + tax.value != below[0] or above[0] <= tax.value:
        return None
    if "subtotal_amount" not in chosen:
        chosen["subtotal_amount"] = FieldValue(format_amount(above[0]), _FALLBACK * above[1])
    return FieldValue(format_amount(below[0]), _FALLBACK * below[1])


def _unlabelled_totals_block(chosen: dict[str, FieldValue], context: DocumentContext) -> FieldValue | None:
    """Where OCR lost every amount label, the last three amount lines in a row that read
    subtotal + tax = total ("ee GBP 895.39 / ee GBP 179.08 / eo GBP 1074.47"). The last such run,
    because items summing to the subtotal form an earlier one (555.39 + 340.00 = 895.39)."""
    ends = [_line_amount(context, (position,)) for position in range(len(context.lines))]
    found = None
    for first, second, third in zip(ends, ends[1:], ends[2:], strict=False):
        if first and second and third and first[0] + second[0] == third[0] and second[0] < first[0]:
            found = (first, second, third)
    if found is None:
        return None
    (subtotal, subtotal_confidence), (tax, tax_confidence), (total, total_confidence) = found
    chosen["subtotal_amount"] = FieldValue(format_amount(subtotal), _FALLBACK * subtotal_confidence)
    chosen["tax_amount"] = FieldValue(format_amount(tax), _FALLBACK * tax_confidence)
    return FieldValue(format_amount(total), _FALLBACK * total_confidence)


def _money(line: TextLine, context: DocumentContext) -> list[NumberToken]:
    """A line's amounts of money: its numbers printed with decimals."""
    return [n for n in find_numbers(line, context.decimal_separator) if n.has_fraction]


def _line_amount(context: DocumentContext, positions: Iterable[int]) -> tuple[Decimal, float] | None:
    """The money amount ending the first of these lines that ends with one."""
    for position in positions:
        line = context.lines[position]
        money = _money(line, context)
        if money:
            return money[-1].value, line.confidence
    return None


def _tax_summary_total(context: DocumentContext) -> FieldValue | None:
    """The gross of a tax summary row ("SR 6 7,395.09 443.71 7,838.80": net + tax = gross), where no
    labelled total could be read; the last such row, as a summary by rate ends with its total."""
    found = None
    for line in context.lines:
        money = [n.value for n in _money(line, context)]
        if len(money) >= 3 and money[-3] + money[-2] == money[-1] and money[-2] < money[-3]:
            found = FieldValue(format_amount(money[-1]), _FALLBACK * line.confidence)
    return found


# -- vendor ----------------------------------------------------------------------------------------------

_TITLE_ONLY = re.compile(
    r"^\W*(?:(?:tax|commercial|pro[\s-]?forma|simplified|official|cash|sales)?\s*"
    r"(?:invoice|receipt|bill|credit\s*note|purchase\s*order|rechnung|gutschrift|facture|avoir|factuur|"
    r"creditnota|quittung|re[çc]u|credit\s*memo|rechnungskorrektur|bestellung|bestelling|bon\s*de\s*commande|"
    r"inkooporder|bestelbon|note\s*de\s*cr[ée]dit|creditfactuur)s?|cash\s*bill)\W*$",
    re.IGNORECASE)
#: a company registration number ("(860671-D)", "002043319-W", "ROC NO. : (1072825-A)", "CO-REG:860671-D")
_REGISTRATION = re.compile(r"[(\[]?\s*\b[A-Z]{0,2}\d{5,12}\s?-?\s?[A-Z]\b\s*[)\]]?", re.IGNORECASE)
#: a line that only holds one, also as OCR reads it: a space inside the digits, "~" for the hyphen
#: ("7891 7-W" for 789417-W, "1118256~K")
_REGISTRATION_LINE = re.compile(r"^[\W]*(?:(?:co|company|roc|reg|business)[\s.-]*(?:reg|no|rfg)?[\s.:-]*(?:no)?[\s.:]*)?"
                                r"[(\[]?\s*[A-Z]{0,2}\d(?:\s?\d){4,11}\s?[-~]?\s?[A-Z]?\s*[)\]]?\W*$", re.IGNORECASE)
#: the Dutch legal form "V.O.F." with its O read as a zero ("V 0 F", "V.0.F.")
_VOF_MISREAD = re.compile(r"\b(V)([\s.]{0,2})0([\s.]{0,2})(F)(?!\w)")
#: ... or, set small on its own line under the name, as "vor." (points lost, the F read as r)
_VOF_AS_VOR = re.compile(r"(?:^|(?<=\s))vor\.$", re.IGNORECASE)
#: OCR misreadings of the Malaysian legal form "SDN BHD" ("SIN BHD", "SON BHD", "SOM BHT", "SEN BHD", "SDN BHO",
#: "SDN BND", "SDN 8HD")
_SDN_BHD_MISREAD = re.compile(r"\bS[DO0IE][NM]\.?\s?[B8][HN][DO0T]\b(?![\w.])", re.IGNORECASE)
#: a yen sign inside a word or an initialism ("MR.D.I.¥(M)") is an OCR misreading of Y
_YEN_FOR_Y = re.compile(r"(?<=[A-Za-z.])¥|¥(?=[A-Za-z.])")
#: a one or a zero between the single letters of an initialism is an OCR misreading of I or O ("MR.D.1.Y")
_DIGIT_IN_INITIALISM = re.compile(r"(?<=\b[A-Za-z][.\s])[01](?=[.\s][A-Za-z](?![a-z]))")
_LETTERS = re.compile(r"[^\W\d_]")
#: a short word in parentheses is a unit or a note ("Koffiebonen (kg)"), never a legal form ("KG")
_UNIT_IN_PARENTHESES = re.compile(r"\(\s*[^\W\d_]{1,3}\.?\s*\)")
_PHONE_ONLY = re.compile(r"^\W*\+?\d[\d\s()/.-]{6,}\W*$")


def _is_name_like(line: TextLine) -> bool:
    text = _without_registration(line.text)
    letters = len(_LETTERS.findall(text))
    return (letters >= 3 and letters >= 0.5 * len(text.replace(" ", "")) and not _TITLE_ONLY.match(text)
            and not labels.CONTACT.search(text) and not labels.INVOICE_NUMBER.search(text)
            and not find_dates(text) and not find_misread_dates(text)  # nor one OCR misread ("19/07 2024")
            and not labels.CUSTOMER_BLOCK.search(text) and not labels.PAGE_NUMBER.search(text)
            and not _is_field_label(text))


def _is_field_label(text: str) -> bool:
    """A short segment that names a field ("Invoice Date", "Datum:", "Date de facture"), or names one and
    gives its value ("Account No 95624", "Kunden-Nr. C70562", "PO Ref ORD-465219")."""
    if text.rstrip().endswith(":"):
        return True
    return len(text.split()) <= 3 and (any(pattern.search(text) for _, pattern in labels.DATE_LABELS)
                                       or _DATE_COMPOUND.search(text) is not None
                                       or labels.CUSTOMER_REFERENCE.search(text) is not None
                                       or labels.ACCOUNT_REFERENCE.search(text) is not None
                                       or labels.ORDER_NUMBER.search(text) is not None
                                       or labels.REFERENCE_FIELD.search(text) is not None)


#: a German or Dutch compound naming a date ("Pactuurdatum" as OCR reads Factuurdatum, "Lieferdatum")
_DATE_COMPOUND = re.compile(r"[^\W\d_]{3,}datum\b", re.IGNORECASE)


def _customer_block(segments: Sequence[TextLine], doc_type: str | None = None) -> set[int]:
    """Positions of the segments in and under a "Bill to"/"Kunde"/... label, in the label's column.

    On a purchase order the "Supplier" block is the addressee's, so it is blocked too.
    """
    blocked: set[int] = set()
    for position, segment in enumerate(segments):
        # a speck read as a label ("an" for a smudge over a receipt's logo) heads nobody's block
        label = " ".join(word.text for word in segment.words if not is_speck(word))
        heads_customer = labels.CUSTOMER_BLOCK.search(label) is not None and \
            labels.CUSTOMER_REFERENCE.search(label) is None
        if not heads_customer and not (doc_type == "purchase_order" and labels.SUPPLIER_BLOCK.search(label)):
            continue
        blocked.add(position)
        left, right = segment.x0 - 2 * segment.char_width(), segment.x1 + 2 * segment.char_width()
        for offset, below in enumerate(segments[position + 1:position + 40], start=position + 1):
            if below.page_number != segment.page_number or below.top - segment.bottom > 8 * segment.height:
                break
            if left <= below.x0 <= right:
                blocked.add(offset)
    return _with_rest_of_row(segments, blocked)


#: a segment this close after a blocked one on its row is more of the same name ("Hughes Electrical" "Corp.")
_NAME_GAP_CHARS = 5


def _with_rest_of_row(segments: Sequence[TextLine], blocked: set[int]) -> set[int]:
    """The blocked positions with the segments that continue them closely on their row: a customer's name
    that OCR spaced into two segments is the customer's as a whole, its legal form no vendor's. A name
    that ends with its legal form is whole: a company printed close beside it is another's ("Zimmermann
    Bürotechnik AG" / "Logistik Müller OHG")."""
    whole = set(blocked)
    for position in sorted(blocked):
        segment = segments[position]
        for following in range(position + 1, len(segments)):
            after = segments[following]
            if after.index != segment.index or after.x0 - segment.x1 > _NAME_GAP_CHARS * segment.char_width() \
                    or _complete_before(segment, after):
                break
            whole.add(following)
            segment = after
    return whole


def find_vendor(lines: Sequence[TextLine], doc_type: str | None = None) -> tuple[FieldValue, FieldValue]:
    """Vendor name and address from the head of the first page.

    Works on line segments (blocks side by side are separate), so "ACME Ltd ... INVOICE"
    yields the name alone. The name is the first name-like segment near the top, preferring
    one with a company suffix (Sdn Bhd, GmbH, Ltd, B.V. ...) or one after a "From:"/"Seller"
    label (on the label's line or below it), never one in the customer's block or the item
    table. Of several companies in the head, the one whose block carries contact details, or whose
    name the issuer's e-mail or web address spells, wins over one chosen by position alone. Where
    nothing in the head reads as a name but the page foot names a company (a layout that prints the
    vendor only in its footer), the foot's is taken. The address is the run of
    segments below the name in the same column, up to contact or registration details or its country.
    """
    if not lines:
        return _MISSING, _MISSING
    first_lines = [line for line in lines if line.page_number == lines[0].page_number]
    # a till receipt's short words read unsurely are its text (thermal print), a scanned invoice's are dust
    first_page = [segment for line in first_lines for segment in split_segments(line)]
    if doc_type != "receipt":
        first_page = _without_specks(first_page)
    table_headers = {segment.index for segment in first_page if find_header(segment) is not None} | {
        line.index for line in first_lines if find_header(line) is not None}
    blocked = _customer_block(first_page, doc_type) | {p for p, segment in enumerate(first_page)
                                                       if segment.index in table_headers}
    # the head ends where the item table starts: its rows are never the vendor ("0,5 kg ..." is no KG)
    table_start = next((p for p, segment in enumerate(first_page) if segment.index in table_headers), len(first_page))
    head = first_page[:min(20, table_start)]
    vendor_block = next((p for p, segment in enumerate(head) if labels.VENDOR_BLOCK.search(segment.text)
                         and p not in blocked), None)
    candidates = [p for p, segment in enumerate(head) if p not in blocked and _is_name_like(_name_part(segment))]
    if doc_type == "receipt":
        candidates = _without_logo_lead(head, candidates)
    labelled = _name_after_label(head[vendor_block]) if vendor_block is not None else None
    label = head[vendor_block] if labelled is not None else None
    if labelled is not None:
        first_page[vendor_block] = head[vendor_block] = labelled  # "Seller: ACME Ltd": the name alone
        candidates = [vendor_block] + [p for p in candidates if p > vendor_block]
    elif vendor_block is not None:
        candidates = [p for p in candidates if p > vendor_block] or candidates
    with_suffix = [p for p in candidates[:6]
                   if labels.COMPANY_SUFFIX.search(_UNIT_IN_PARENTHESES.sub("", _name_part(head[p]).text))]
    footer = None
    if not candidates:
        footer = _payee(first_page, blocked)
        if footer is None:
            # rows that carry money (item rows, totals) are never the foot's company line
            money_rows = {line.index for line in first_lines if any(n.has_fraction for n in find_numbers(line, None))}
            footer = _footer_name(first_page, blocked | {p for p, s in enumerate(first_page) if s.index in money_rows})
    if footer is not None:
        name_position = footer
    elif not candidates:
        return _MISSING, _MISSING
    else:
        name_position = candidates[0] if labelled is not None or not with_suffix else \
            _with_contact_details(first_page, with_suffix, candidates, blocked)
        name_position = _mark_above(head, candidates, name_position, receipt=doc_type == "receipt")
        name_position = _spelled_out_below(head, candidates, name_position)
        name_position = _name_under_tagline(head, candidates, name_position)
        name_position = _named_by_domain(first_page, candidates, name_position, blocked)
    strip = _widen_name(first_page, name_position)
    first_page[name_position] = _name_part(strip)
    name_segments = [first_page[name_position], *(_name_continuation(first_page, name_position, blocked)
                                                  or _second_display_line(first_page, name_position, blocked))]
    name_position = first_page.index(name_segments[-1])  # the address starts under the last line of the name
    # a wrapped line's pieces come apart as the first line's do ("ALAM) SDN" "BHD")
    name_segments[1:] = [_widen_name(first_page, first_page.index(segment)) for segment in name_segments[1:]]
    name_confidence = ((0.85 if with_suffix or vendor_block is not None or footer is not None else 0.7)
                       * min(segment.confidence for segment in name_segments))
    text = labels.OWNED_BY.sub("", " ".join(segment.text for segment in name_segments))
    name = FieldValue(_repair_name(_without_registration(text)), name_confidence)
    if not labels.LEGAL_FORM.search(name.value):
        name = replace(name, value=_legal_name_in_foot(first_page, name.value) or name.value)
    elif len(name_segments) > 1:
        name = replace(name, value=_in_foot_order(first_page, name.value) or name.value)
    receipt_row_rest = doc_type == "receipt" and not with_suffix and _rest_of_a_line(
        first_page, first_page.index(name_segments[0]))
    street_line = _HOUSE_NUMBER_FIRST.match(name.value) and not labels.COMPANY_SUFFIX.search(name.value)
    if receipt_row_rest or street_line or _LONG_NUMBER.search(name.value) or _cut_at_the_front(name.value):
        name = replace(name, confidence=min(name.confidence, _MISREAD))
    address = _address_below(first_page, name_position, blocked, label if name_position == vendor_block else None)
    address = _surer_address_in_foot(first_page, name.value, address, blocked) or address or _strip_address(strip)
    if not address:
        return name, _MISSING
    text = _join_address(_address_line(segment.text) for segment in address)
    confidence = 0.7 * min(segment.confidence for segment in address)
    cut_short = any(segment.scanned for segment in address) and not _POSTCODE.search(text)
    misread = _MISREAD_ADDRESS.search(text) or _cut_at_the_front(text) or cut_short
    return name, FieldValue(text, min(confidence, _MISREAD) if misread else confidence)


#: what no postal address prints, so OCR misread it ("Leeds LS! 4DY", "EH) 1YZ", "$000 Namur", "Écoles : 1201
#: Geneve", a bar at the line's edge): the address is worth a look however surely its words were read
_MISREAD_ADDRESS = re.compile(r"[!$;{}\[\]<>?~^=*_]|^[^(]*\)|\s:\s|^\W*\||\|\W*$")


#: four digits or more in a row: a postcode, a house or phone number ("Chicago IL 60601"), where a company's name
#: has none, so a name that holds one is an address line taken for it
_LONG_NUMBER = re.compile(r"\d{4,}")
#: a house number before a word ("20 boulevard du Moulin", "177 King Street"): how a street line starts,
#: where a company's name, unless a legal form or a business word says it is one ("99 Speed Mart"), does not
_HOUSE_NUMBER_FIRST = re.compile(r"^\d{1,4}[a-z]?,?\s+[^\W\d_]{2}", re.IGNORECASE)


#: the particles a surname starts with in small letters ("de Vries B.V.", "van der Berg", "von Arx")
_NAME_PARTICLES = frozenset({"de", "den", "der", "van", "ter", "ten", "von", "zu", "le", "la", "du", "di", "da",
                             "del", "della", "dos", "das"})


def _cut_at_the_front(text: str) -> bool:
    """Whether a name or an address starts with a word in small letters, no surname's particle, before
    capitalised ones: the end of a word whose start OCR lost ("ikelen V.O.F." for Visser Kantoorartikelen
    V.O.F., "ean Jaurès - 2000 Neuchatel")."""
    words = text.split()
    return (bool(words) and words[0].isalpha() and words[0].islower() and words[0] not in _NAME_PARTICLES
            and any(word[:1].isupper() for word in words[1:]))


def _rest_of_a_line(segments: Sequence[TextLine], position: int) -> bool:
    """Whether a segment follows one on its row that is no name ("LOT 1851-A - 1851-B," "ALAN KPB 6,"): a
    receipt prints its name on a row of its own, so this is the rest of a row OCR cut apart, an address
    whose name line above it was lost."""
    return any(segment.index == segments[position].index and not _is_name_like(segment)
               for segment in segments[:position])


#: the name an e-mail address or a web site gives after "@" or "www." ("office@walsh-facilities.co.uk")
_DOMAIN_NAME = re.compile(r"(?:@|\bwww\.)([^\W_][\w-]*)\.[a-z]{2,}", re.IGNORECASE)
#: a domain name shorter than this says too little to name a company ("info@ab.de")
_MIN_DOMAIN_NAME = 4


#: a receipt line OCR read with less mean confidence than this, in words of fewer letters than
#: _SHORT_WORD_LETTERS on average, is a logo or a smudge read as letters ("dG OK" over "MR. D.1.Y. (M) SDN BHD",
#: "MOU aa er ag Vi + f at watt A" over "DOMINO'S PIZZA"), not the vendor's name
_UNSURE_RECEIPT_LINE = 0.6
_SHORT_WORD_LETTERS = 3


def _without_logo_lead(head: Sequence[TextLine], candidates: list[int]) -> list[int]:
    """The candidates from the first that is no logo read as letters (see _UNSURE_RECEIPT_LINE); all of them
    if each is."""
    def logo(line: TextLine) -> bool:
        letters = len(_LETTERS.findall(line.text))
        return line.confidence < _UNSURE_RECEIPT_LINE and letters < _SHORT_WORD_LETTERS * len(line.words)

    first = next((i for i, p in enumerate(candidates) if not logo(head[p])), None)
    return candidates[first:] if first is not None else candidates


def _named_by_domain(segments: Sequence[TextLine], candidates: Sequence[int], position: int,
                     blocked: set[int]) -> int:
    """The one candidate whose name the issuer's e-mail or web address spells ("Walsh Facilities" for
    "office@walshfacilities.com"), where the chosen name is not spelled by any: a company's address
    names the company, so an addressee chosen by position gives way. Addresses in the customer's block
    are the customer's; several candidates spelled alike decide nothing, unless each begins with the
    first: that is one company, named again with its branch ("DOMINO'S PIZZA" / "DOMINO'S PIZZA PERMAS
    JAYA"), and its first line is the name."""
    domains = {_letters_of(match.group(1)) for p, segment in enumerate(segments) if p not in blocked
               for match in _DOMAIN_NAME.finditer(segment.text)}
    domains = {domain for domain in domains if len(domain) >= _MIN_DOMAIN_NAME}
    if not domains or _spelled_by(segments[position], domains):
        return position
    spelled = [p for p in candidates if _spelled_by(_name_part(segments[p]), domains)]
    one_company = spelled and all(_begins_with(segments[p], segments[spelled[0]]) for p in spelled[1:])
    return spelled[0] if one_company else position


def _spelled_by(name: TextLine, domains: set[str]) -> bool:
    """Whether a domain name spells the first words of ``name``, its legal form and marks left out
    ("Foster Print Works LLP": "foster", "fosterprint", "fosterprintworks")."""
    words = [_letters_of(w.text) for w in name.words if not labels.LEGAL_FORM.fullmatch(w.text.strip(".,"))]
    words = [w for w in words if w]
    return any("".join(words[:count]) in domains for count in range(1, len(words) + 1))


def _letters_of(text: str) -> str:
    """``text`` folded to the letters and digits a domain name would spell it with ("Krüger" -> "kruger")."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in folded if ch.isascii() and ch.isalnum())


def _with_contact_details(segments: Sequence[TextLine], named: Sequence[int], candidates: Sequence[int],
                          blocked: set[int]) -> int:
    """Of the companies named in the head, the first whose block goes on to the issuer's phone, e-mail or
    tax number, where the first named's block carries none: an unlabelled addressee printed above the
    sender ("Transport Mulder NV" / "Havenstraat 209" ... "de Vries C.V." / "Wilhelminaweg 186" / "Tel.
    +32 ..."). Failing a named one, the first name-like line to head such a block: a sender without a
    legal form ("Krüger Haustechnik" / "Bahnhofstraße 154" / "Tel. +49 ..."); its address lines head no
    block of their own. A name wrapped onto the first's own block ("AIK HUAT HARDWARE" / "ENTERPRISE
    (SETIA" / "ALAM) SDN BHD") is no other company. Otherwise the first named."""
    first_block = _block_below(segments, named[0], blocked)
    if _has_contact_details(segments, first_block):
        return named[0]
    others = (p for p in named[1:] if p not in first_block
              and _has_contact_details(segments, _block_below(segments, p, blocked)))
    found = next(others, None)
    if found is not None:
        return found
    covered = set(first_block)
    for position in candidates:
        block = _block_below(segments, position, blocked)
        if position not in covered and _heads_sender_block(segments, position, block):
            return position
        covered.update(block)
    return named[0]


#: OCR reads a line this surely at least to let it head a sender's block (not "Spang" for a smudged number)
_SURE_NAME = 0.7


def _heads_sender_block(segments: Sequence[TextLine], position: int, block: Sequence[int]) -> bool:
    """Whether the name-like line at ``position``, without a legal form, heads an issuer's block: address
    lines, then contact details; a register entry may come between the name and the address. A field
    label over its value ("Account No." / "C82324") heads none."""
    name = segments[position].text
    if labels.COMPANY_SUFFIX.search(name) or _is_field_label(name) or not block \
            or segments[position].confidence < _SURE_NAME:
        return False
    address = list(dropwhile(lambda p: labels.REGISTER_ENTRY.search(segments[p].text), block))
    return bool(address) and not _has_contact_details(segments, address[:1]) and _has_contact_details(segments, block)


#: an issuer's block: its name and up to this many lines under it (address, then contact details)
_BLOCK_LINES = 6


def _block_below(segments: Sequence[TextLine], position: int, blocked: set[int]) -> list[int]:
    """The positions of the segments under the name at ``position`` that overlap it (a receipt centres
    them), up to a blank line: every such segment of a row, as OCR cuts a smudged line into several
    ("(3)" / "UL," / "SETIA ALAM" of one address line)."""
    name = segments[position]
    block, previous, lines = [], name, 0
    for offset, below in enumerate(segments[position + 1:], start=position + 1):
        if below.index == name.index or _overlap(below, name.x0, name.x1) <= 0:
            continue  # the rest of the name's row, or another column
        if below.index == previous.index:
            block.append(offset)
            continue
        if below.top - previous.bottom > below.height or lines == _BLOCK_LINES or offset in blocked:
            break
        block.append(offset)
        previous = below
        lines += 1
    return block


def _has_contact_details(segments: Sequence[TextLine], block: Sequence[int]) -> bool:
    """Whether a block's lines give a phone number, an e-mail address or a tax or registration number."""
    return any(_is_contact_line(segments[p].text) for p in block)


def _is_contact_line(text: str) -> bool:
    """Whether a line gives contact or registration details ("Tel. +49 ...", "RCS Paris B 58.307",
    "(860671-D)"): never a name or an address line."""
    return labels.CONTACT.search(text) is not None or _REGISTRATION_LINE.match(text) is not None


def _without_specks(segments: Sequence[TextLine]) -> list[TextLine]:
    """Segments without the short words OCR made of scan specks ("Krüger ss AG", "ee pa"); a legal form
    ("AG", "KG") is never one. Segments of specks alone are dropped. So are the words OCR made of a logo
    behind a name: read unsurely over another word of the line read more surely ("Girard & Dubois site SA",
    "site" at 0.27 over "Dubois"), as no two printed words share their ink."""
    rows: dict[tuple[int, int], list[Word]] = {}
    for segment in segments:
        rows.setdefault((segment.page_number, segment.index), []).extend(segment.words)
    kept = []
    for segment in segments:
        row = rows[(segment.page_number, segment.index)]
        words = tuple(w for w in segment.words if not (is_speck(w) or _drawn_over(w, row))
                      or labels.LEGAL_FORM.fullmatch(w.text.strip(".,")))
        if len(words) == len(segment.words):
            kept.append(segment)
        elif words:
            kept.append(TextLine(segment.page_number, segment.index, words))
    return kept


def _drawn_over(word: Word, line_words: Sequence[Word]) -> bool:
    """Whether OCR read ``word`` unsurely where it read other words more surely: over half its width."""
    if word.confidence is None or word.confidence >= _LOGO_WORD:
        return False
    covered = sum(max(0.0, min(word.x1, other.x1) - max(word.x0, other.x0)) for other in line_words
                  if other.confidence is not None and other.confidence > word.confidence)
    return covered > 0.5 * (word.x1 - word.x0)


#: a word read less surely than this over another is a logo's shape, not text ("sésame" at 0.02)
_LOGO_WORD = 0.4


def _mark_above(head: Sequence[TextLine], candidates: Sequence[int], position: int, *, receipt: bool) -> int:
    """A legal form standing alone under a word mark ("Wagner Logistik" / "e.K.") names the company
    with the mark: the candidate right above it in its column, which the name then continues from.
    So does the second line of a name set over two lines in large type ("Visser Techniek" / "Holding
    B.V.", "Schäfer &" / "Zimmermann mbH"): stacked tightly under a line in type at least as large that
    carries no legal form of its own and that it does not repeat (a mark "ACME" over "ACME Trading Ltd").
    Not on a receipt, which prints its trading name over its company's ("AA PHARMACY" / "SUBANG
    HEALTHCARE SDN BHD")."""
    form = _widen_name(head, position)  # "Co." "Ltd" as OCR cuts a spaced legal form apart
    alone = _LEGAL_FORM_ONLY.match(form.text) is not None
    if not alone and (receipt or not _in_display_type(form, head)):
        return position
    above = [p for p in candidates if p < position and head[p].index < form.index
             and abs(head[p].x0 - form.x0) <= 2 * form.char_width()
             and form.top - head[p].bottom <= (_wrap_gap(form) if alone else _STACKED_GAP * form.height)
             and (alone or _first_line_of_name(head[p], form))]
    return above[-1] if above else position


def _spelled_out_below(head: Sequence[TextLine], candidates: Sequence[int], position: int) -> int:
    """A word mark ("WAGNER") with the full name right under it, starting with the mark ("Wagner
    Gebäudereinigung"): the full name's position."""
    mark = head[position]
    for p in candidates:
        below = head[p]
        if p <= position or below.index == mark.index:
            continue
        if below.top - mark.bottom > mark.height or abs(below.x0 - mark.x0) > 2 * below.char_width():
            return position
        return p if len(below.words) > len(mark.words) and _begins_with(below, mark) else position
    return position


def _name_under_tagline(head: Sequence[TextLine], candidates: Sequence[int], position: int) -> int:
    """A tagline set small right over the name in far larger type ("YOUR PARTNER SINCE 1987" / "Software
    Sophie Bennett"): the name's position. Text layers only: OCR's boxes follow the ink, not the type."""
    tagline = head[position]
    if tagline.scanned:
        return position
    below = _next_in_column(head, position, candidates)
    if below is None:
        return position
    name = head[below]
    tight = name.top - tagline.bottom <= _STACKED_GAP * name.height
    return below if tight and name.height >= _TAGLINE_SCALE * tagline.height else position


#: a name is set at least this many times taller than the tagline over it
_TAGLINE_SCALE = 1.8
#: the lines of a name set over two lines stand this close (a share of the lower line's height)
_STACKED_GAP = 0.5
#: ... and in display type: this many times the head's median line height
_DISPLAY_TYPE = 1.3


def _first_line_of_name(upper: TextLine, lower: TextLine) -> bool:
    """Whether ``upper`` begins the name ``lower`` ends: as large, without a legal form, not repeated below."""
    return upper.height >= _SAME_SIZE * lower.height and not labels.LEGAL_FORM.search(upper.text) \
        and not _begins_with(lower, upper)


#: type counts as the same size down to this ratio of heights (text layers measure type, OCR ink: both fit)
_SAME_SIZE = 0.95


def _in_display_type(line: TextLine, segments: Sequence[TextLine]) -> bool:
    """Whether ``line`` is set in display type: ``_DISPLAY_TYPE`` times the median line height of ``segments``."""
    return line.height >= _DISPLAY_TYPE * statistics.median(segment.height for segment in segments)


def _next_in_column(segments: Sequence[TextLine], position: int, among: Iterable[int]) -> int | None:
    """The first of the positions ``among`` (ascending) after ``position``, on another row, whose segment
    overlaps the one at ``position``."""
    line = segments[position]
    return next((p for p in among if p > position and segments[p].index != line.index
                 and _overlap(segments[p], line.x0, line.x1) > 0), None)


def _begins_with(line: TextLine, start: TextLine) -> bool:
    """Whether ``line``'s words begin with ``start``'s, ignoring case ("Wagner Gebäudereinigung", "WAGNER")."""
    return [w.text.casefold() for w in line.words[:len(start.words)]] == [w.text.casefold() for w in start.words]


def _name_after_label(segment: TextLine, label: re.Pattern[str] = labels.VENDOR_BLOCK) -> TextLine | None:
    """The name printed after a vendor label on the label's own line ("From: ACME Ltd"), if any."""
    match = label.search(segment.text)
    if match is None:
        return None
    words = [w for w, start in zip(segment.words, segment.word_starts(), strict=True) if start >= match.end()]
    while words and not any(ch.isalnum() for ch in words[0].text):
        words.pop(0)  # the label's own colon, set apart ("Fournisseur :")
    rest = TextLine(segment.page_number, segment.index, tuple(words)) if words else None
    return rest if rest is not None and _is_name_like(rest) else None


def _payee(segments: list[TextLine], blocked: set[int]) -> int | None:
    """Position of the account holder the payment details name ("Payable to: ACME Ltd"), the name alone
    put in its place: on an invoice that names its issuer nowhere else, the vendor."""
    for position, segment in enumerate(segments):
        named = _name_after_label(segment, labels.PAYEE) if position not in blocked else None
        if named is not None:
            segments[position] = named
            return position
    return None


#: what a one-line sender strip sets between name, street and city ("ACME Ltd · 1 High St · Leeds")
_STRIP_SEPARATORS = frozenset("·|–•")


def _name_part(segment: TextLine) -> TextLine:
    """A segment without what a sender strip or a tagline prints after the name on its line
    ("ACME Ltd | 1 High St | VAT GB123", "ACME LTD | Since 1987"). Text layers only: OCR reads a
    letter or a rule mark beside a name as "|" too."""
    if segment.scanned:
        return segment
    cut = next((i for i, word in enumerate(segment.words) if i and word.text in _STRIP_SEPARATORS), None)
    return segment if cut is None else TextLine(segment.page_number, segment.index, segment.words[:cut])


def _strip_address(strip: TextLine) -> list[TextLine]:
    """The address a one-line sender strip prints after the name ("ACME Ltd | 1 High St | Leeds LS1 4DY |
    VAT GB123"): its parts up to the first contact or register detail, or to the country. Text layers
    only, as for the name. A street and a town make two parts, or one with a comma: a single part without
    one is a tagline ("ACME Ltd | Since 1987")."""
    parts: list[list[Word]] = []
    for word in strip.words[len(_name_part(strip).words):]:
        if word.text in _STRIP_SEPARATORS:
            parts.append([])
        else:
            parts[-1].append(word)
    address: list[TextLine] = []
    for words in parts:
        part = TextLine(strip.page_number, strip.index, tuple(words))
        if not words or _is_contact_line(part.text):
            break
        address.append(part)
        if _country(part.text) is not None:
            break
    return address if len(address) >= 2 or (address and "," in address[0].text) else []


#: the page foot: segments starting this far down the page's text
_FOOT = 0.8


def _in_foot(segments: Sequence[TextLine]) -> list[int]:
    """Positions of the segments in the foot of the page, top to bottom."""
    page_bottom = max(segment.bottom for segment in segments)
    return [position for position, segment in enumerate(segments) if segment.top >= _FOOT * page_bottom]


def _footer_name(segments: Sequence[TextLine], blocked: set[int]) -> int | None:
    """Position of a company name with a legal form in the foot of the page, if one is printed there."""
    for position in _in_foot(segments):
        segment = segments[position]
        if position not in blocked and _is_name_like(segment) and labels.LEGAL_FORM.search(segment.text):
            return position
    return None


def _names_in_foot(segments: Sequence[TextLine]) -> Iterator[tuple[int, str]]:
    """The foot's segments, top to bottom, with their text read as a name is (see _repair_name)."""
    for position in _in_foot(segments):
        yield position, _repair_name(segments[position].text.strip())


def _legal_name_in_foot(segments: Sequence[TextLine], name: str) -> str | None:
    """The name with its legal form, where the foot of the page prints it so: a letterhead gives the trading
    name ("Murphy & Palmer"), the foot the company's legal name ("Murphy & Palmer Ltd")."""
    for _, text in _names_in_foot(segments):
        if text[:len(name)].casefold() == name.casefold() and _LEGAL_FORM_ONLY.match(text[len(name):]):
            return text
    return None


def _in_foot_order(segments: Sequence[TextLine], name: str) -> str | None:
    """The name as the foot of the page prints it on one line, where it prints the same words in another
    order: a word mark stacked over its legal form ("Chevalier Traiteur" / "SARL") does not say which comes
    first, and the foot does ("SARL Chevalier Traiteur")."""
    words = sorted(name.casefold().split())
    for _, text in _names_in_foot(segments):
        if text != name and sorted(text.casefold().split()) == words:
            return text
    return None


def _surer_address_in_foot(segments: Sequence[TextLine], name: str, address: Sequence[TextLine],
                           blocked: set[int]) -> list[TextLine] | None:
    """The address the foot of the page prints under the vendor's name, where OCR read the letterhead's
    ``address`` unsurely and the foot's more surely (a scan's head blurred to "ibe sah ovr, anchester", its
    foot "170 King Street, Manchester M1 1AE")."""
    head = min((segment.confidence for segment in address), default=0.0)
    if head >= _SURE_ADDRESS:
        return None
    for position, text in _names_in_foot(segments):
        if text.casefold() != name.casefold():
            continue
        below = _address_below(segments, position, blocked)
        if below and min(segment.confidence for segment in below) > head:
            return below
    return None


#: an address whose every line OCR read at least this surely is the letterhead's as printed
_SURE_ADDRESS = 0.7


def _widen_name(segments: Sequence[TextLine], position: int) -> TextLine:
    """The name segment joined with close neighbours on its row that belong to it: OCR spaces the
    words of bold type widely, so "Bennett & Foster" and "Inc." may come apart as two segments. A legal
    form standing alone takes every piece of its name leftwards on the row, a country mark included
    ("MR." "D.I.Y." "(M)" "SDN BHD")."""
    name = segments[position]
    words = list(name.words)
    # a legal form standing alone ("SON BHD" as OCR misreads it too) has its name somewhere left of it on the row
    form = _repair_name(name.text)
    alone = labels.LEGAL_FORM.fullmatch(form.strip(" .,")) is not None or _LEGAL_FORM_ONLY.match(form)
    limit = (12 if alone else 5) * name.char_width()
    # leftwards a legal form alone walks piece by piece; otherwise one neighbour each side
    for step, walks in ((-1, alone), (1, False)):
        edge = name
        neighbour_position = position + step
        while 0 <= neighbour_position < len(segments) and segments[neighbour_position].index == name.index:
            neighbour = segments[neighbour_position]
            if not _joins_name(name, edge, neighbour, limit, alone=alone):
                break
            words.extend(neighbour.words)
            if not walks:
                break
            edge, neighbour_position = neighbour, neighbour_position + step
    if len(words) == len(name.words):
        return name
    return TextLine(name.page_number, name.index, tuple(sorted(words, key=lambda w: w.x0)))


def _joins_name(name: TextLine, edge: TextLine, neighbour: TextLine, limit: float, *, alone: bool) -> bool:
    """Whether ``neighbour``, next to ``edge`` (the name or the last piece joined to it), is part of the name."""
    left, right = sorted((neighbour, edge), key=lambda segment: segment.x0)
    if not alone and _complete_before(left, right):
        return False
    gap = max(neighbour.x0 - edge.x1, edge.x0 - neighbour.x1)
    text = neighbour.text
    # a tagline beside a name is set smaller; OCR's boxes follow the ink, so scans are not compared
    other_size = not name.scanned and not 0.7 <= neighbour.height / name.height <= 1 / 0.7
    # left of a legal form, a country or branch mark in brackets counts with one letter: "(M)"
    letters = 1 if alone and _MARK_IN_BRACKETS.fullmatch(text.strip()) else 2
    return (gap <= limit and not other_size and not _TITLE_ONLY.match(text) and not labels.CONTACT.search(text)
            and len(_LETTERS.findall(text)) >= letters and not labels.CUSTOMER_BLOCK.search(text)
            and not labels.VENDOR_BLOCK.search(text) and not any(ch.isdigit() for ch in text))


#: a mark in brackets between a trading name and its legal form: "(M)" for Malaysia, "(KUCHAI)" a branch
_MARK_IN_BRACKETS = re.compile(r"\(\s*[^\W\d_]+\s*\)")


def _name_continuation(segments: Sequence[TextLine], name_position: int, blocked: set[int]) -> list[TextLine]:
    """The lines a long name wraps onto: up to two lines right under it, in its column, the last of
    which ends with a legal form ("AIK HUAT HARDWARE" / "ENTERPRISE (SETIA" / "ALAM) SDN BHD"). A name
    that already carries a legal form goes on only with more of it ("Wagner GmbH" / "& Co. KG")."""
    name = segments[name_position]
    complete = labels.LEGAL_FORM.search(name.text) is not None
    taken: list[TextLine] = []
    previous = name
    for position in range(name_position + 1, len(segments)):
        segment = segments[position]
        if segment.index == previous.index or _overlap(segment, name.x0, name.x1) <= 0:
            continue
        if (position in blocked or segment.top - previous.bottom > _wrap_gap(segment) or len(taken) == 2
                or _is_contact_line(segment.text) or not _LETTERS.search(segment.text)
                or (complete and not _goes_on_with_legal_form(segment.text))):
            return []
        taken.append(segment)
        if _LEGAL_FORM_END.search(_repair_name(_without_registration(segment.text))):
            return taken
        previous = segment
    return []


#: a name's wrapped line (or its legal form alone, see _mark_above) stands at most this many of its heights
#: under the line before: its text box's height in a text layer, its ink's in a scan (capitals, no
#: descenders: 0.6 of a text box), where the same gap measures half as much again ("Jansen" / "BV" in
#: display type: 1.03 heights of ink apart)
_WRAP_GAP, _SCANNED_WRAP_GAP = 0.8, 1.3


def _wrap_gap(segment: TextLine) -> float:
    return (_SCANNED_WRAP_GAP if segment.scanned else _WRAP_GAP) * segment.height


def _second_display_line(segments: Sequence[TextLine], name_position: int, blocked: set[int]) -> list[TextLine]:
    """The second line of a name set over two lines in display type ("Ingénierie" / "Emma Dubois", "SARL
    Rousseau" / "Fournitures"): the next line in its column, as large (within 5 %), stacked within half its
    height, and read as a name. Nothing for a name in body type, or one that ends with its legal form."""
    name = segments[name_position]
    if not _in_display_type(name, segments) or _LEGAL_FORM_END.search(name.text):
        return []
    below = _next_in_column(segments, name_position, range(name_position + 1, len(segments)))
    if below is None or below in blocked:
        return []
    line = segments[below]
    same_size = _SAME_SIZE <= line.height / name.height <= 1 / _SAME_SIZE
    tight = line.top - name.bottom <= _STACKED_GAP * line.height
    return [line] if same_size and tight and _is_name_like(line) else []


def _complete_before(name: TextLine, following: TextLine) -> bool:
    """Whether ``name`` ends with its legal form, so that the segment ``following`` it on the row is another
    company's, unless it goes on with the legal form: "UG" "(haftungsbeschränkt)", "GmbH" "& Co. KG"."""
    if not _LEGAL_FORM_END.search(name.text):
        return False
    return not _goes_on_with_legal_form(following.text)


def _goes_on_with_legal_form(text: str) -> bool:
    """Whether text after a legal form adds to it: "(haftungsbeschränkt)", "& Co. KG", "Ltd"."""
    return text.lstrip().startswith(("(", "&", "+")) or _LEGAL_FORM_ONLY.match(text) is not None


_LEGAL_FORM_ONLY = re.compile(rf"^\W*(?:(?:{labels.LEGAL_FORM.pattern})\W*)+$", re.IGNORECASE)
_LEGAL_FORM_END = re.compile(rf"(?:{labels.LEGAL_FORM.pattern})\W*$", re.IGNORECASE)


def _address_below(segments: Sequence[TextLine], name_position: int, blocked: set[int],
                   label: TextLine | None = None) -> list[TextLine]:
    """The segments under the name, in its column, that read as address lines. The column of a name
    printed after its ``label`` ("Émetteur de la facture : Girard S.A.R.L.") starts with the label.

    Of the segments a row holds in the name's column, the one overlapping the name most is
    read (a logo's initials beside the street line are not part of the address).
    """
    name = segments[name_position]
    start = min(name.x0, label.x0) if label is not None else name.x0
    left, right = start - 4 * name.char_width(), name.x1 + 4 * name.char_width()
    by_row: dict[int, int] = {}
    for position in range(name_position + 1, len(segments)):
        segment = segments[position]
        if segment.x1 < left or segment.x0 > right or segment.index == name.index:
            continue  # another column, or the rest of the name's row
        best = by_row.get(segment.index)
        if best is None or _overlap(segment, left, right) > _overlap(segments[best], left, right):
            by_row[segment.index] = position
    address: list[TextLine] = []
    previous = name
    skipped = 0
    for position in sorted(by_row.values()):
        segment = segments[position]
        text = segment.text.strip()
        if segment.top - previous.bottom > 2.5 * segment.height or len(address) >= 5:
            break
        if address and (segment.x1 < min(line.x0 for line in address)
                        or segment.x0 > max(line.x1 for line in address)):
            continue  # beside the address lines read so far: a wide name's column reaches the next block's labels
        if (position in blocked or _is_contact_line(text)
                or _PHONE_ONLY.match(text) or find_dates(text) or _TITLE_ONLY.match(text)
                or labels.INVOICE_NUMBER.search(text) or labels.CUSTOMER_BLOCK.search(text)):
            skipped += 1
            # registration or contact lines may sit between the name and the address; after it they end it
            if address or skipped > 2:
                break
            previous = segment
            continue
        address.append(segment)
        previous = segment
        if _country(text) is not None:
            break  # the country is an address's last line: what follows is contact or footer text
    return address


def _overlap(segment: TextLine, left: float, right: float) -> float:
    return min(segment.x1, right) - max(segment.x0, left)


def _address_line(text: str) -> str:
    """An address line with a misread country name or British or Irish postcode read back."""
    text = _clean(text)
    return _country(text) or _repair_postcode(text)


def _country(text: str) -> str | None:
    """The country ``text`` names, or names but for one misread letter ("lreland", "Osterreich")."""
    folded = fold(text.strip(" .,;:"))
    for country in labels.COUNTRIES:
        name = fold(country)
        if folded == name or (len(name) >= _FUZZY_COUNTRY_LENGTH and one_edit_apart(name, folded)):
            return country
    return None


#: shorter country names ("USA", "Spain") must be read exactly: one letter off, they are other words
_FUZZY_COUNTRY_LENGTH = 6


#: British postcodes (outward code A9, A99, A9A, AA9, AA99 or AA9A; inward code 9AA), Irish Eircodes
#: (routing key A99, then four letters or digits) and Canadian ones (A9A 9A9: without them "M5V 2T6" was read
#: back as a British "M5V 2TG"), as patterns of D (digit), A (letter), X (either)
_POSTCODE_SHAPES = tuple((outward, "DAA") for outward in ("AD", "ADD", "ADA", "AAD", "AADD", "AADA")) + (
    ("ADD", "XXXX"), ("ADA", "DAD"))
_SHAPE_PATTERNS = {"D": r"\d", "A": "[A-Z]", "X": r"[A-Z\d]"}


def _shape_pattern(shape: tuple[str, str]) -> str:
    """A postcode shape (("ADD", "XXXX")) as a pattern, its two parts printed a space apart or not."""
    return " ?".join("".join(_SHAPE_PATTERNS[kind] for kind in part) for part in shape)


#: a postcode: four or five digits ("80331", "2511 BT", "CH-8001") or one of _POSTCODE_SHAPES ("EH1 1YZ",
#: "T12 W8CV", "K1A 0B1"), in either case (OCR's "D02 xY45"); an address OCR read without one was cut short
#: ("Wilhelminastraat 115", "55 Market Street Chicago"), where a text layer's may simply print none
_POSTCODE = re.compile(rf"(?<!\d)\d{{4,5}}(?!\d)|\b(?:{'|'.join(map(_shape_pattern, _POSTCODE_SHAPES))})\b",
                       re.IGNORECASE)
#: what OCR reads for a digit or a letter of a postcode ("DO2" for D02, "ECIA" for EC1A, "STR" for 5TR)
_AS_DIGIT = str.maketrans("OILSBZG", "0115826")
_AS_LETTER = str.maketrans("012586", "OIZSBG")
#: a line end that needs more characters read back than this is no misread postcode
_MAX_POSTCODE_REPAIRS = 2
_POSTCODE_END = re.compile(r"(?<=\S\s)(\w{2,4})\s(\w{3,4})$")


def _repair_postcode(text: str) -> str:
    """``text`` with the British, Irish or Canadian postcode that ends it read back where OCR took a digit
    for a letter or a letter for a digit, at most two characters: "London ECIA 1BB" -> "London EC1A 1BB",
    "Dublin 2 DO2 XY45" -> "Dublin 2 D02 XY45". Of several readings the one changing fewest characters
    is taken ("BS1 STR" -> "BS1 5TR", not "B51 5TR"). A line that already ends with a valid postcode,
    or whose end no confusion (or two equally) turns into one, is left as it is."""
    match = _POSTCODE_END.search(text)
    if match is None:
        return text
    pair = (match.group(1).upper(), match.group(2).upper())
    if not pair[0][0].isalpha():
        return text  # every postcode starts with a letter: a line ending in "21S 7S2" has no postcode to repair
    readings: dict[tuple[str, ...], int] = {}  # each reading with the characters it changes
    for shape in _POSTCODE_SHAPES:
        if tuple(map(len, shape)) != tuple(map(len, pair)):
            continue
        read = tuple("".join(_read_as(char, kind) for char, kind in zip(part, pattern))
                     for part, pattern in zip(pair, shape))
        if all(_fits(c, k) for part, pattern in zip(read, shape) for c, k in zip(part, pattern)):
            if read == pair:
                return text  # a valid postcode as printed
            readings[read] = sum(a != b for a, b in zip("".join(read), "".join(pair)))
    fewest = sorted(readings, key=readings.__getitem__)[:2]
    if not fewest or readings[fewest[0]] > _MAX_POSTCODE_REPAIRS or (
            len(fewest) == 2 and readings[fewest[0]] == readings[fewest[1]]):
        return text  # no reading, one that changes too much to be a postcode, or two as likely
    return text[:match.start()] + " ".join(fewest[0])


def _read_as(char: str, kind: str) -> str:
    return char.translate(_AS_DIGIT) if kind == "D" else char.translate(_AS_LETTER) if kind == "A" else char


def _fits(char: str, kind: str) -> bool:
    return char.isascii() and (char.isdigit() if kind == "D" else char.isalpha() if kind == "A" else char.isalnum())


def _join_address(address_lines: Iterable[str]) -> str:
    """Address lines joined with ", ", where a line does not already end with a comma."""
    joined = ""
    for line in address_lines:
        joined = line if not joined else joined + (" " if joined.endswith(",") else ", ") + line
    return joined


def _repair_name(text: str) -> str:
    """A vendor name with the OCR misreadings of its legal form and of Y, I and O in initialisms undone."""
    text = _clean(_YEN_FOR_Y.sub("Y", text).replace("_", " "))  # OCR reads rules and specks as "__"
    text = _DIGIT_IN_INITIALISM.sub(lambda m: "I" if m.group(0) == "1" else "O", text)
    text = _VOF_AS_VOR.sub("V.O.F.", _VOF_MISREAD.sub(r"\1\2O\3\4", text))
    return _SDN_BHD_MISREAD.sub(lambda m: "Sdn Bhd" if m.group(0)[1].islower() else "SDN BHD", text)


def _without_registration(text: str) -> str:
    """A name without the registration number printed after it ("99 SPEED MART S/B (519537-X)")."""
    return _clean(_REGISTRATION.sub(" ", text))


def _clean(text: str) -> str:
    return " ".join(text.split())

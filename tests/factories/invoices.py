"""Seeded generation of invoice-like documents with exact ground truth.

``generate_invoice(seed)`` decides everything about a document (type, layout, language,
parties, items, how numbers and dates are printed) from one seeded random source, so a
seed is a complete, reproducible description. Money is ``Decimal`` throughout: every line
amount is ``quantity * unit_price`` rounded half-up to cents, the subtotal is the sum of the
lines, the tax is the subtotal times the rate (rounded once), and the total is their sum.
Signs are kept as printed: a credit note printed with minus signs has negative ground
truth, one printed with positive amounts under its "Credit Note" title has positive.
"""

from __future__ import annotations

import random
import unicodedata
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from . import tune_layouts
from .layouts import DEV_LAYOUTS, FONT_FAMILIES, HELDOUT_LAYOUTS, paginate
from .locales import (CURRENCIES, ITEMS, LABELS, LETTER_TEXT, REGIONS, REGIONS_BY_LANGUAGE,
                      STREET_NAMES, STREET_PATTERNS, SURNAMES, TRADES, Currency, MoneyFormat, NumberFormat, Region,
                      format_date)

SPLITS = ("dev", "heldout", "tune", "tune2")
#: the splits that widen what rules are tuned on: their vendors and items print like real ones vary
_TUNE_SPLITS = ("tune", "tune2")
#: the itemised layouts each split draws from (letters and receipts have one layout each)
_SPLIT_LAYOUTS = {"dev": DEV_LAYOUTS, "heldout": HELDOUT_LAYOUTS, "tune": tune_layouts.TUNE_LAYOUTS,
                  "tune2": tune_layouts.TUNE2_LAYOUTS}
DOC_TYPES = ("invoice", "credit_note", "receipt", "purchase_order", "letter")
#: weights per DOC_TYPES entry: about one document in eight is not an invoice or credit note
_DOC_TYPE_WEIGHTS = (78, 10, 4, 4, 4)
LANGUAGES = ("en", "de", "fr", "nl")
_LANGUAGE_WEIGHTS = (35, 30, 20, 15)
CENT = Decimal("0.01")


def _cents(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def format_decimal(value: Decimal) -> str:
    """A money amount as Quire emits it: ``1234.50``, ``-0.99``."""
    return f"{_cents(value):f}"


def format_quantity(value: Decimal) -> str:
    """A quantity as Quire emits it: ``2``, ``1.5`` (no trailing zeros)."""
    normalised = value.normalize()
    return f"{normalised.to_integral_value():f}" if normalised == normalised.to_integral_value() else f"{normalised:f}"


@dataclass(frozen=True, slots=True)
class Party:
    name: str
    address_lines: tuple[str, ...]  # street, postcode and city, sometimes the country
    city: str


@dataclass(frozen=True, slots=True)
class Item:
    description: str
    quantity: Decimal
    unit_price: Decimal
    #: the tune split prints these; dev and held-out items keep the defaults
    discount: Decimal = Decimal(0)  # percent taken off the line
    unit: str | None = None  # "pcs", "h": printed with the quantity or in a column of its own
    group: str | None = None  # the sub-heading the item is listed under

    @property
    def amount(self) -> Decimal:
        gross = self.quantity * self.unit_price
        return _cents(gross * (100 - self.discount) / 100 if self.discount else gross)


@dataclass(frozen=True, slots=True)
class PrintStyle:
    """How this document's software prints numbers, dates and text."""

    number_format: NumberFormat
    money_format: MoneyFormat
    date_style: str
    quantity_places: int | None  # None: as few as the value needs ("3", "2,5")
    font_family: str  # a key of layouts.FONT_FAMILIES
    accent: tuple[float, float, float]  # RGB 0..1 for bands, rules and logo boxes


@dataclass(frozen=True, slots=True)
class Letter:
    subject: str
    salutation: str
    paragraphs: tuple[str, ...]
    closing: str
    signer: str


@dataclass(frozen=True)
class InvoiceSpec:
    """Everything needed to render one document and to state its ground truth."""

    seed: int
    split: str
    doc_type: str
    layout: str
    region: Region
    style: PrintStyle
    labels: dict[str, str]  # label key -> the variant this document prints
    currency: Currency
    vendor: Party
    customer: Party
    vendor_contacts: dict[str, str]  # phone, email, tax_id, iban: printed distractors, not ground truth
    number: str | None  # the invoice / credit note / receipt / order number
    customer_number: str | None
    reference: str | None  # the customer's order reference, another distractor number
    issue_date: date
    due_date: date | None
    payment_days: int | None
    tax_rate: Decimal
    items: tuple[Item, ...]
    #: item index ranges [start, end) per page; one empty range for documents without items
    page_items: tuple[tuple[int, int], ...]
    letter: Letter | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    #: a delivery address naming another company (tune2's ship-to layout): a distractor, not ground truth
    ship_to: Party | None = None

    @property
    def language(self) -> str:
        return self.region.language

    @property
    def pages(self) -> int:
        return len(self.page_items)

    @property
    def subtotal(self) -> Decimal:
        return sum((item.amount for item in self.items), Decimal("0.00"))

    @property
    def tax(self) -> Decimal:
        return _cents(self.subtotal * self.tax_rate / 100)

    @property
    def total(self) -> Decimal:
        return self.subtotal + self.tax

    # -- printing: the exact strings the renderer draws ------------------------------------------------

    def number_text(self, value: Decimal) -> str:
        return self.style.number_format.format(value)

    def money_text(self, value: Decimal) -> str:
        return self.style.money_format.format(self.number_text(value), self.currency)

    def quantity_text(self, value: Decimal) -> str:
        return self.style.number_format.format_quantity(value, self.style.quantity_places)

    def date_text(self, value: date) -> str:
        return format_date(value, self.style.date_style, self.language, self.region.code)

    def rate_text(self) -> str:
        return self.style.number_format.format_quantity(self.tax_rate, None)

    # -- ground truth ----------------------------------------------------------------------------------

    def ground_truth(self) -> dict[str, Any]:
        has_amounts = self.doc_type != "letter"
        fields = {
            "vendor_name": self.vendor.name,
            "vendor_address": ", ".join(self.vendor.address_lines),
            "invoice_number": self.number,
            "issue_date": self.issue_date.isoformat(),
            "due_date": self.due_date.isoformat() if self.due_date else None,
            "currency": self.currency.code if has_amounts else None,
            "subtotal_amount": format_decimal(self.subtotal) if has_amounts else None,
            "tax_amount": format_decimal(self.tax) if has_amounts else None,
            "total_amount": format_decimal(self.total) if has_amounts else None,
        }
        printed = {"invoice_number": self.number,
                   "issue_date": self.date_text(self.issue_date),
                   "total_amount": self.money_text(self.total) if has_amounts else None}
        return {
            "doc_type": self.doc_type,
            "fields": fields,
            "line_items": [{"description": item.description, "quantity": format_quantity(item.quantity),
                            "unit_price": format_decimal(item.unit_price), "amount": format_decimal(item.amount)}
                           for item in self.items],
            "pages": self.pages,
            "layout": self.layout,
            "language": self.language,
            "split": self.split,
            "seed": self.seed,
            "printed": printed,  # values exactly as drawn, for text-layer checks
        }


# -- generation ------------------------------------------------------------------------------------------

def generate_invoice(seed: int, *, split: str = "dev", doc_type: str | None = None, layout: str | None = None,
                     language: str | None = None, item_count: int | None = None) -> InvoiceSpec:
    """The document for ``seed``; keyword overrides pin one aspect while the seed decides the rest.

    Each aspect draws from its own random stream keyed by split, seed and aspect, so dev
    seed 7 and held-out seed 7 are unrelated documents, and an override changes only what
    depends on it: ``item_count=40`` keeps the vendor, dates and layout of the seed.
    """
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, not {split!r}")

    def stream(aspect: str) -> random.Random:
        return random.Random(f"quire-invoice:{split}:{seed}:{aspect}")

    kind = stream("kind")
    drawn_type = kind.choices(DOC_TYPES, _DOC_TYPE_WEIGHTS)[0]
    drawn_language = kind.choices(LANGUAGES, _LANGUAGE_WEIGHTS)[0]
    region_roll = kind.random()
    drawn_layout = kind.choice(_SPLIT_LAYOUTS[split])
    doc_type, language = doc_type or drawn_type, language or drawn_language
    if doc_type not in DOC_TYPES:
        raise ValueError(f"doc_type must be one of {DOC_TYPES}, not {doc_type!r}")
    region = REGIONS[_region_key(language, region_roll)]
    layout = layout or {"letter": "letter", "receipt": "receipt_roll"}.get(doc_type, drawn_layout)
    labels = _labels(stream("labels"), region, doc_type)

    parties = stream("parties")
    vendor = _party(parties, region, with_country=parties.random() < 0.4)
    customer = _party(parties, region, with_country=parties.random() < 0.2)
    if split == "tune":
        vendor = replace(vendor, name=tune_layouts.tune_company_name(stream("tune-vendor"), language))
    ship_to = None
    if split == "tune2":
        vendor = replace(vendor, name=tune_layouts.tune2_company_name(stream("tune-vendor"), language))
        if layout == "ship_to":
            delivery = stream("ship-to")
            ship_to = replace(_party(delivery, region, with_country=False),
                              name=tune_layouts.tune2_company_name(delivery, language))

    dates = stream("dates")
    issue_date = date(2024, 1, 1) + timedelta(days=dates.randint(0, 1000))
    terms = dates.choice((7, 10, 14, 30, 30, 45, 60)) if dates.random() < 0.8 else None
    payment_days = terms if doc_type == "invoice" else None
    due_date = issue_date + timedelta(days=payment_days) if payment_days else None

    items: tuple[Item, ...] = ()
    if doc_type != "letter":
        items_rng = stream("items")
        count = item_count or _item_count(items_rng, doc_type)
        # till receipts sell cheaper things than invoices bill
        price_exponent = 4 if doc_type == "receipt" else 5.4
        items = tuple(_item(items_rng, language, price_exponent) for _ in range(count))
        if split in _TUNE_SPLITS:
            items = tune_layouts.tune_items(stream("tune-items"), language, items, layout)
        if doc_type == "credit_note" and stream("sign").random() < 0.5:
            items = tuple(replace(i, unit_price=-i.unit_price) for i in items)

    numbers = stream("numbers")
    spec = InvoiceSpec(
        seed=seed, split=split, doc_type=doc_type, layout=layout, region=region,
        style=_print_style(stream("style"), region), labels=labels, currency=CURRENCIES[region.currency],
        vendor=vendor, customer=customer, vendor_contacts=_contacts(stream("contacts"), region, vendor.name),
        number=None if doc_type == "letter" else _document_number(numbers, doc_type, language, issue_date),
        customer_number=f"{numbers.choice(('K', 'C', 'D', ''))}{numbers.randint(10000, 99999)}",
        reference=f"{numbers.choice(('PO', 'BE', 'ORD'))}-{numbers.randint(100000, 999999)}"
        if numbers.random() < 0.5 else None,
        issue_date=issue_date, due_date=due_date, payment_days=payment_days,
        tax_rate=stream("tax").choice(region.tax_rates), items=items, page_items=((0, len(items)),),
        letter=_letter(stream("letter"), language) if doc_type == "letter" else None,
        notes=_notes(stream("notes"), labels, payment_days, doc_type), ship_to=ship_to)
    return _with_pages(spec)


def _region_key(language: str, roll: float) -> str:
    """The language's first region for half the documents, the others share the rest."""
    keys = REGIONS_BY_LANGUAGE[language]
    if roll < 0.5 or len(keys) == 1:
        return keys[0]
    return keys[1 + int((roll - 0.5) * 2 * (len(keys) - 1))]


def _with_pages(spec: InvoiceSpec) -> InvoiceSpec:
    if spec.doc_type in ("letter", "receipt"):
        return spec  # a single page sized to its content
    if spec.layout in tune_layouts.TUNE_LAYOUT_TABLE:
        return replace(spec, page_items=tune_layouts.paginate(spec))
    return replace(spec, page_items=paginate(spec))


def _print_style(rng: random.Random, region: Region) -> PrintStyle:
    # most documents follow their region's habits; some software prints ISO dates everywhere
    date_style = "iso" if rng.random() < 0.1 else rng.choice(region.date_styles)
    return PrintStyle(
        number_format=rng.choice(region.number_formats),
        money_format=rng.choice(region.money_formats),
        date_style=date_style,
        quantity_places=rng.choice((None, None, 2)),
        font_family=rng.choices(tuple(FONT_FAMILIES), (30, 25, 10, 20, 15))[0],
        accent=rng.choice(((0.12, 0.29, 0.53), (0.55, 0.1, 0.1), (0.1, 0.45, 0.3), (0.3, 0.3, 0.3),
                           (0.85, 0.45, 0.05))),
    )


def _labels(rng: random.Random, region: Region, doc_type: str) -> dict[str, str]:
    labels = {key: rng.choice(variants[region.language]) for key, variants in LABELS.items()
              if region.language in variants}
    if region.code == "US":
        labels["tax"] = rng.choice(LABELS["sales_tax"]["en"])
    title_key = {"invoice": "invoice_title", "credit_note": "credit_note_title", "receipt": "receipt_title",
                 "purchase_order": "purchase_order_title", "letter": "invoice_title"}[doc_type]
    number_key = {"invoice": "invoice_number", "credit_note": "credit_note_number", "receipt": "receipt_number",
                  "purchase_order": "purchase_order_number", "letter": "invoice_number"}[doc_type]
    labels["title"] = labels[title_key]
    labels["number"] = labels[number_key]
    if doc_type == "credit_note":
        labels["total"] = labels["credit_total"]
    if doc_type == "receipt":
        labels["total"] = labels["receipt_total"]
    if doc_type == "purchase_order":
        labels["bill_to"] = labels["po_supplier"]
    return labels


def _slug(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return "".join(ch for ch in ascii_text.lower() if ch.isalnum())


def _company_name(rng: random.Random, region: Region) -> str:
    language = region.language
    surname, other = rng.sample(SURNAMES[language], 2)
    trade = rng.choice(TRADES[language])
    legal = rng.choice(region.legal_forms)
    pattern = rng.choice(("{surname} {trade} {legal}", "{trade} {surname} {legal}", "{surname} & {other} {legal}"))
    if legal in ("SARL", "SAS", "SA", "SRL") and rng.random() < 0.5:
        pattern = "{legal} {surname} {trade}"  # French usage often puts the legal form first
    return pattern.format(surname=surname, other=other, trade=trade, legal=legal)


def _party(rng: random.Random, region: Region, *, with_country: bool) -> Party:
    name, language = _company_name(rng, region), region.language
    street = rng.choice(STREET_PATTERNS[language]).format(
        name=rng.choice(STREET_NAMES[language]), n=rng.randint(1, 240), u=rng.randint(1, 30))
    postcode, city = rng.choice(region.cities)
    if region.code == "US":
        city_line = f"{city}, {postcode}"
    elif region.code in ("GB", "IE"):
        city_line = f"{city} {postcode}"
    else:
        city_line = f"{postcode} {city}"
    lines = (street, city_line, region.country_name) if with_country else (street, city_line)
    return Party(name, lines, city)


def _contacts(rng: random.Random, region: Region, vendor_name: str) -> dict[str, str]:
    digits = "".join(str(rng.randint(0, 9)) for _ in range(20))
    tax_id = {"US": f"EIN {digits[:2]}-{digits[2:9]}", "GB": f"GB{digits[:9]}", "IE": f"IE{digits[:7]}T",
              "DE": f"DE{digits[:9]}", "AT": f"ATU{digits[:8]}", "CH": f"CHE-{digits[:3]}.{digits[3:6]}.{digits[6:9]}",
              "FR": f"FR{digits[:11]}", "BE": f"BE0{digits[:9]}", "NL": f"NL{digits[:9]}B01"}[region.code]
    iban_body = f"{region.code}{digits[:2]} {digits[2:6]} {digits[6:10]} {digits[10:14]} {digits[14:18]}"
    slug = _slug(vendor_name.split()[0] + vendor_name.split()[1])
    tld = {"US": "com", "GB": "co.uk"}.get(region.code, region.code.lower())
    return {"phone": f"{region.calling_code} {rng.randint(10, 99)} {rng.randint(100000, 9999999)}",
            "email": f"{rng.choice(('info', 'billing', 'accounts', 'office'))}@{slug}.{tld}",
            "tax_id": tax_id, "iban": iban_body if region.code != "US" else f"ACH {digits[:9]} / {digits[9:19]}"}


def _item_count(rng: random.Random, doc_type: str) -> int:
    if doc_type == "credit_note":
        return rng.randint(1, 4)
    if doc_type == "receipt":
        return rng.randint(1, 12)
    roll = rng.random()
    if roll < 0.65:
        return rng.randint(1, 8)
    if roll < 0.85:
        return rng.randint(9, 20)
    return rng.randint(21, 40)  # long enough to run onto a second page in most layouts


def _item(rng: random.Random, language: str, price_exponent: float) -> Item:
    description, fractional = rng.choice(ITEMS[language])
    if fractional and rng.random() < 0.6:
        quantity = Decimal(rng.randint(2, 60)) / 4  # quarter steps: hours, kilograms, metres
    else:
        quantity = Decimal(rng.choice((1, 1, 1, 2, 2, 3, 4, 5, 6, 10, 12, 20, 25, 50)))
    cents = int(10 ** rng.uniform(2, price_exponent))  # from 1.00, log-uniform like real price lists
    if rng.random() < 0.4:
        cents = max(100, cents - cents % 100)  # round prices are common
    return Item(description, quantity, Decimal(cents) / 100)


def _document_number(rng: random.Random, doc_type: str, language: str, issued: date) -> str:
    n, year = rng.randint(1, 99999), issued.year
    if doc_type == "receipt":
        return f"{rng.randint(1, 9999):04d}-{n:06d}"
    prefix = {"credit_note": {"en": "CN", "de": "GS", "fr": "AV", "nl": "CR"},
              "purchase_order": {"en": "PO", "de": "B", "fr": "BC", "nl": "IO"}}.get(doc_type)
    if prefix:
        return f"{prefix[language]}-{year}-{n:05d}"
    patterns = {"en": ("INV-{y}-{n:05d}", "{n:06d}", "INV{n:07d}", "{y}-{n:04d}"),
                "de": ("RE-{y}-{n:05d}", "R{y}{n:05d}", "{y}/{n:05d}", "{n:06d}"),
                "fr": ("FA{y}-{n:05d}", "F-{y}-{n:05d}", "{y}{m:02d}-{n:05d}"),
                "nl": ("F{y}.{n:05d}", "{y}{n:05d}", "INV-{n:06d}")}[language]
    return rng.choice(patterns).format(y=year, m=issued.month, n=n)


def _notes(rng: random.Random, labels: dict[str, str], payment_days: int | None,
           doc_type: str) -> tuple[str, ...]:
    if doc_type == "credit_note":
        reference = f"{rng.randint(100000, 999999)}"
        return (labels["credit_reason"].format(ref=reference),)
    if doc_type != "invoice":
        return ()
    terms = labels["payment_terms"].format(days=payment_days) if payment_days else labels["due_on_receipt"]
    return (terms, labels["thanks"]) if rng.random() < 0.6 else (terms,)


def _letter(rng: random.Random, language: str) -> Letter:
    text = LETTER_TEXT[language]
    surname = rng.choice(SURNAMES[language])
    first = rng.choice(("Anna", "Thomas", "Marie", "Peter", "Julia", "Martin", "Sophie", "Lukas"))
    return Letter(subject=rng.choice(text["subject"]), salutation=rng.choice(text["salutation"]),
                  paragraphs=tuple(rng.sample(text["body"], rng.randint(2, 4))),
                  closing=rng.choice(text["closing"]), signer=f"{first} {surname}")

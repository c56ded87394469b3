"""Plain value types passed between stages.

They carry no database or Airflow state, so an engine, a stage and a test can
all speak the same language. Coordinates are PDF points (1/72 in) with the
origin at the top-left of the page *as displayed* (after /Rotate is applied);
OCR engines convert pixel boxes to points with the render dpi.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class TextMethod(str, Enum):
    TEXT_LAYER = "text_layer"
    OCR = "ocr"
    EMPTY = "empty"  # a blank page: neither the text layer nor OCR found anything


@dataclass(frozen=True, slots=True)
class Word:
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    confidence: float | None = None  # 0..1; None where the text layer gives no score

    def to_json(self) -> list[Any]:
        return [self.text, round(self.x0, 2), round(self.top, 2), round(self.x1, 2),
                round(self.bottom, 2), None if self.confidence is None else round(self.confidence, 3)]

    @classmethod
    def from_json(cls, row: list[Any]) -> Word:
        return cls(row[0], row[1], row[2], row[3], row[4], row[5])


@dataclass(frozen=True, slots=True)
class PageText:
    """What parse learned about one page (1-based ``page_number``)."""

    page_number: int
    width: float
    height: float
    text: str
    words: tuple[Word, ...]
    method: TextMethod
    engine: str  # e.g. "pypdfium2 5.15.2" or "tesseract 5.3.0"
    confidence: float  # 0..1, mean word confidence for OCR, text-quality score for a text layer
    rotation: int = 0  # degrees the page content was turned to read it (OSD), 0/90/180/270


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    pages: tuple[PageText, ...]

    @property
    def text(self) -> str:
        return "\n\f".join(p.text for p in self.pages)


@dataclass(frozen=True, slots=True)
class FieldValue:
    value: str | None
    confidence: float

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "confidence": round(self.confidence, 3)}


@dataclass(frozen=True, slots=True)
class LineItem:
    description: str
    quantity: str | None  # decimal strings, never floats
    unit_price: str | None
    amount: str | None
    confidence: float = 0.0
    #: the rate printed on the row that quantity x unit price is reduced by to make the amount ("10" for
    #: 5 x 28.00 less 10 % = 126.00); None where the row prints none or the amount is the plain product
    discount_percent: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"description": self.description, "quantity": self.quantity,
                "unit_price": self.unit_price, "discount_percent": self.discount_percent, "amount": self.amount,
                "confidence": round(self.confidence, 3)}


class Routing(str, Enum):
    AUTO = "auto"
    REVIEW = "review"
    BLOCKED = "blocked"


@dataclass(frozen=True, slots=True)
class ValidationResult:
    rule: str
    ok: bool
    detail: str = ""
    #: a failed blocking rule is a business-rule violation (BLOCKED); otherwise it asks for review
    blocking: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "ok": self.ok, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class Classification:
    doc_type: str  # invoice | receipt | credit_note | purchase_order | letter | other
    confidence: float
    classifier_version: str


@dataclass(frozen=True, slots=True)
class Extraction:
    fields: dict[str, FieldValue]
    line_items: tuple[LineItem, ...]
    validation: tuple[ValidationResult, ...]
    routing: Routing
    extractor_version: str
    template: str | None = None  # the vendor template that matched, with its version


@dataclass(frozen=True, slots=True)
class SplitPart:
    """One child document of a packet: pages ``first..last`` (1-based, inclusive)."""

    index: int
    first_page: int
    last_page: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class SplitPlan:
    parts: tuple[SplitPart, ...]
    rule_version: str
    rules: tuple[str, ...] = field(default_factory=tuple)

"""Receipt pages read by two more models, a word replaced where both read it alike and otherwise.

Tesseract's models misread differently: the English model Quire reads with (tessdata_fast's, as
distributions ship it) reads a faint "SDN BHD" as "SON BHO", tessdata's full-size English network
and the Malay model read it right; each of them misreads amounts the first reads right ("9.00" as
"9.60"). Alone, neither further model reads the fields better (quire.engines.models,
quire.engines.language). Together they are two witnesses that rarely share a misreading: where
both read a stretch of ink alike, and otherwise than the first reading, they replace it (a vote of
three, the first reading keeping every tie). Amounts survive this: one further model's misreading is
outvoted by the other's reading.

bench/accuracy.py, against the first reading alone: SROIE tune half issue_date, total_amount and
vendor_name unchanged (100 / 94.4 / 88.9 %), vendor_address 27.8 -> 33.3; receipts-degraded
vendor_name 73.6 -> 75.0, vendor_address 29.2 -> 31.9, issue_date and total_amount unchanged;
reading-order CER of the tune half 11.85 -> 11.14 %; every invoice figure unchanged. bench/ocr_quality.py,
region CER 6.86 -> 6.15 % (tune half 6.75 -> 6.18). Only receipt-shaped pages are read again
(``is_receipt_page``); full-width pages keep their reading.

Each witness reads the page as the first reading does, its lines re-read and, where incomplete, its
contrast stretched. That costs a receipt 3.9 -> 14.0 s of one core (8 SROIE receipts, cold OCR cache);
witnesses that read the page once, without the re-reads, cost less but read fewer fields right
(receipts-degraded issue_date 83.3 -> 81.9 %, total 70.8 -> 69.4, vendor_name 75.0 -> 73.6).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from PIL import Image

from quire.engines.fusion import in_rows, ink_groups
from quire.engines.line_reread import read_receipt_page
from quire.engines.ocr import OcrEngine, OcrResult, character_confidence
from quire.errors import EngineError
from quire.model import Word

log = logging.getLogger(__name__)


class ReceiptVoteEngine:
    """``inner``'s reading; on a receipt page, its word groups that both ``witnesses`` read alike and
    otherwise replaced by theirs (:func:`vote_readings`)."""

    def __init__(self, inner: OcrEngine, witnesses: tuple[OcrEngine, OcrEngine]) -> None:
        self.inner = inner
        self.witnesses = witnesses
        self.name = inner.name
        self.settings_key = (f"{inner.settings_key};receipt_vote=[{witnesses[0].settings_key}]"
                             f"[{witnesses[1].settings_key}]")

    @property
    def version(self) -> str:
        return self.inner.version

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        first = self.inner.recognize(image, dpi)
        if not read_receipt_page(image, first):
            return first
        try:
            second, third = (witness.recognize(image, dpi) for witness in self.witnesses)
        except EngineError as exc:  # the page's own reading is complete; the vote only improves it
            log.warning("a witness of the receipt vote failed, keeping the page reading: %s", exc)
            return first
        return vote_readings(first, second, third)


def vote_readings(first: OcrResult, second: OcrResult, third: OcrResult) -> OcrResult:
    """``first``, each group of its words on one stretch of ink replaced by ``second``'s words there where
    ``third`` sets exactly the same words on the same ink (the same text, spaces aside) and it differs from
    ``first``'s. Readings of differently turned pages are not compared: ``first`` is returned."""
    if not first.words or not first.rotation == second.rotation == third.rotation:
        return first
    third_words = {_ids(base): other for base, other in ink_groups(first.words, third.words)[0] if base}
    kept: list[Word] = []
    replaced = False
    for base, other in ink_groups(first.words, second.words)[0]:
        if not base:
            continue
        if other and _spelling(other) != _spelling(base) and _spelling(third_words.get(_ids(base), ())) \
                == _spelling(other):
            kept.extend(other)
            replaced = True
        else:
            kept.extend(base)
    if not replaced:
        return first
    text, words = in_rows(kept)
    return OcrResult(text, words, character_confidence(words), first.rotation)


def _ids(words: Sequence[Word]) -> tuple[int, ...]:
    """The group's identity: the same first-reading words grouped with either other reading."""
    return tuple(id(word) for word in words)


def _spelling(words: Sequence[Word]) -> str:
    return "".join(word.text for word in words)

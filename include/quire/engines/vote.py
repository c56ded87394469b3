"""Receipt pages read by three more models, a word replaced where more of them read it otherwise than alike.

Tesseract's models misread differently: the English model Quire reads with (tessdata_fast's, as
distributions ship it) reads a faint "SDN BHD" as "SON BHO", tessdata's full-size English network
and the Malay model read it right; each of them misreads amounts the first reads right ("9.00" as
"9.60"). Alone, neither further model reads the fields better (quire.engines.models,
quire.engines.language). So they are witnesses: the full-size network, the Malay model, and the
full-size network with the Malay model. Where more of them read a stretch of ink alike, and otherwise
than the first reading, than read it as the first reading does, they replace it (the first reading
counts for itself and keeps every tie: two witnesses against none, or three against one). The two
full-network witnesses share their misreadings of punctuation (both read a quantity's "4,5" as "45"),
so a vote may change a number's digits but never the separators the first reading prints between them.

bench/accuracy.py, three witnesses against the two without the full-network Malay reading: SROIE tune
half issue_date, total_amount and vendor_name unchanged (100 / 94.4 / 88.9 %, vendor_address 33.3);
receipts-degraded total_amount 70.8 -> 77.8 %, vendor_name 75.0 -> 76.4, vendor_address 31.9 -> 30.6,
issue_date unchanged; every invoice figure unchanged (dev, tune and held-out, digital and scanned: the
separator rule keeps generated receipt rolls as they were). bench/ocr_quality.py, region CER 6.15 ->
5.82 % (tune half 6.18 -> 5.89; no vote at all 6.86, tune 6.75). Only receipt-shaped pages are read
again (``is_receipt_page``); full-width pages keep their reading.

Each witness reads the page as the first reading does, its lines re-read and, where incomplete, its
contrast stretched; the full-network witnesses share their English page reading through the OCR cache.
That costs a receipt 3.0 s of one core without the vote, 9.5 s with two witnesses and 15.7 s with three
(8 SROIE receipts, cold OCR cache, one process each). Witnesses that read the page once, without the
re-reads, cost less but read fewer fields right (two witnesses: receipts-degraded issue_date 83.3 -> 81.9 %,
total 70.8 -> 69.4, vendor_name 75.0 -> 73.6).
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence

from PIL import Image

from quire.engines.fusion import in_rows, ink_groups
from quire.engines.line_reread import read_receipt_page
from quire.engines.ocr import OcrEngine, OcrResult, character_confidence
from quire.errors import EngineError
from quire.model import Word

log = logging.getLogger(__name__)


class ReceiptVoteEngine:
    """``inner``'s reading; on a receipt page, its word groups replaced where more of the ``witnesses`` read
    them alike and otherwise than read them as it does (:func:`vote_readings`)."""

    def __init__(self, inner: OcrEngine, witnesses: tuple[OcrEngine, ...]) -> None:
        self.inner = inner
        self.witnesses = witnesses
        self.name = inner.name
        self.settings_key = inner.settings_key + ";receipt_vote=" + "".join(
            f"[{witness.settings_key}]" for witness in witnesses)

    @property
    def version(self) -> str:
        return self.inner.version

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        first = self.inner.recognize(image, dpi)
        if not read_receipt_page(image, first):
            return first
        try:
            others = [witness.recognize(image, dpi) for witness in self.witnesses]
        except EngineError as exc:  # the page's own reading is complete; the vote only improves it
            log.warning("a witness of the receipt vote failed, keeping the page reading: %s", exc)
            return first
        return vote_readings(first, others)


def vote_readings(first: OcrResult, witnesses: Sequence[OcrResult]) -> OcrResult:
    """``first``, each group of its words on one stretch of ink (grouped as with the first witness) replaced
    by the words the witnesses set there where more of them spell them alike (spaces aside) than spell
    ``first``'s words, ``first`` counting for itself: of three witnesses, two against none or three against
    one. A witness that grouped the ink otherwise has no say on it. Readings of differently turned pages are
    not compared: ``first`` is returned."""
    if not first.words or not witnesses or any(other.rotation != first.rotation for other in witnesses):
        return first
    groupings = [ink_groups(first.words, other.words)[0] for other in witnesses]
    readings: dict[tuple[int, ...], list[Sequence[Word]]] = {}
    for groups in groupings:
        for base, theirs in groups:
            if base and theirs:
                readings.setdefault(_ids(base), []).append(theirs)
    kept: list[Word] = []
    replaced = False
    for base, _ in groupings[0]:
        winner = _outvoting(base, readings.get(_ids(base), []))
        replaced = replaced or winner is not None
        kept.extend(base if winner is None else winner)
    if not replaced:
        return first
    text, words = in_rows(kept)
    return OcrResult(text, words, character_confidence(words), first.rotation)


def _outvoting(base: Sequence[Word], readings: Sequence[Sequence[Word]]) -> Sequence[Word] | None:
    """The reading in ``readings`` that more of them spell alike than spell ``base`` (which counts for
    itself), if any, and if it keeps the separators ``base`` prints between digits."""
    votes = Counter(_spelling(words) for words in readings)
    spelling, count = max(votes.items(), key=lambda item: item[1], default=("", 0))
    if count <= votes[_spelling(base)] + 1:
        return None
    separators = _SEPARATOR_IN_NUMBER.findall(_spelling(base))
    if separators and _SEPARATOR_IN_NUMBER.findall(spelling) != separators:
        return None
    return next(words for words in readings if _spelling(words) == spelling)


#: a separator between two digits ("4,5", "15.90", "30/03"): the witnesses read with the same network lose
#: the same ones (both read "4,5" as "45"), so a vote may read a number's digits otherwise but keeps its
#: separators where the first reading prints them
_SEPARATOR_IN_NUMBER = re.compile(r"(?<=\d)[.,:/'-](?=\d)")


def _ids(words: Sequence[Word]) -> tuple[int, ...]:
    """The group's identity: the same first-reading words grouped with any witness's reading."""
    return tuple(id(word) for word in words)


def _spelling(words: Sequence[Word]) -> str:
    return "".join(word.text for word in words)

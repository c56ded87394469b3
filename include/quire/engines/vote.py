"""Receipt pages read by three more models, a word replaced where more of them read it otherwise than alike.

Tesseract's models misread differently: the English model Quire reads with (tessdata_fast's, as
distributions ship it) reads a faint "SDN BHD" as "SON BHO", tessdata's full-size English network and
the Malay model read it right; each of them misreads amounts the first reads right ("9.00" as "9.60").
Alone, neither further model reads the fields better (quire.engines.models, quire.engines.language). So
they are witnesses: the full-size network, the Malay model, and the full-size network with the Malay
model. Where more of them read a stretch of ink alike, and otherwise than the first reading, than read
it as the first reading does, they replace it (the first reading counts for itself: two witnesses
against none, or three against one; a tie over numbers is read again, see below). The two full-network
witnesses share their misreadings of punctuation (both read a quantity's "4,5" as "45"), so a vote may
change a number's digits but never the separators the first reading prints between them.

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

The witnesses split by network: the full-size network's two readings often agree against the small
network's two ("18/04/2017" against "13/04/2017", "9.00" against "9.60"): a tie. Where the witnesses'
reading of such a tie prints an amount, a date or a time with other numbers than the first reading's,
the tied stretches of ink alone are cut out and read again, by both networks at two more sizes
(``TIE_BREAK_HEIGHTS``, on one sheet per network and size, so four tesseract calls on a page with ties):
the reading whose numbers more of them print wins. By the SROIE box transcripts, of the 14 such ties on
the 18 receipts of the tune half, 7 went to the witnesses, each rightly, and 7 kept the first reading (3
rightly); on the 72 of receipts-degraded, 15 of 37 went to the witnesses (11 rightly, 2 wrongly, 2
neither reading the transcript's). bench/accuracy.py: receipts-degraded issue_date 84.7 -> 87.5 %,
total_amount 80.6 -> 81.9; SROIE tune half unchanged; bench/ocr_quality.py, region CER 5.82 -> 5.77 %.

A date that exists outweighs one that cannot: where the first reading prints no date on a stretch of ink and
the witnesses' reading prints one (and every amount the first prints, see
:func:`quire.engines.line_reread.date_repaired`), the witnesses win a tie without its further readings, and may
print separators the first reading lost ("1 04-18 16:26" -> "27-04-18 16:26"). A receipt's date is its own
evidence that "19/03/2078" and "13/64/2017" are misread; enlarged cut-outs of faint print often share the
small network's misreading. bench/accuracy.py: receipts-degraded issue_date 87.5 -> 89.6 % (037m, 448j and
472j mended, nothing lost); every other receipt figure unchanged; region CER of the tune half 5.81 -> 5.82 %.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Callable, Sequence

from PIL import Image

from quire.engines.fusion import in_rows, ink_groups
from quire.engines.line_reread import (SHEET_DPI, build_sheet, date_repaired, map_back, printed_numbers,
                                       prints_amount_or_date, read_receipt_page, upright_grey)
from quire.engines.ocr import OcrEngine, OcrResult, character_confidence
from quire.errors import EngineError
from quire.model import Word

log = logging.getLogger(__name__)

#: the heights (pixels) tied stretches of ink are enlarged to for the readings that break the tie: other sizes
#: than the page's and the line re-read's 40 px, whose misreadings they should not share
TIE_BREAK_HEIGHTS = (50, 60)

#: the first reading's word groups and the indices of the tied ones -> each tied group's further readings
ConfirmReadings = Callable[[list[Sequence[Word]], set[int]], dict[int, list[list[Word]]]]


class ReceiptVoteEngine:
    """``inner``'s reading; on a receipt page, its word groups replaced where more of the ``witnesses`` read
    them alike and otherwise than read them as it does, or, on a tie over numbers, where more of the
    ``tie_breakers``' readings of the tied stretch print the witnesses' numbers than the first reading's
    (:func:`vote_readings`)."""

    def __init__(self, inner: OcrEngine, witnesses: tuple[OcrEngine, ...],
                 tie_breakers: tuple[OcrEngine, ...] = ()) -> None:
        self.inner = inner
        self.witnesses = witnesses
        self.tie_breakers = tie_breakers
        self.name = inner.name
        self.settings_key = inner.settings_key + ";receipt_vote=" + "".join(
            f"[{witness.settings_key}]" for witness in witnesses)
        if tie_breakers:
            self.settings_key += f";tie_break=h{'+'.join(map(str, TIE_BREAK_HEIGHTS))}:" + "".join(
                f"[{reader.settings_key}]" for reader in tie_breakers)

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
        if not self.tie_breakers:
            return vote_readings(first, others)
        grey = upright_grey(image, first.rotation)
        return vote_readings(first, others, lambda groups, tied: self._tie_readings(grey, dpi, groups, tied))

    def _tie_readings(self, grey: Image.Image, dpi: int, groups: list[Sequence[Word]],
                      tied: set[int]) -> dict[int, list[list[Word]]]:
        """The ``tied`` groups cut out of the upright page (the other groups whitened) and read by each tie
        breaker at each of ``TIE_BREAK_HEIGHTS``; a reading that fails has no say."""
        lines = [list(group) for group in groups]
        found: dict[int, list[list[Word]]] = {number: [] for number in tied}
        for height in TIE_BREAK_HEIGHTS:
            sheet, strips = build_sheet(grey, dpi, lines, line_height=height, only=tied)
            if not strips:
                return found
            for reader in self.tie_breakers:
                try:
                    words = map_back(reader.recognize(sheet, SHEET_DPI).words, strips, dpi)
                except EngineError as exc:
                    log.warning("a tie-breaking reading of the receipt vote failed: %s", exc)
                    continue
                for number in tied:
                    found[number].append(words.get(number, []))
        return found


def vote_readings(first: OcrResult, witnesses: Sequence[OcrResult],
                  confirm: ConfirmReadings | None = None) -> OcrResult:
    """``first``, each group of its words on one stretch of ink (grouped as with the first witness) replaced
    by the words the witnesses set there where more of them spell them alike (spaces aside) than spell
    ``first``'s words, ``first`` counting for itself: of three witnesses, two against none or three against
    one. A witness that grouped the ink otherwise has no say on it. Readings of differently turned pages are
    not compared: ``first`` is returned.

    On a tie (two witnesses against one and ``first``) where the witnesses' words print an amount, a date or
    a time with other numbers than ``first``'s, ``confirm`` reads the tied groups again; the witnesses' words
    win where more of those readings print their numbers than print ``first``'s, and without them where they
    print a date ``first`` prints none of (``date_repaired``)."""
    if not first.words or not witnesses or any(other.rotation != first.rotation for other in witnesses):
        return first
    groupings = [ink_groups(first.words, other.words)[0] for other in witnesses]
    readings: dict[tuple[int, ...], list[Sequence[Word]]] = {}
    for groups in groupings:
        for base, theirs in groups:
            if base and theirs:
                readings.setdefault(_ids(base), []).append(theirs)
    bases = [base for base, _ in groupings[0]]
    leaders = [_leading(base, readings.get(_ids(base), [])) for base in bases]
    confirmations: dict[int, list[list[Word]]] = {}
    if confirm is not None:
        tied = {number for number, (leader, outright) in enumerate(leaders)
                if leader is not None and not outright and _numbers_disputed(bases[number], leader)}
        if tied:
            confirmations = confirm(bases, tied)
    kept: list[Word] = []
    replaced = False
    for number, (base, (leader, outright)) in enumerate(zip(bases, leaders, strict=True)):
        wins = leader is not None and (outright or (
            number in confirmations and _confirmed(base, leader, confirmations[number])))
        winner = leader if wins else None
        replaced = replaced or winner is not None
        kept.extend(base if winner is None else winner)
    if not replaced:
        return first
    text, words = in_rows(kept)
    return OcrResult(text, words, character_confidence(words), first.rotation)


def _leading(base: Sequence[Word], readings: Sequence[Sequence[Word]]) -> tuple[Sequence[Word] | None, bool]:
    """The reading in ``readings`` that most of them spell alike, if otherwise than ``base``, at least as many
    as spell ``base`` with ``base`` counting for itself (at least two on a tie), and keeping the separators
    ``base`` prints between digits unless it prints a date ``base`` lacks (``date_repaired``); and whether it
    wins outright: by more votes, or by that date (else it ties)."""
    votes = Counter(_spelling(words) for words in readings)
    spelling, count = max(votes.items(), key=lambda item: item[1], default=("", 0))
    ours = _spelling(base)
    against = votes[ours] + 1
    if spelling == ours or count < max(against, 2):
        return None, False
    leader = next(words for words in readings if _spelling(words) == spelling)
    repaired = date_repaired(base, leader)
    separators = _SEPARATOR_IN_NUMBER.findall(ours)
    if separators and _SEPARATOR_IN_NUMBER.findall(spelling) != separators and not repaired:
        return None, False
    return leader, count > against or repaired


def _numbers_disputed(base: Sequence[Word], leader: Sequence[Word]) -> bool:
    """Whether ``leader`` prints an amount, a date or a time, with other numbers than ``base``: a tie worth
    reading again, as the fields are read from those."""
    return prints_amount_or_date(leader) and printed_numbers(leader) != printed_numbers(base)


def _confirmed(base: Sequence[Word], leader: Sequence[Word], confirmations: Sequence[list[Word]]) -> bool:
    """Whether more of the ``confirmations`` print ``leader``'s numbers than ``base``'s."""
    theirs, ours = printed_numbers(leader), printed_numbers(base)
    printed = [printed_numbers(words) for words in confirmations]
    return printed.count(theirs) > printed.count(ours)


#: a separator between two digits ("4,5", "15.90", "30/03"): the witnesses read with the same network lose
#: the same ones (both read "4,5" as "45"), so a vote may read a number's digits otherwise but keeps its
#: separators where the first reading prints them
_SEPARATOR_IN_NUMBER = re.compile(r"(?<=\d)[.,:/'-](?=\d)")


def _ids(words: Sequence[Word]) -> tuple[int, ...]:
    """The group's identity: the same first-reading words grouped with any witness's reading."""
    return tuple(id(word) for word in words)


def _spelling(words: Sequence[Word]) -> str:
    return "".join(word.text for word in words)

"""Deterministic packet splitting: which pages start a new document.

Each page after the first is judged by the first rule that applies, in this order:

1. ``blank_separator``: a page with no text ends the current part and belongs to none.
2. ``page_1_of_n`` / ``page_k_of_n``: "Page 1 of 3" starts a part, "Page 2 of 3" continues one.
3. ``continued_marker``: "continued", "Fortsetzung", "suite", "vervolg" continue the part.
4. ``page_count_reached``: the part began with "Page 1 of N" and already has N pages.
5. ``new_document_number`` / ``same_document_number``: the page prints a document number
   that differs from / equals the last one seen in the current part.
6. ``title_heading``: a title (Invoice, Rechnung, Facture, Factuur, Credit note, a letter's
   salutation ...) in the head of the page starts a part.
7. ``no_start_signal``: otherwise the page continues the part.

The first page starts a part (``first_page``), as does the first page after a blank one
(``after_separator``); a document with only blank pages stays whole (``all_pages_blank``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from quire.extraction import labels
from quire.extraction.fields import find_invoice_number
from quire.extraction.layout import group_lines
from quire.model import PageText, ParsedDocument, SplitPart, SplitPlan

#: bump whenever a rule or its order changes
SPLIT_RULE_VERSION = "split-rules-1"

_PAGE_OF = re.compile(r"\b(?:page|seite|pagina|blad|p\.)\s*(\d{1,3})\s*(?:of|von|/|sur|van|de|uit)\s*(\d{1,3})\b",
                      re.IGNORECASE)
_CONTINUED = re.compile(r"\bcontinued\b|\bcont(?:'d|\.)|\bfortsetzung\b|\bsuite\b|\bvervolg\b|\bübertrag\b",
                        re.IGNORECASE)
#: lines at the head of a page searched for a title
_HEAD_LINES = 8
#: fewer characters than this is a blank page (scanner noise reads as a stray character or two)
_BLANK_CHARS = 3


@dataclass(frozen=True, slots=True)
class _PageSignals:
    blank: bool
    page_of: tuple[int, int] | None
    continued: bool
    document_number: str | None
    title: str | None


def _signals(page: PageText) -> _PageSignals:
    lines = group_lines(page)
    text = "\n".join(line.text for line in lines)
    if sum(1 for ch in text if ch.isalnum()) < _BLANK_CHARS:
        return _PageSignals(True, None, False, None, None)
    page_of = _PAGE_OF.search(text)
    head = [line.text for line in lines[:_HEAD_LINES]]
    title = next((doc_type for doc_type, pattern in labels.TITLES if any(pattern.search(h) for h in head)), None)
    return _PageSignals(
        blank=False,
        page_of=(int(page_of[1]), int(page_of[2])) if page_of else None,
        continued=bool(_CONTINUED.search(text)),
        document_number=find_invoice_number(lines).value,
        title=title,
    )


def plan_split(parsed: ParsedDocument) -> SplitPlan:
    """Split a packet into parts by the rules above; ``rules`` records the rule that decided each page."""
    parts: list[tuple[int, int, str]] = []  # (first page, last page, reason)
    decisions: list[str] = []
    current: list[int] | None = None  # [first, last]
    current_reason = ""
    current_number: str | None = None
    expected_pages: int | None = None

    def close() -> None:
        nonlocal current
        if current is not None:
            parts.append((current[0], current[1], current_reason))
        current = None

    for page in parsed.pages:
        signals = _signals(page)
        if signals.blank:
            close()
            decisions.append(f"p{page.page_number}:blank_separator")
            continue
        if current is None:
            rule = "first_page" if not parts else "after_separator"
            starts = True
        else:
            rule, starts = _judge(signals, current, current_number, expected_pages)
        decisions.append(f"p{page.page_number}:{rule}")
        if starts:
            close()
            current, current_reason = [page.page_number, page.page_number], rule
            current_number = None
            expected_pages = signals.page_of[1] if signals.page_of and signals.page_of[0] == 1 else None
        else:
            assert current is not None
            current[1] = page.page_number
        current_number = signals.document_number or current_number
    close()
    if not parts and parsed.pages:  # nothing but blank pages: keep the document whole rather than lose it
        parts.append((parsed.pages[0].page_number, parsed.pages[-1].page_number, "all_pages_blank"))
    return SplitPlan(
        parts=tuple(SplitPart(i, first, last, reason) for i, (first, last, reason) in enumerate(parts, start=1)),
        rule_version=SPLIT_RULE_VERSION,
        rules=tuple(decisions),
    )


def _judge(signals: _PageSignals, current: list[int], current_number: str | None,
           expected_pages: int | None) -> tuple[str, bool]:
    """(rule, starts a new part) for a non-blank page that follows a page of the current part."""
    if signals.page_of is not None:
        return ("page_1_of_n", True) if signals.page_of[0] == 1 else ("page_k_of_n", False)
    if signals.continued:
        return "continued_marker", False
    if expected_pages is not None and current[1] - current[0] + 1 >= expected_pages:
        return "page_count_reached", True
    if signals.document_number is not None and current_number is not None:
        if signals.document_number != current_number:
            return "new_document_number", True
        return "same_document_number", False
    if signals.title is not None:
        return "title_heading", True
    return "no_start_signal", False

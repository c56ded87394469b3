"""Rule-based document type: weighted keyword evidence, with the document's title counting most.

Types: invoice, receipt, credit_note, purchase_order, letter, other.
"""

from __future__ import annotations

import re

from quire.extraction import labels
from quire.extraction.layout import document_lines
from quire.model import Classification, ParsedDocument

#: bump whenever a signal or weight changes, so a stored classification names its rules
CLASSIFIER_VERSION = "rules-8"

DOC_TYPES = ("invoice", "receipt", "credit_note", "purchase_order", "letter", "other")

#: a title printed in the head of the first page outweighs words in the body
_TITLE_WEIGHT = 6.0
_HEAD_LINES = 12
#: one kind of evidence counts at most this many times, so a long receipt does not drown a title
_MAX_HITS = 3
#: a till receipt in GST/VAT countries is titled "tax invoice"; where the page records a payment at
#: the counter, that title says less about the type
_COUNTER_PAYMENT = re.compile(r"\bcashier\b|\bchange\b|\btendered\b", re.IGNORECASE)
_COUNTER_TITLE_FACTOR = 0.5
#: this much evidence makes a confident call
_SATURATION = 8.0


def _signals(*pairs: tuple[str, float]) -> tuple[tuple[re.Pattern[str], float], ...]:
    return tuple((re.compile(pattern, re.IGNORECASE), weight) for pattern, weight in pairs)


_BODY_SIGNALS: dict[str, tuple[tuple[re.Pattern[str], float], ...]] = {
    "invoice": _signals(
        (r"\binvoice\s*(?:no|number|date|#)", 2.0), (r"\bbill\s*to\b", 1.5), (r"\bdue\s*date\b", 1.5),
        (r"\bpayment\s*terms\b", 1.0), (r"\bamount\s*due\b", 1.5), (r"\biban\b", 1.0),
        (r"\brechnungs(?:nummer|datum)\b", 2.0), (r"\bzahlbar\b", 1.0), (r"\bf[äa]llig", 1.0),
        (r"\bfacture\b", 1.0), (r"\b[ée]ch[ée]ance\b", 1.0), (r"\bfactuur(?:nummer|datum)?\b", 1.5),
        (r"\bvervaldatum\b", 1.0),
    ),
    "receipt": _signals(
        (r"\bcashier\b", 2.5), (r"\bchange\b", 2.5), (r"\bcash\b", 1.5), (r"\bthank\s*you\b", 1.0),
        (r"\brounding\b", 1.5), (r"\bround(?:ed|ing)?\s*d?\s*total\b", 1.5), (r"\bmember\b", 0.5),
        (r"\btunai\b", 1.5), (r"\bterima\s*kasih\b", 1.0), (r"\bpax\b", 1.0), (r"\btable\b", 0.5),
        (r"\breceipt\b", 1.5), (r"\bkassen(?:bon|beleg|zettel)\b", 2.0), (r"\bticket\s*de\s*caisse\b", 2.0),
        (r"\bkassabon\b", 2.0), (r"\bcash\s*bill\b", 2.0), (r"\btendered\b", 1.5), (r"\bcounter\b", 0.5),
        (r"\bplease\s*come\s*again\b", 1.5), (r"\bgoods\s*sold\b", 1.0),
        # what a till prints and an invoice does not: the time of the sale beside its date, the count of the
        # items sold, where the meal was had
        (r"(?m)^[^\n]*\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b[^\n]*(?<![\d:])[012]?\d:[0-5]\d(?![\d])", 1.0),
        (r"\btotal\s*(?:qty|quantity|items?)\b|\bno\.?\s*of\s*items?\b", 1.5),
        (r"\bdine\s*in\b|\btake\s*away\b", 1.0),
    ),
    "credit_note": _signals(
        (r"\bcredit\s*note\b", 3.0), (r"\bcredit\s*memo\b", 3.0), (r"\bgutschrift\b", 3.0), (r"\bavoir\b", 3.0),
        (r"\bnote\s*de\s*cr[ée]dit\b", 3.0), (r"\bcreditnota\b", 3.0), (r"\brefund\b", 1.0),
    ),
    "purchase_order": _signals(
        (r"\bpurchase\s*order\b", 3.0), (r"\bp\.?o\.?\s*(?:no|number|#)", 2.0), (r"\bbestellung\b", 2.0),
        (r"\bbon\s*de\s*commande\b", 3.0), (r"\binkooporder\b", 3.0), (r"\bship\s*via\b", 1.0),
        (r"\bbestelnummer\b", 1.5), (r"\bbestelling\b", 2.0),
    ),
    "letter": _signals(
        (r"\bdear\b", 2.0), (r"\bsincerely\b", 2.0), (r"\byours\s*(?:faithfully|truly)\b", 2.0),
        (r"\bkind\s*regards\b", 1.5), (r"\bsehr\s*geehrte", 2.0), (r"\bmit\s*freundlichen\s*gr", 2.0),
        (r"\bmadame\b|\bmonsieur\b", 1.5), (r"\bcordialement\b", 2.0), (r"\bveuillez\s*agr[ée]er\b", 2.0),
        (r"\bgeachte\b", 2.0), (r"\bmet\s*vriendelijke\s*groet", 2.0), (r"\bhoogachtend\b", 2.0),
        (r"\bre\s*:", 0.5), (r"\bbetreff\b", 1.0), (r"\bobjet\s*:", 1.0), (r"\bbetreft\b", 1.0),
    ),
}


#: a type word used as a field label or a reference ("Invoice date:", "Ihre Bestellung: B-1",
#: "Rechnungs-Nr.") names another document, not this one's title
_LABEL_AFTER = re.compile(r"^\s*(?::|-?\s*(?:no\b|nr\b|n[°o]\b|#|number|nummer|num[ée]ro|date|datum|ref|"
                          r"(?:to|an|aan|[àa]|address|adresse|adres)\b))", re.IGNORECASE)
_REFERENCE_BEFORE = re.compile(r"\b(?:your|our|ihre?|unsere?|votre|notre|uw|onze|re|per|zu|to|against)\W*$",
                               re.IGNORECASE)


def find_title(head: list[str]) -> str | None:
    """The type announced by the first title in the head of the first page.

    The earliest line with a title wins (a credit note often names the invoice it corrects
    further down; a receipt prints "Invoice date:" under its "Receipt" title); within a line
    the order of ``labels.TITLES`` decides. A type word that labels a field or cites another
    document is no title.
    """
    for printed in head:
        for line in dict.fromkeys((printed, _joined_capitals(printed))):
            for doc_type, pattern in labels.TITLES:
                for match in pattern.finditer(line):
                    if _LABEL_AFTER.match(line[match.end():]) or _REFERENCE_BEFORE.search(line[:match.start()]):
                        continue
                    return doc_type
    return None


def _joined_capitals(line: str) -> str:
    """The line with neighbouring words in capitals joined: a title set in spaced capitals is read by OCR
    as pieces at its wider gaps ("RE CHNUNG", "PURCH ASE ORDER")."""
    words = line.split(" ")
    joined = words[:1]
    for word in words[1:]:
        if _CAPITALS.match(word) and _CAPITALS.match(joined[-1]):
            joined[-1] += word
        else:
            joined.append(word)
    return " ".join(joined)


_CAPITALS = re.compile(r"^[A-ZÄÖÜÉÈ]+$")


def classify_document(parsed: ParsedDocument) -> Classification:
    """Classify by weighted keyword evidence; confidence grows with the evidence and the margin."""
    lines = document_lines(parsed)
    text = "\n".join(line.text for line in lines)
    first_page = lines[0].page_number if lines else 1
    head = [line.text for line in lines if line.page_number == first_page][:_HEAD_LINES]
    scores = {doc_type: 0.0 for doc_type in DOC_TYPES if doc_type != "other"}
    for doc_type, signals in _BODY_SIGNALS.items():
        for pattern, weight in signals:
            scores[doc_type] += weight * min(len(pattern.findall(text)), _MAX_HITS)
    title = find_title(head)
    if title is not None:
        counter = title == "invoice" and _COUNTER_PAYMENT.search(text)
        scores[title] += _TITLE_WEIGHT * (_COUNTER_TITLE_FACTOR if counter else 1.0)
    ranked = sorted(scores.items(), key=lambda item: (-item[1], DOC_TYPES.index(item[0])))
    (best, best_score), (_, second_score) = ranked[0], ranked[1]
    if best_score < 2.0:
        return Classification("other", 0.5 if best_score == 0 else 0.4, CLASSIFIER_VERSION)
    margin = (best_score - second_score) / best_score
    confidence = min(1.0, best_score / _SATURATION) * (0.5 + 0.5 * margin)
    return Classification(best, round(confidence, 3), CLASSIFIER_VERSION)

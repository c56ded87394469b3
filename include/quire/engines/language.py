"""Read a page in English first; read it again with its own language's model when the words say German,
French or Dutch.

The English model turns accented letters into look-alikes ("Müller" -> "Miiller", "Société" ->
"Soci€té"), which the extraction then copies into vendor names and descriptions. Loading every
model on every page costs time on pages that need none of them (receipts in English and Malay);
a first reading in English tells the language from plain invoice vocabulary at no extra cost,
and only pages in another language pay for a second reading. Each reading is cached on its own
(its engine's ``settings_key``), so a cached English reading stays valid when this is switched on.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from PIL import Image

from quire.engines.ocr import OcrEngine, OcrResult

#: words, as the English model reads them, that mark a page's language (lower-case, accents dropped or
#: misread: the English model seldom prints them right). Only words an English or Malay page does not use.
LANGUAGE_MARKERS: dict[str, frozenset[str]] = {
    "deu": frozenset({
        "rechnung", "rechnungsnummer", "rechnungs-nr", "rechnungsdatum", "datum", "lieferdatum", "betrag",
        "menge", "anzahl", "einzelpreis", "gesamt", "gesamtbetrag", "summe", "zwischensumme", "mwst", "ust",
        "zahlbar", "bis", "und", "der", "die", "das", "bitte", "bankverbindung", "steuernummer", "kunden-nr",
        "beschreibung", "bezeichnung", "netto", "brutto", "vielen", "dank", "zahlungsziel", "tage", "innerhalb",
        "fällig", "faellig", "leistung", "gmbh", "straße", "strasse", "seite", "von", "mit", "für", "fur",
    }),
    "fra": frozenset({
        "facture", "montant", "quantité", "quantite", "qté", "qte", "prix", "unitaire", "tva", "ttc", "ht",
        "échéance", "echeance", "désignation", "libellé", "libelle", "du", "le", "la", "les",
        "et", "des", "rue", "avenue", "paiement", "merci", "votre", "sous-total", "sarl", "sas",
        "numéro", "numero", "jours", "règlement", "reglement", "à", "au",
    }),
    "nld": frozenset({
        "factuur", "factuurnummer", "factuurdatum", "bedrag", "aantal", "prijs", "stukprijs", "btw", "totaal",
        "subtotaal", "omschrijving", "vervaldatum", "het", "van", "een", "en", "te", "straat", "betaling",
        "betalen", "binnen", "dagen", "graag", "bedankt", "klant", "klantnummer", "datum", "bv", "b.v",
        "pagina", "voor", "op", "bij", "uw", "o.v.v",
    }),
}
#: a language is chosen only with this many distinct marker words, and more than any other language has
MIN_MARKERS = 4
_WORD = re.compile(r"[^\W\d_][\w\-.]*", re.UNICODE)


def detect_language(text: str, candidates: Mapping[str, frozenset[str]] = LANGUAGE_MARKERS) -> str | None:
    """The candidate whose marker words the text uses most (distinct words), or None for English/unknown."""
    words = {w.strip(".-").lower() for w in _WORD.findall(text)}
    counts = sorted(((len(words & markers), language) for language, markers in candidates.items()), reverse=True)
    if not counts or counts[0][0] < MIN_MARKERS:
        return None
    if len(counts) > 1 and counts[1][0] == counts[0][0]:
        return None  # a tie says nothing
    return counts[0][1]


class LanguageRereadEngine:
    """The first engine's reading, or, when it reads as one of ``by_language``, that engine's."""

    def __init__(self, first: OcrEngine, by_language: Mapping[str, OcrEngine]) -> None:
        unknown = set(by_language) - set(LANGUAGE_MARKERS)
        if unknown:
            raise ValueError(f"no marker words for {sorted(unknown)}; known: {sorted(LANGUAGE_MARKERS)}")
        self.first = first
        self.by_language = dict(by_language)
        self.name = first.name
        self.settings_key = first.settings_key + "".join(
            f";reread:{language}=[{engine.settings_key}]" for language, engine in sorted(self.by_language.items()))

    @property
    def version(self) -> str:
        return self.first.version

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        first = self.first.recognize(image, dpi)
        language = detect_language(first.text, {k: LANGUAGE_MARKERS[k] for k in self.by_language})
        if language is None:
            return first
        return self.by_language[language].recognize(image, dpi)

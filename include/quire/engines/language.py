"""Read a page in English first; read it again with its own language's model when the words say German,
French, Dutch or Malay.

The English model turns accented letters into look-alikes ("Müller" -> "Miiller", "Société" ->
"Soci€té"), which the extraction then copies into vendor names and descriptions. Loading every
model on every page costs time on pages that need none of them (invoices in English);
a first reading in English tells the language from its label words at no extra cost,
and only pages in another language pay for a second reading. Each reading is cached on its own
(its engine's ``settings_key``), so a cached English reading stays valid when this is switched on.

A Malaysian till receipt labels its amounts in English ("TOTAL", "CASH", "THANK YOU") but prints its
vendor and address in Malay ("KEDAI MAKAN ...", "JALAN", "TAMAN", "SDN BHD"), so a page in English that
prints any Malay word reads as Malay. Its re-read with the Malay model (``msa`` in
``Settings.ocr_reread_languages``) is not on by default: on the SROIE receipts it misreads fewer
letters but more amounts. bench/ocr_quality.py region CER 6.86 -> 6.01 % (tune half 6.75 -> 6.23,
check half 6.96 -> 5.80); bench/accuracy.py SROIE tune half issue_date 100 -> 94.4 %, total_amount
94.4 -> 83.3 ("9.00" read "9.60"), vendor_name 88.9 -> 83.3, vendor_address 27.8 -> 38.9;
receipts-degraded total 70.8 -> 69.4, vendor_name 73.6 -> 75.0. Taking the English reading's words
wherever either reading printed a digit kept the tune half's totals but lost dates (check half
issue_date 83.3 -> 66.7); reading only the line re-read's sheets with the Malay model lost vendors
(tune half 88.9 -> 83.3).
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from quire.engines.ocr import OcrEngine, OcrResult
from quire.extraction.normalise import language_counts, language_of

#: tesseract's model for each language the extraction's detector names (quire.extraction.normalise)
TESSERACT_LANGUAGES = {"de": "deu", "fr": "fra", "nl": "nld", "ms": "msa"}


def detect_language(text: str) -> str | None:
    """The tesseract language of a page read in English, or None for English or no evidence.

    The same label vocabulary the extraction uses to tell a document's language; on the English
    reading of the 200 generated scanned invoices and the 36 SROIE receipts it named every page's
    language right (257 pages). A page in English or of no language that prints Malay words is Malay
    (its names and addresses are)."""
    counts = language_counts(text)
    language = language_of(counts)
    if language in (None, "en") and counts["ms"]:
        return TESSERACT_LANGUAGES["ms"]
    return TESSERACT_LANGUAGES.get(language or "")


class LanguageRereadEngine:
    """The first engine's reading, or, when it reads as one of ``by_language``, that engine's; in any other
    language ``otherwise``'s, if given (an engine that starts from the same reading, e.g. from its cache)."""

    def __init__(self, first: OcrEngine, by_language: Mapping[str, OcrEngine],
                 otherwise: OcrEngine | None = None) -> None:
        unknown = set(by_language) - set(TESSERACT_LANGUAGES.values())
        if unknown:
            raise ValueError(f"cannot detect {sorted(unknown)}; known: {sorted(TESSERACT_LANGUAGES.values())}")
        self.first = first
        self.by_language = dict(by_language)
        self.otherwise = otherwise
        self.name = first.name
        self.settings_key = first.settings_key + "".join(
            f";reread:{language}=[{engine.settings_key}]" for language, engine in sorted(self.by_language.items()))
        if otherwise is not None:
            self.settings_key += f";otherwise=[{otherwise.settings_key}]"

    @property
    def version(self) -> str:
        return self.first.version

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        first = self.first.recognize(image, dpi)
        language = detect_language(first.text)
        engine = self.by_language.get(language, self.otherwise) if language else self.otherwise
        return first if engine is None else engine.recognize(image, dpi)

"""Choosing a page's language from its first (English) reading, and reading it again in that language."""

from __future__ import annotations

import pytest
from PIL import Image

from quire.engines.language import LanguageRereadEngine, detect_language
from quire.engines.ocr import OcrResult


@pytest.mark.parametrize(("text", "language"), [
    ("Rechnungs-Nr.: RE-2024-77617 Datum: 15. April 2024 Zahlbar bis: 30. Mai 2024 Menge Einzelpreis Betrag "
     "Summe MwSt", "deu"),
    ("FACTURE N° F-2024-118 Date : 3 mars 2024 Désignation Qté Prix unitaire Montant HT TVA 20 % Total TTC",
     "fra"),
    ("Factuurnummer 2024-0031 Factuurdatum 4 maart 2024 Omschrijving Aantal Prijs Bedrag Subtotaal BTW 21% "
     "Totaal", "nld"),
    ("INVOICE No. 2024-60017 Date 06/24/2024 Description Qty Unit price Amount Subtotal Tax Total due", None),
    # a Malaysian receipt: English labels, its names and address in Malay
    ("KEDAI MAKAN JALAN TAMAN 81100 JOHOR BAHRU GST ID TAX INVOICE CASH TOTAL RM 9.00 THANK YOU", "msa"),
    ("Rechnung Datum Menge Betrag Summe MwSt Lieferant Sdn Bhd Jalan Ampang", "deu"),
    ("12.50 4,00", None),  # no words to tell by
])
def test_detect_language(text: str, language: str | None) -> None:
    assert detect_language(text) == language


class _FixedEngine:
    name = "fixed"
    version = "1"

    def __init__(self, text: str, key: str) -> None:
        self.text, self.settings_key, self.calls = text, key, 0

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        self.calls += 1
        return OcrResult(self.text, (), 0.9)


def test_a_german_page_is_read_again_and_an_english_one_is_not() -> None:
    image = Image.new("L", (10, 10), 255)
    german = _FixedEngine("Rechnung Datum Menge Betrag Summe", "deu+eng")
    engine = LanguageRereadEngine(_FixedEngine("Rechnung Datum Menge Betrag Summe", "eng"), {"deu": german})
    assert engine.recognize(image, 300).text == german.text and german.calls == 1
    english = LanguageRereadEngine(_FixedEngine("Invoice Date Qty Amount", "eng"), {"deu": german})
    assert english.recognize(image, 300).text == "Invoice Date Qty Amount" and german.calls == 1
    assert engine.settings_key == "eng;reread:deu=[deu+eng]"


def test_a_malaysian_receipt_is_read_with_the_malay_model_only_where_the_settings_ask_for_it() -> None:
    image = Image.new("L", (10, 10), 255)
    receipt = "KEDAI MAKAN JALAN TAMAN TOTAL RM 9.00 THANK YOU"
    malay = _FixedEngine(receipt + " (Malay)", "msa+eng")
    engine = LanguageRereadEngine(_FixedEngine(receipt, "eng"), {"deu": _FixedEngine("", "deu+eng"), "msa": malay})
    assert engine.recognize(image, 300).text == malay.text
    by_default = LanguageRereadEngine(_FixedEngine(receipt, "eng"), {"deu": _FixedEngine("", "deu+eng")})
    assert by_default.recognize(image, 300).text == receipt


def test_a_language_without_markers_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot detect"):
        LanguageRereadEngine(_FixedEngine("", "eng"), {"jpn": _FixedEngine("", "jpn")})


def test_an_english_page_goes_to_the_otherwise_engine() -> None:
    image = Image.new("L", (10, 10), 255)
    german = _FixedEngine("Rechnung Datum Menge Betrag Summe", "deu+eng")
    otherwise = _FixedEngine("Invoice Date Qty Amount (again)", "eng-2")
    engine = LanguageRereadEngine(_FixedEngine("Invoice Date Qty Amount", "eng"), {"deu": german}, otherwise)
    assert engine.recognize(image, 300).text == otherwise.text and german.calls == 0

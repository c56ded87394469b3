import pytest

from quire.extraction.classify import CLASSIFIER_VERSION, classify_document

CASES = {
    "invoice": "ACME Ltd            INVOICE\nInvoice No: 1\nBill To: Contoso\nDue Date: 01/02/2024\nTotal 10.00",
    "invoice_de": "Muster GmbH\nRechnung\nRechnungsnummer: 7\nZahlbar bis 01.02.2024\nGesamtbetrag 10,00",
    "receipt": "KEDAI ABC\nTAX INVOICE\nCASHIER: ANN\nTOTAL 9.00\nCASH 10.00\nCHANGE 1.00\nTHANK YOU",
    "credit_note": "ACME Ltd\nCREDIT NOTE\nCredit note no: CN-4\nRelates to invoice INV-1\nTotal -10.00",
    "credit_note_fr": "Dupont SARL\nAVOIR\nN° d'avoir : A-1\nFacture d'origine F-9\nTotal TTC -12,00",
    "purchase_order": "Contoso\nPURCHASE ORDER\nPO Number: 55\nShip via: truck\nTotal 100.00",
    "letter": "Jansen B.V.\nAmsterdam, 1 mei 2024\nGeachte heer,\nHierbij ...\nMet vriendelijke groet,",
    "other": "Minutes of the meeting\nAttendees: three\nNext meeting in June",
}


@pytest.mark.parametrize(("name", "text"), CASES.items())
def test_document_types(make_document, name, text):
    classification = classify_document(make_document(text))
    assert classification.doc_type == name.split("_de")[0].split("_fr")[0]
    assert 0.0 <= classification.confidence <= 1.0
    assert classification.classifier_version == CLASSIFIER_VERSION


def test_strong_evidence_gives_higher_confidence_than_weak(make_document):
    strong = classify_document(make_document(CASES["invoice"]))
    weak = classify_document(make_document("INVOICE\nTotal 10.00"))
    assert strong.doc_type == weak.doc_type == "invoice"
    assert strong.confidence > weak.confidence

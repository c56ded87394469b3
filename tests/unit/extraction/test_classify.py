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


def test_a_type_word_used_as_a_label_is_no_title(make_document):
    # a till receipt that labels its date "Invoice Date:" is still a receipt
    receipt = ("Data Services Ltd\nUnit 9, Church Lane\nReceipt\nTrans #: 9538-1\nInvoice Date: 27/07/2025\n"
               "Printing 10.95\nTOTAL 10.95\nPaid by card")
    assert classify_document(make_document(receipt)).doc_type == "receipt"


def test_the_earliest_title_wins_over_a_cited_order(make_document):
    # an invoice citing the customer's order ("Ihre Bestellung") in its head is an invoice
    invoice = ("Weber KG                         RECHNUNG\nHauptallee 1\nRechnungs-Nr.: RE-1\n"
               "Datum: 15. April 2024\nIhre Bestellung: BE-358456\nSumme brutto 10,00 €")
    assert classify_document(make_document(invoice)).doc_type == "invoice"
    order = "Weber KG                     Bestellung\nHauptallee 1\nBestell-Nr.: B-1\nDatum: 15. April 2024"
    assert classify_document(make_document(order)).doc_type == "purchase_order"


def test_a_dutch_order_titled_bestelling_is_a_purchase_order(make_document):
    order = ("JAN                                          Bestelling\nJan de Boer Schoonmaak        Ordernummer: IO-1\n"
             "Prinsenstraat 8\n9000 Gent                    Datum: 17/12/2025\nLeverancier\nMulder & Bos NV")
    assert classify_document(make_document(order)).doc_type == "purchase_order"


def test_a_german_till_receipt_and_a_credit_note_addressed_with_invoice_to(make_document):
    receipt = ("Hoffmann KG\nAm Mühlen 236\nKassenbeleg\nBeleg-Nr.: 3256-083516\nRechnungsdatum: 17.01.2025\n"
               "Versandkosten 20,00\nSUMME EUR 20,00\nBezahlt mit Karte")
    assert classify_document(make_document(receipt)).doc_type == "receipt"
    credit = ("Invoice to                                 LB\nBennett & Smith Inc.\n45 Station Avenue\n"
              "CREDIT NOTE\nCredit Memo # CN-2026-26816\nTotal USD -6760.00")
    assert classify_document(make_document(credit)).doc_type == "credit_note"


def test_a_simplified_tax_invoice_is_a_gst_till_receipt(make_document):
    """A GST country's till titles its receipt so; paid by card, it shows no cash or change."""
    receipt = ("SANYU STATIONERY SHOP\nNO. 31G&33G, JALAN SETIA INDAH\nSIMPLIFIED TAX INVOICE\n"
               "1 PAPER A4 10.50\nTOTAL 10.50\nVISA 10.50\n")
    assert classify_document(make_document(receipt)).doc_type == "receipt"
    assert classify_document(make_document(receipt.replace("SIMPLIFIED ", ""))).doc_type == "invoice"


def test_a_till_receipt_without_a_title_is_told_by_its_item_count_and_where_the_meal_was_had(make_document):
    receipt = "RESTORAN WAN SHENG\nNASI LEMAK 5.00\nTOTAL QTY: 1\nDINE IN\nTOTAL 5.00\n"
    assert classify_document(make_document(receipt)).doc_type == "receipt"
    assert classify_document(make_document(receipt.replace("TOTAL QTY: 1\nDINE IN\n", ""))).doc_type == "other"


def test_a_till_receipt_prints_the_time_of_the_sale_beside_its_date(make_document):
    receipt = "KEDAI ABC\nDate: 17/04/18 10:15:18\nNASI LEMAK 5.00\nTOTAL 5.00\nTHANK YOU\n"
    assert classify_document(make_document(receipt)).doc_type == "receipt"
    # a time of day apart from any date is no till's stamp (a letter's meeting, a timesheet's hours)
    assert classify_document(make_document(receipt.replace("Date: 17/04/18 10:15:18", "Date: 17/04/18\n10:15")))\
        .doc_type == "other"


@pytest.mark.parametrize(("title", "doc_type"), [
    ("RE CHNUNG", "invoice"),  # OCR split the title in spaced capitals at a wider gap
    ("RECHN UNG", "invoice"),
    ("PURCH ASE ORDER", "purchase_order"),
    ("CRE DIT NOTE", "credit_note"),
])
def test_a_title_in_spaced_capitals_that_ocr_read_in_pieces_is_still_the_title(make_document, title, doc_type):
    document = (f"{title}                  Müller Druckerei GmbH\nIndustrieallee 240\n6020 Innsbruck\n"
                "Nr.: 2026/14373\nDatum: 20.07.2026\nBetrag 120,00")
    assert classify_document(make_document(document)).doc_type == doc_type

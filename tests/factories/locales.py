"""How documents from one country look: labels, date and number formats, currencies, names.

Everything here is data plus pure formatting functions. A :class:`Region` fixes the
conventions a vendor's software would use (an Austrian vendor writes "12.03.2026" and
"1.234,56 €"); the per-document choices among several plausible variants are made by the
generator with its seeded random source, so the same seed always prints the same text.
All strings stay inside the WinAnsi character set so the PDF base-14 fonts can show them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

# -- labels ----------------------------------------------------------------------------------------------

#: label key -> language -> printed variants (the generator picks one per document)
LABELS: dict[str, dict[str, tuple[str, ...]]] = {
    "invoice_title": {"en": ("Invoice", "INVOICE", "Tax Invoice"), "de": ("Rechnung", "RECHNUNG"),
                      "fr": ("Facture", "FACTURE"), "nl": ("Factuur", "FACTUUR")},
    "credit_note_title": {"en": ("Credit Note", "CREDIT NOTE", "Credit Memo"),
                          "de": ("Gutschrift", "GUTSCHRIFT", "Rechnungskorrektur"),
                          "fr": ("Avoir", "AVOIR", "Note de crédit"), "nl": ("Creditnota", "CREDITNOTA")},
    "purchase_order_title": {"en": ("Purchase Order", "PURCHASE ORDER"), "de": ("Bestellung", "BESTELLUNG"),
                             "fr": ("Bon de commande", "BON DE COMMANDE"), "nl": ("Inkooporder", "Bestelling")},
    "receipt_title": {"en": ("Receipt", "SALES RECEIPT"), "de": ("Quittung", "Kassenbeleg"),
                      "fr": ("Reçu", "Ticket de caisse"), "nl": ("Kassabon", "Bon")},
    "invoice_number": {"en": ("Invoice No.", "Invoice #", "Invoice Number"),
                       "de": ("Rechnungsnummer", "Rechnungs-Nr.", "Rechnung Nr."),
                       "fr": ("N° de facture", "Facture n°", "Numéro de facture"),
                       "nl": ("Factuurnummer", "Factuurnr.")},
    "credit_note_number": {"en": ("Credit Note No.", "Credit Memo #"), "de": ("Gutschrift-Nr.", "Gutschriftsnummer"),
                           "fr": ("N° d'avoir", "Avoir n°"), "nl": ("Creditnotanummer", "Creditnota nr.")},
    "purchase_order_number": {"en": ("PO Number", "Order No."), "de": ("Bestellnummer", "Bestell-Nr."),
                              "fr": ("N° de commande", "Commande n°"), "nl": ("Ordernummer", "Bestelnummer")},
    "receipt_number": {"en": ("Receipt No.", "Trans #"), "de": ("Beleg-Nr.", "Bon-Nr."),
                       "fr": ("Ticket n°", "N° de ticket"), "nl": ("Bonnummer", "Bonnr.")},
    "date": {"en": ("Date", "Invoice Date", "Issue date"), "de": ("Datum", "Rechnungsdatum"),
             "fr": ("Date", "Date de facture", "Date d'émission"), "nl": ("Datum", "Factuurdatum")},
    "due_date": {"en": ("Due date", "Payment due", "Due Date"), "de": ("Fälligkeitsdatum", "Fällig am", "Zahlbar bis"),
                 "fr": ("Échéance", "Date d'échéance"), "nl": ("Vervaldatum", "Te betalen voor")},
    "bill_to": {"en": ("Bill to", "Invoice to", "Customer"), "de": ("Rechnungsempfänger", "Kunde", "An"),
                "fr": ("Facturé à", "Client", "Destinataire"), "nl": ("Factuuradres", "Klant", "Aan")},
    "customer_number": {"en": ("Customer ID", "Account No."), "de": ("Kundennummer", "Kunden-Nr."),
                        "fr": ("N° client", "Code client"), "nl": ("Klantnummer", "Debiteurnr.")},
    "reference": {"en": ("Your reference", "PO Ref."), "de": ("Ihre Bestellung", "Ihr Zeichen"),
                  "fr": ("Votre référence", "Réf. commande"), "nl": ("Uw referentie", "Uw ordernr.")},
    "position": {"en": ("#", "Item"), "de": ("Pos.", "Pos"), "fr": ("#", "Réf."), "nl": ("#", "Nr.")},
    "description": {"en": ("Description", "Item / Service", "Details"),
                    "de": ("Beschreibung", "Bezeichnung", "Artikel"),
                    "fr": ("Désignation", "Description"), "nl": ("Omschrijving", "Artikel")},
    "quantity": {"en": ("Qty", "Quantity", "Hrs/Qty"), "de": ("Menge", "Anzahl"), "fr": ("Qté", "Quantité"),
                 "nl": ("Aantal", "Hoeveelheid")},
    "unit_price": {"en": ("Unit Price", "Rate", "Price"), "de": ("Einzelpreis", "E-Preis", "Preis/Einheit"),
                   "fr": ("Prix unitaire", "P.U. HT"), "nl": ("Prijs", "Stukprijs", "Tarief")},
    "amount": {"en": ("Amount", "Line Total", "Total"), "de": ("Betrag", "Gesamt", "Gesamtpreis"),
               "fr": ("Montant", "Montant HT", "Total HT"), "nl": ("Bedrag", "Totaal")},
    "subtotal": {"en": ("Subtotal", "Net amount", "Sub-total"), "de": ("Zwischensumme", "Nettobetrag", "Summe netto"),
                 "fr": ("Sous-total", "Total HT"), "nl": ("Subtotaal", "Totaal excl. btw")},
    "tax": {"en": ("VAT {rate}%", "VAT @ {rate}%"), "de": ("MwSt. {rate} %", "USt. {rate}%", "zzgl. {rate} % MwSt."),
            "fr": ("TVA {rate} %", "TVA ({rate}%)"), "nl": ("BTW {rate}%", "Btw {rate}%")},
    "sales_tax": {"en": ("Sales Tax ({rate}%)", "Tax {rate}%")},
    "total": {"en": ("Total", "Total due", "Amount due", "TOTAL"),
              "de": ("Gesamtbetrag", "Rechnungsbetrag", "Summe brutto"),
              "fr": ("Total TTC", "Net à payer", "Montant TTC"), "nl": ("Totaal", "Te betalen", "Totaal incl. btw")},
    "receipt_total": {"en": ("TOTAL", "Total"), "de": ("SUMME", "Gesamt"), "fr": ("TOTAL", "Total TTC"),
                      "nl": ("TOTAAL", "Totaal")},
    "credit_total": {"en": ("Total credit", "Amount credited"), "de": ("Gutschriftsbetrag", "Gesamtbetrag"),
                     "fr": ("Total TTC", "Montant de l'avoir"), "nl": ("Totaal", "Te crediteren")},
    "page": {"en": ("Page {page} of {pages}",), "de": ("Seite {page} von {pages}",),
             "fr": ("Page {page} sur {pages}", "Page {page}/{pages}"), "nl": ("Pagina {page} van {pages}",)},
    "continued_next": {"en": ("Continued on next page", "continued overleaf"),
                       "de": ("Fortsetzung auf der nächsten Seite", "Fortsetzung folgt"),
                       "fr": ("Suite page suivante", "Suite au verso"), "nl": ("Vervolg op volgende pagina",)},
    "continued_header": {"en": ("(continued)", "(cont.)"), "de": ("(Fortsetzung)",), "fr": ("(suite)",),
                         "nl": ("(vervolg)",)},
    "carried_forward": {"en": ("Carried forward",), "de": ("Übertrag",), "fr": ("À reporter",),
                        "nl": ("Transport",)},
    "brought_forward": {"en": ("Brought forward",), "de": ("Übertrag",), "fr": ("Report",), "nl": ("Transport",)},
    "payment_terms": {"en": ("Payment terms: {days} days net", "Please pay within {days} days."),
                      "de": ("Zahlbar innerhalb von {days} Tagen ohne Abzug.", "Zahlungsziel: {days} Tage netto"),
                      "fr": ("Paiement à {days} jours.", "Conditions de paiement : {days} jours net"),
                      "nl": ("Betaling binnen {days} dagen.", "Betalingstermijn: {days} dagen")},
    "due_on_receipt": {"en": ("Payable upon receipt.",), "de": ("Zahlbar sofort nach Erhalt.",),
                       "fr": ("Payable à réception.",), "nl": ("Direct te voldoen.",)},
    "thanks": {"en": ("Thank you for your business!", "We appreciate your prompt payment."),
               "de": ("Vielen Dank für Ihren Auftrag!", "Wir danken für Ihr Vertrauen."),
               "fr": ("Merci de votre confiance.", "Nous vous remercions de votre commande."),
               "nl": ("Bedankt voor uw opdracht!", "Wij danken u voor uw bestelling.")},
    "credit_reason": {"en": ("Credit for returned goods on invoice {ref}", "Correction of invoice {ref}"),
                      "de": ("Gutschrift zur Rechnung {ref}", "Korrektur der Rechnung {ref}"),
                      "fr": ("Avoir sur facture {ref}", "Annule et remplace la facture {ref}"),
                      "nl": ("Creditering van factuur {ref}", "Correctie op factuur {ref}")},
    "vat_id": {"en": ("VAT Reg. No.", "Tax ID"), "de": ("USt-IdNr.", "Steuernummer"), "fr": ("N° TVA", "TVA intracom."),
               "nl": ("Btw-nr.", "BTW-nummer")},
    "bank": {"en": ("Bank details",), "de": ("Bankverbindung",), "fr": ("Coordonnées bancaires",),
             "nl": ("Bankgegevens",)},
    "phone": {"en": ("Tel.",), "de": ("Tel.",), "fr": ("Tél.",), "nl": ("Tel.",)},
    "currency_note": {"en": ("All amounts in {code}",), "de": ("Alle Beträge in {code}",),
                      "fr": ("Montants exprimés en {code}",), "nl": ("Alle bedragen in {code}",)},
    "paid_by": {"en": ("Paid by card",), "de": ("Bezahlt mit Karte",), "fr": ("Payé par carte",),
                "nl": ("Betaald met pin",)},
    "change": {"en": ("Change",), "de": ("Rückgeld",), "fr": ("Rendu",), "nl": ("Wisselgeld",)},
    "po_deliver_to": {"en": ("Deliver to",), "de": ("Lieferanschrift",), "fr": ("Adresse de livraison",),
                      "nl": ("Afleveradres",)},
    "po_supplier": {"en": ("Supplier",), "de": ("Lieferant",), "fr": ("Fournisseur",), "nl": ("Leverancier",)},
}

MONTHS = {
    "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"),
    "de": ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
           "November", "Dezember"),
    "fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
           "novembre", "décembre"),
    "nl": ("januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober",
           "november", "december"),
}


# -- formats ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class NumberFormat:
    decimal_separator: str
    group_separator: str  # "" prints plain numbers: 1234.56

    def format(self, value: Decimal, places: int = 2) -> str:
        quantised = value.quantize(Decimal(1).scaleb(-places))
        integer, _, fraction = f"{abs(quantised):f}".partition(".")
        groups = []
        while len(integer) > 3:
            groups.insert(0, integer[-3:])
            integer = integer[:-3]
        groups.insert(0, integer)
        body = self.group_separator.join(groups) + (self.decimal_separator + fraction if fraction else "")
        return ("-" if quantised < 0 else "") + body

    def format_quantity(self, value: Decimal, places: int | None) -> str:
        """``places=None`` prints as few decimals as the value needs (``3``, ``2,5``)."""
        if places is None:
            normalised = value.normalize()
            places = max(0, -normalised.as_tuple().exponent)
        return self.format(value, places)


@dataclass(frozen=True, slots=True)
class MoneyFormat:
    """Where the currency goes around a formatted number (sign included in the number)."""

    pattern: str  # with {number} and {symbol} or {code}: "{symbol}{number}", "{number} {code}"

    def format(self, number: str, currency: Currency) -> str:
        return self.pattern.format(number=number, symbol=currency.symbol, code=currency.code)


@dataclass(frozen=True, slots=True)
class Currency:
    code: str
    symbol: str


CURRENCIES = {
    "EUR": Currency("EUR", "€"), "USD": Currency("USD", "$"), "GBP": Currency("GBP", "£"),
    "CHF": Currency("CHF", "CHF"),
}

DATE_STYLES = ("iso", "dmy_dot", "dmy_slash", "dmy_dash", "mdy_slash", "long")


def format_date(value: date, style: str, language: str, region: str) -> str:
    if style == "iso":
        return value.isoformat()
    if style == "dmy_dot":
        return f"{value.day:02d}.{value.month:02d}.{value.year}"
    if style == "dmy_slash":
        return f"{value.day:02d}/{value.month:02d}/{value.year}"
    if style == "dmy_dash":
        return f"{value.day:02d}-{value.month:02d}-{value.year}"
    if style == "mdy_slash":
        return f"{value.month:02d}/{value.day:02d}/{value.year}"
    month = MONTHS[language][value.month - 1]
    if language == "en":
        return f"{month} {value.day}, {value.year}" if region == "US" else f"{value.day} {month} {value.year}"
    if language == "de":
        return f"{value.day}. {month} {value.year}"
    if language == "fr":
        return f"{'1er' if value.day == 1 else value.day} {month} {value.year}"
    return f"{value.day} {month} {value.year}"


# -- regions ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Region:
    code: str  # ISO 3166 alpha-2
    calling_code: str
    language: str
    country_name: str  # as the vendor would print it
    currency: str
    page_size: str  # "A4" or "LETTER"
    date_styles: tuple[str, ...]
    number_formats: tuple[NumberFormat, ...]
    money_formats: tuple[MoneyFormat, ...]
    tax_rates: tuple[Decimal, ...]
    legal_forms: tuple[str, ...]
    cities: tuple[tuple[str, str], ...]  # (postcode, city); US postcodes carry the state: "CA 94103"


_DOT = NumberFormat(".", ",")
_COMMA = NumberFormat(",", ".")
_SPACE_COMMA = NumberFormat(",", " ")
_NBSP_COMMA = NumberFormat(",", "\u00a0")
_APOSTROPHE_DOT = NumberFormat(".", "'")
_PLAIN_DOT = NumberFormat(".", "")
_PLAIN_COMMA = NumberFormat(",", "")

_SYMBOL_BEFORE = MoneyFormat("{symbol}{number}")
_SYMBOL_BEFORE_SPACED = MoneyFormat("{symbol} {number}")
_SYMBOL_AFTER = MoneyFormat("{number} {symbol}")
_CODE_BEFORE = MoneyFormat("{code} {number}")
_CODE_AFTER = MoneyFormat("{number} {code}")

REGIONS: dict[str, Region] = {r.code + "-" + r.language: r for r in (
    Region("US", "+1", "en", "USA", "USD", "LETTER", ("mdy_slash", "long", "iso"), (_DOT, _PLAIN_DOT),
           (_SYMBOL_BEFORE, _CODE_BEFORE), (Decimal("0"), Decimal("6.25"), Decimal("7"), Decimal("8.875")),
           ("Inc.", "LLC", "Corp."),
           (("CA 94103", "San Francisco"), ("TX 78701", "Austin"), ("IL 60601", "Chicago"),
            ("MA 02110", "Boston"), ("CO 80202", "Denver"), ("WA 98101", "Seattle"))),
    Region("GB", "+44", "en", "United Kingdom", "GBP", "A4", ("dmy_slash", "long", "iso"), (_DOT, _PLAIN_DOT),
           (_SYMBOL_BEFORE, _CODE_BEFORE, _CODE_AFTER), (Decimal("20"), Decimal("5")), ("Ltd", "Ltd.", "PLC"),
           (("EC1A 1BB", "London"), ("M1 1AE", "Manchester"), ("LS1 4DY", "Leeds"), ("BS1 5TR", "Bristol"),
            ("EH1 1YZ", "Edinburgh"))),
    Region("IE", "+353", "en", "Ireland", "EUR", "A4", ("dmy_slash", "long"), (_DOT,),
           (_SYMBOL_BEFORE, _CODE_BEFORE), (Decimal("23"), Decimal("13.5")), ("Ltd", "Limited"),
           (("D02 XY45", "Dublin 2"), ("T12 W8CV", "Cork"), ("H91 E2K3", "Galway"))),
    Region("DE", "+49", "de", "Deutschland", "EUR", "A4", ("dmy_dot", "long", "iso"), (_COMMA, _PLAIN_COMMA),
           (_SYMBOL_AFTER, _CODE_BEFORE, _CODE_AFTER), (Decimal("19"), Decimal("7")), ("GmbH", "AG", "KG", "e.K."),
           (("10115", "Berlin"), ("20095", "Hamburg"), ("80331", "München"), ("50667", "Köln"),
            ("60311", "Frankfurt am Main"), ("70173", "Stuttgart"), ("04109", "Leipzig"))),
    Region("AT", "+43", "de", "Österreich", "EUR", "A4", ("dmy_dot", "long"), (_COMMA, _SPACE_COMMA),
           (_SYMBOL_BEFORE_SPACED, _SYMBOL_AFTER, _CODE_BEFORE), (Decimal("20"), Decimal("10")), ("GmbH", "OG", "KG"),
           (("1010", "Wien"), ("8010", "Graz"), ("5020", "Salzburg"), ("6020", "Innsbruck"))),
    Region("CH", "+41", "de", "Schweiz", "CHF", "A4", ("dmy_dot", "long"), (_APOSTROPHE_DOT, _PLAIN_DOT),
           (_CODE_BEFORE, _CODE_AFTER), (Decimal("8.1"), Decimal("2.6")), ("AG", "GmbH"),
           (("8001", "Zürich"), ("3011", "Bern"), ("4051", "Basel"), ("6003", "Luzern"))),
    Region("FR", "+33", "fr", "France", "EUR", "A4", ("dmy_slash", "long", "iso"),
           (_SPACE_COMMA, _NBSP_COMMA, _PLAIN_COMMA),
           (_SYMBOL_AFTER, _CODE_AFTER), (Decimal("20"), Decimal("10"), Decimal("5.5")), ("SARL", "SAS", "SA"),
           (("75002", "Paris"), ("69002", "Lyon"), ("13001", "Marseille"), ("31000", "Toulouse"),
            ("33000", "Bordeaux"), ("44000", "Nantes"))),
    Region("BE", "+32", "fr", "Belgique", "EUR", "A4", ("dmy_slash", "long"), (_COMMA, _SPACE_COMMA),
           (_SYMBOL_AFTER, _SYMBOL_BEFORE_SPACED), (Decimal("21"), Decimal("6")), ("SRL", "SA"),
           (("1000", "Bruxelles"), ("4000", "Liège"), ("5000", "Namur"))),
    Region("CH", "+41", "fr", "Suisse", "CHF", "A4", ("dmy_dot", "long"), (_APOSTROPHE_DOT,),
           (_CODE_BEFORE, _CODE_AFTER), (Decimal("8.1"),), ("SA", "Sàrl"),
           (("1201", "Genève"), ("1003", "Lausanne"), ("2000", "Neuchâtel"))),
    Region("NL", "+31", "nl", "Nederland", "EUR", "A4", ("dmy_dash", "long", "iso"), (_COMMA, _PLAIN_COMMA),
           (_SYMBOL_BEFORE_SPACED, _CODE_BEFORE), (Decimal("21"), Decimal("9")), ("B.V.", "V.O.F."),
           (("1015 CJ", "Amsterdam"), ("3011 AD", "Rotterdam"), ("3511 LX", "Utrecht"), ("2511 BT", "Den Haag"),
            ("5611 AB", "Eindhoven"))),
    Region("BE", "+32", "nl", "België", "EUR", "A4", ("dmy_slash", "dmy_dot", "long"), (_COMMA,),
           (_SYMBOL_BEFORE_SPACED, _SYMBOL_AFTER), (Decimal("21"), Decimal("6")), ("BV", "NV"),
           (("2000", "Antwerpen"), ("9000", "Gent"), ("3000", "Leuven"), ("8000", "Brugge"))),
)}

#: regions per language, most common first (the generator weights the first higher)
REGIONS_BY_LANGUAGE: dict[str, tuple[str, ...]] = {
    "en": ("US-en", "GB-en", "IE-en"), "de": ("DE-de", "AT-de", "CH-de"), "fr": ("FR-fr", "BE-fr", "CH-fr"),
    "nl": ("NL-nl", "BE-nl"),
}


# -- names and things ------------------------------------------------------------------------------------

SURNAMES = {
    "en": ("Smith", "Carter", "Miller", "Hughes", "Bennett", "Foster", "Reed", "Walsh", "Murphy", "Palmer"),
    "de": ("Müller", "Schmidt", "Weber", "Becker", "Hoffmann", "Schäfer", "Koch", "Wagner", "Krüger", "Zimmermann"),
    "fr": ("Martin", "Bernard", "Dubois", "Lefèvre", "Moreau", "Laurent", "Girard", "Fontaine", "Rousseau",
           "Chevalier"),
    "nl": ("de Vries", "Jansen", "Bakker", "Visser", "Smit", "Meijer", "de Boer", "Mulder", "Bos", "Vermeulen"),
}

TRADES = {
    "en": ("Consulting", "Logistics", "Software", "Office Supplies", "Print Works", "Engineering", "Facilities",
           "Data Services", "Catering", "Electrical"),
    "de": ("Bürotechnik", "Logistik", "Softwareentwicklung", "Druckerei", "Haustechnik", "Beratung",
           "Elektrotechnik", "Gebäudereinigung", "Maschinenbau", "Medienservice"),
    "fr": ("Conseil", "Transports", "Imprimerie", "Informatique", "Bâtiment", "Nettoyage", "Électricité",
           "Fournitures", "Traiteur", "Ingénierie"),
    "nl": ("Advies", "Transport", "Drukkerij", "Installatietechniek", "ICT", "Schoonmaak", "Bouw",
           "Kantoorartikelen", "Catering", "Techniek"),
}

#: street patterns per language: "{name}" is filled from STREET_NAMES, "{n}" with a house number
STREET_PATTERNS = {
    "en": ("{n} {name} Street", "{n} {name} Avenue", "{n} {name} Road", "Unit {u}, {n} {name} Lane"),
    "de": ("{name}straße {n}", "{name}weg {n}", "Am {name} {n}", "{name}allee {n}"),
    "fr": ("{n} rue {name}", "{n} avenue {name}", "{n} boulevard {name}", "{n}, place {name}"),
    "nl": ("{name}straat {n}", "{name}laan {n}", "{name}gracht {n}", "{name}weg {n}"),
}
STREET_NAMES = {
    "en": ("Market", "Oak", "Maple", "Church", "Station", "Mill", "Harbour", "King", "Victoria", "Park"),
    "de": ("Haupt", "Bahnhof", "Linden", "Schiller", "Goethe", "Garten", "Industrie", "Mühlen", "Kirch", "Berg"),
    "fr": ("de la Paix", "Victor Hugo", "de la République", "Pasteur", "des Lilas", "du Moulin", "Jean Jaurès",
           "de la Gare", "Voltaire", "des Écoles"),
    "nl": ("Kerk", "Molen", "Stations", "Dorps", "Prinsen", "Heren", "Linden", "Wilhelmina", "Beuk", "Haven"),
}

#: (description, may the quantity have decimals) per language; kept short enough for narrow columns
ITEMS = {
    "en": (("Consulting services (hours)", True), ("Software licence, annual", False), ("On-site support", True),
           ("Copy paper A4, 80 g/m², box", False), ("Laser toner cartridge, black", False),
           ("Project management", True), ("Delivery and handling", False), ("Network switch 24-port", False),
           ("Cloud hosting, monthly plan", False), ("Office chair, ergonomic", False), ("Training workshop", True),
           ("Cable CAT6, per metre", True), ("Maintenance contract Q2", False), ("Design revisions", True),
           ("USB-C docking station", False), ("Printing of brochures (x100)", False),
           ("Coffee beans, organic (kg)", True), ("Travel expenses", False), ("Data migration", True),
           ("Security audit", False)),
    "de": (("Beratungsleistung (Stunden)", True), ("Softwarelizenz, jährlich", False), ("Vor-Ort-Service", True),
           ("Kopierpapier A4, 80 g/m², Karton", False), ("Tonerkartusche schwarz", False),
           ("Projektleitung", True), ("Versandkosten", False), ("Netzwerk-Switch 24 Port", False),
           ("Wartungsvertrag Q2", False), ("Bürostuhl, ergonomisch", False), ("Schulung Mitarbeiter", True),
           ("Kabel CAT6, je Meter", True), ("Montage und Installation", True), ("Entsorgung Altgeräte", False),
           ("Druck Flyer DIN A5 (1000 Stk.)", False), ("Kaffeebohnen, Bio (kg)", True),
           ("Fahrtkosten pauschal", False), ("Datenmigration", True), ("Reinigung Büroflächen (m²)", True),
           ("Gerüststellung", False)),
    "fr": (("Prestation de conseil (heures)", True), ("Licence logicielle annuelle", False),
           ("Intervention sur site", True), ("Papier A4 80 g/m², carton", False), ("Cartouche de toner noir", False),
           ("Gestion de projet", True), ("Frais de livraison", False), ("Commutateur réseau 24 ports", False),
           ("Contrat de maintenance T2", False), ("Fauteuil de bureau", False), ("Formation du personnel", True),
           ("Câble CAT6, au mètre", True), ("Installation et mise en service", True),
           ("Impression de dépliants (x500)", False), ("Café en grains bio (kg)", True),
           ("Frais de déplacement", False), ("Migration de données", True), ("Nettoyage des locaux (m²)", True),
           ("Audit de sécurité", False), ("Main d'oeuvre", True)),
    "nl": (("Adviesdiensten (uren)", True), ("Softwarelicentie, jaarlijks", False), ("Service op locatie", True),
           ("Kopieerpapier A4, 80 g/m², doos", False), ("Tonercartridge zwart", False),
           ("Projectmanagement", True), ("Verzendkosten", False), ("Netwerkswitch 24 poorten", False),
           ("Onderhoudscontract Q2", False), ("Bureaustoel, ergonomisch", False), ("Training medewerkers", True),
           ("Kabel CAT6, per meter", True), ("Montage en installatie", True), ("Drukwerk folders (500 st.)", False),
           ("Koffiebonen, biologisch (kg)", True), ("Reiskosten", False), ("Datamigratie", True),
           ("Schoonmaak kantoor (m²)", True), ("Beveiligingsaudit", False), ("Arbeidsloon", True)),
}

#: paragraphs for letters; a letter joins a salutation, two or three of these and a closing
LETTER_TEXT = {
    "en": {"subject": ("Change of bank details", "Annual price review", "Your enquiry of last week",
                       "Confirmation of our meeting"),
           "salutation": ("Dear Sir or Madam,", "Dear customer,"),
           "body": ("We would like to inform you that our office will move to a new address next month.",
                    "Please find enclosed the documents you requested during our last conversation.",
                    "As announced, our prices will be adjusted at the beginning of the next quarter.",
                    "Should you have any questions, our team will be pleased to assist you.",
                    "We thank you for the pleasant cooperation over the past year."),
           "closing": ("Kind regards,", "Yours faithfully,", "Sincerely,")},
    "de": {"subject": ("Änderung unserer Bankverbindung", "Preisanpassung zum Quartalsbeginn",
                       "Ihre Anfrage vom letzten Monat", "Bestätigung unseres Termins"),
           "salutation": ("Sehr geehrte Damen und Herren,", "Sehr geehrte Kundin, sehr geehrter Kunde,"),
           "body": ("hiermit möchten wir Sie darüber informieren, dass unser Büro im nächsten Monat umzieht.",
                    "Anbei erhalten Sie die gewünschten Unterlagen zu unserem letzten Gespräch.",
                    "Wie angekündigt, passen wir unsere Preise zum Beginn des nächsten Quartals an.",
                    "Für Rückfragen steht Ihnen unser Team jederzeit gerne zur Verfügung.",
                    "Wir bedanken uns für die angenehme Zusammenarbeit im vergangenen Jahr."),
           "closing": ("Mit freundlichen Grüßen", "Freundliche Grüße")},
    "fr": {"subject": ("Changement de coordonnées bancaires", "Révision annuelle des tarifs",
                       "Votre demande du mois dernier", "Confirmation de notre rendez-vous"),
           "salutation": ("Madame, Monsieur,",),
           "body": ("Nous vous informons que nos bureaux déménageront le mois prochain.",
                    "Veuillez trouver ci-joint les documents demandés lors de notre dernier entretien.",
                    "Comme annoncé, nos tarifs seront ajustés au début du prochain trimestre.",
                    "Notre équipe reste à votre disposition pour toute question.",
                    "Nous vous remercions pour votre agréable collaboration au cours de l'année écoulée."),
           "closing": ("Veuillez agréer nos salutations distinguées.", "Cordialement,")},
    "nl": {"subject": ("Wijziging bankgegevens", "Jaarlijkse prijsaanpassing", "Uw aanvraag van vorige maand",
                       "Bevestiging van onze afspraak"),
           "salutation": ("Geachte heer, mevrouw,", "Beste klant,"),
           "body": ("Graag informeren wij u dat ons kantoor volgende maand verhuist.",
                    "Bijgaand ontvangt u de documenten die u tijdens ons laatste gesprek heeft opgevraagd.",
                    "Zoals aangekondigd worden onze prijzen aan het begin van het volgende kwartaal aangepast.",
                    "Voor vragen staat ons team graag voor u klaar.",
                    "Wij danken u voor de prettige samenwerking in het afgelopen jaar."),
           "closing": ("Met vriendelijke groet,", "Hoogachtend,")},
}

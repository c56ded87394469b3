"""The printed labels Quire recognises, in English, German, French, Dutch (and Malay receipts).

Kept apart from the code that uses them so that adding a language is a data change.
Patterns are matched case-insensitively against a line's text.
"""

from __future__ import annotations

import re


#: a label's left edge: no letter or digit before it, but OCR's underscores may be ("_Rechnungs-Nr.")
_START = r"(?<![^\W_])"


def _any(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{_START}{p[2:]})" if p.startswith(r"\b") else f"(?:{p})" for p in patterns),
                      re.IGNORECASE)


#: also "Number" with a space OCR set inside it ("N umber")
_NO = r"(?:no|nr|n[°o]|n(?:\s(?=umber))?um(?:ber|mer|éro|ero)?|#)\.?"
#: "n°" after a word, also with the degree sign OCR reads as a question mark ("Commande n? :")
_N_DEGREE = r"n[°o?]"
#: "Invoice", also with the capital I OCR reads as J ("Jnvoice No.")
_INVOICE = r"[ij]nvoice"
#: a point or comma OCR read after "Invoice" from a speck ("Invoice. Number:")
_SPECK_MARK = r"[.,]?"

INVOICE_NUMBER = _any(
    rf"\b(?:tax\s+)?{_INVOICE}{_SPECK_MARK}[\s-]*(?:{_NO}|id\b)", rf"\binv\.?\s*{_NO}", rf"\bbill\s*{_NO}", rf"\breceipt\s*{_NO}",
    rf"\b(?:document|doc)\s*{_NO}", rf"\bcredit\s*note\s*{_NO}", rf"\bcredit\s*memo\s*{_NO}",
    rf"\btrans(?:action)?\s*{_NO}", r"\bbeleg[\s-]*(?:nummer|nr\.?)", r"\bbon[\s-]*(?:nummer|nr\.?)",
    r"\bbonnr\.?", rf"\bticket\s*{_N_DEGREE}", r"\bn[°o]\s*de\s*ticket",
    r"\brechnungs?[\s-]*(?:nummer|nr\.?)", r"\bgutschrifts?[\s-]*(?:nummer|nr\.?)",
    r"\bn[°o]\s*(?:de\s+)?(?:la\s+)?facture", rf"\bfacture\s*{_N_DEGREE}", r"\bnum[ée]ro\s*de\s*(?:la\s+)?facture",
    r"\bn[°o]\s*d['’]avoir", rf"\bavoir\s*{_N_DEGREE}",
    r"\bfactuur\s*(?:nummer|nr\.?)", r"\bfactuurnr\.?", r"\bcreditnota\s*(?:nummer|nr\.?)",
    rf"\b{_INVOICE}\s*(?=:)",
    # the label's first letter lost to OCR ("echnungs-Nr", "actuurnr"): no other word reads so
    r"\bechnungs?[\s-]*(?:nummer|nr\.?)", r"\bactuur\s*(?:nummer|nr\.?)", r"\bactuurnr\.?",
)
#: words that name a document type, before its number where the label itself is misread
DOCUMENT_WORD = _any(rf"\b{_INVOICE}\b", r"\brechnung\b", r"\bfacture\b", r"\bfactuur\b", r"\bcredit(?:\s*note)?\b",
                     r"\bgutschrift\b", r"\bavoir\b", r"\bcreditnota\b", r"\breceipt\b", r"\bticket\b",
                     r"\bbeleg\b", r"\bkassabon\b")
#: order numbers: the document number of a purchase order, but only a reference on an invoice,
#: so they are read only where no invoice/credit/receipt number is printed
ORDER_NUMBER = _any(
    rf"\bpurchase\s*order\s*{_NO}", rf"\bp\.?o\.?\s*{_NO}", rf"\border\s*{_NO}", rf"\bcommande\s*{_N_DEGREE}",
    r"\bordernummer", r"\bordernr\.?", r"\bbestelnummer", r"\bbestell[\s-]*(?:nummer|nr\.?)",
    r"\bn[°o]\s*de\s*commande",
)

#: (kind, pattern); a longer label wins over a shorter one it contains ("due date" over "date")
DATE_LABELS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("issue_date", _any(r"\binvoice\s*date", r"\bdate\s*of\s*(?:issue|invoice)", r"\bissue[d]?\s*(?:date|on)",
                        r"\bbill\s*date", r"\bdocument\s*date", r"\brechnungsdatum", r"\bausstellungsdatum",
                        r"\bdate\s*de\s*(?:la\s+)?facture", r"\bdate\s*d['’][ée]mission", r"\bfactuurdatum",
                        r"\bdatum\b", r"\bdate\b", r"\bdated\b", r"\btarikh\b")),
    ("due_date", _any(r"\bdue\s*date", r"\bdate\s*due\b(?!\s*date)", r"\bpayment\s*due(?:\s*date)?",
                      r"\bdue\s*(?:by|on)\b",
                      r"\bpay\s*by\b", r"\bdate\s*limite(?:\s*de\s*(?:paiement|r[èe]glement))?",
                      r"\b[àa]\s*payer\s*avant\b", r"\buiterste\s*betaal(?:datum|dag)",
                      r"\bf[äa]lligkeit(?:sdatum)?", r"\bf[äa]llig\s*(?:am|bis)?", r"\bzahlbar\s*bis",
                      r"\bzahlungsziel", r"\bdate\s*d['’]?\s*[ée]ch[ée]ance", r"\b[ée]ch[ée]ance",
                      r"\bpayable\s*avant", r"\bvervaldatum", r"\bvervaldag", r"\bbetalen\s*v[oó][oó]r")),
    ("other_date", _any(r"\b(?:delivery|order|ship(?:ping|ment)?|service|tax\s*point|supply)\s*date",
                        r"\bliefer(?:datum|tag)", r"\bbestelldatum", r"\bleistungsdatum",
                        r"\bdate\s*de\s*(?:livraison|commande)", r"\bleverdatum", r"\bbesteldatum",
                        r"\bperiod\b", r"\bzeitraum", r"\bp[ée]riode", r"\bperiode")),
)

#: amount lines that are never one of the document's totals
AMOUNT_EXCLUDED = _any(
    r"total\s*(?:qty|quantity|items?|pcs|units|weight|discount|savings|saving)", r"\bqty\b", r"\bcash\b",
    r"\bchange\b", r"\btender", r"\brounding\b", r"\bround(?:ing)?\s*adj", r"\bdiscount", r"\bbalance\s*b/?f",
    r"\bpaid\b", r"\bdeposit\b", r"\bvisa\b", r"\bmaster\s*card\b", r"\bcredit\s*card\b", r"\bno\.?\s*of\s*items?",
)
#: charges a totals block may add to the subtotal besides the tax
OTHER_CHARGE = _any(r"\bshipping\b", r"\bfreight\b", r"\bpostage\b", r"\bcarriage\b", r"\bhandling\b",
                    r"\bserv(?:ice|\.)?\s*charge\b", r"\bversand", r"\bfracht", r"\bporto\b",
                    r"\bfrais\s*de\s*port\b",
                    r"\blivraison\b", r"\bverzend", r"\bbezorg", r"\btip\b", r"\bgratuity\b")
#: lines that move a total away from subtotal plus tax: discounts, deposits and vouchers, rounding
TOTALS_ADJUSTMENT = _any(r"\bdiscount", r"\bdisc\b", r"\brabatt", r"\bskonto\b", r"\bremise\b",
                         r"\bkorting\b", r"\brounding\b", r"\bround(?:ing)?\s*adj", r"\brundung",
                         r"\barrondi", r"\bafronding", r"\bdeposit\b", r"\bvoucher\b")
SUBTOTAL = _any(
    r"\bsub\s*-?\s*total", r"\btotal\s*(?:excl|exkl|ht\b|hors|before|w/o|net\b|netto)", r"\bnet\s*(?:amount|total)",
    r"\bamount\s*before\s*(?:tax|gst|vat)", r"\btotal\s*sales\s*\(?\s*excl", r"\bnettobetrag", r"\bzwischensumme",
    r"\bsumme\s*netto", r"\bgesamt\s*netto", r"\bnettosumme", r"\bnetto\b", r"\bsous[\s-]*total", r"\bmontant\s*ht",
    r"\btotal\s*hors\s*taxes?", r"\bsubtotaal", r"\btotaal\s*excl", r"\bexcl\.?\s*(?:btw|vat|gst|mwst)",
)
TOTAL_STRONG = _any(
    r"\bgrand\s*total", r"\btotal\s*amount\s*due", r"\bamount\s*due", r"\bbalance\s*due", r"\btotal\s*due",
    r"\btotal\s*payable", r"\bamount\s*payable", r"\bround(?:ed|ing)?\s*d?\s*total", r"\btotal\s*rounded", r"\bnett\s*total",
    r"\btotal\b.*\b(?:incl|inc\b|inclusive)", r"\btotal\s*after\b", r"\btotal\s*amount", r"\btotal\s*\(?\s*rm\s*\)?", r"\btotal\s*sales",
    r"\bgesamtbetrag", r"\brechnungsbetrag", r"\bendbetrag", r"\bzu\s*zahlen", r"\bgesamtsumme",
    r"\bsumme\s*brutto", r"\bbrutto(?:betrag)?", r"\btotal\s*ttc", r"\bmontant\s*(?:total|ttc)",
    r"\bnet\s*[àa]\s*payer", r"\bmontant\s*d[ûu]", r"\btotal\s*[àa]\s*payer", r"\btotaal\s*te\s*betalen",
    r"\bte\s*betalen", r"\btotaalbedrag", r"\btotaal\s*incl", r"\bjumlah\b", r"\bgutschriftsbetrag",
    r"\bte\s*crediteren", r"\bmontant\s*[àa]\s*rembourser",
)
#: payment lines end the totals block of a receipt: totals printed after them are summaries
PAYMENT = _any(r"\bcash\b", r"\bchange\b", r"\btender", r"\bpaid\b", r"\bvisa\b", r"\bmaster\s*card\b",
               r"\bcredit\s*card\b", r"\bbar\s*(?:gegeben|bezahlt)\b", r"\besp[èe]ces\b", r"\bcontant\b")
#: the money handed over, and the change given back, on a receipt's payment lines
TENDERED = _any(r"\bcash\b", r"\btender", r"\bpayment\b", r"\bbar\s*(?:gegeben|bezahlt)\b", r"\besp[èe]ces\b",
                r"\bcontant\b")
CHANGE = _any(r"\bchange\b", r"\br[üu]ckgeld\b", r"\brendu\b", r"\bwisselgeld\b")
#: "total includes 6% GST 1.66" states the tax inside a total, not a total
TAX_INCLUDED = _any(r"\bincl(?:udes?|uding|\.)?\s*\d+(?:[.,]\d+)?\s*%\s*(?:gst|vat|tax|sst|mwst|tva|btw)\b")
TAX = _any(r"\b(?:vat|gst|sst|tax|mwst|ust|mehrwertsteuer|umsatzsteuer|tva|btw)\b")
#: registration numbers and titles that mention a tax without being a tax amount
TAX_NOT_AMOUNT = _any(
    r"\b(?:vat|gst|sst|tax|ust|tva|btw)[\s.-]*(?:reg|id\b|no\b|nr\b|n[°o]|number|nummer|identification|code)",
    r"\btax\s*invoice", r"\bust-?idnr", r"\bsummary\b", r"\bintracom", r"\bsteuer-?nr",
)
#: "TOTAL" with one letter misread as a look-alike glyph ("EOTAL", "T0TAL", "TOTA1", "TOTAI"), as OCR
#: reads a receipt's bold or condensed total line; only in capitals, where a misread word is no other word
_TOTAL_MISREAD = (r"(?-i:\b(?:[EIJY17]OTAL|T[0QD]TAL|TO[I1J7]AL|TOT[4]L|TOTA[I1|])\b)")
TOTAL_PLAIN = _any(r"\btotal\b", r"\bgesamt\b", r"\bsumme\b", r"\btotaal\b", r"\bmontant\b", r"\bamount\b",
                   r"\btota\s?[i1|]\b", _TOTAL_MISREAD)  # OCR's "Tota i", "TOTA1"


def amount_role(text: str) -> tuple[str, int] | None:
    """What a line's amount is (subtotal, tax, total) and how sure the label makes us, or None."""
    if AMOUNT_EXCLUDED.search(text):
        return None
    if SUBTOTAL.search(text):
        return "subtotal_amount", 2
    if TAX_INCLUDED.search(text):
        return "tax_amount", 1
    if TOTAL_STRONG.search(text):
        return "total_amount", 3
    if TAX.search(text) and not TAX_NOT_AMOUNT.search(text):
        return "tax_amount", 2
    if TOTAL_PLAIN.search(text):
        return "total_amount", 2
    return None


#: titles that open a document, by the type they announce
TITLES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("credit_note", _any(r"\bcredit\s*note\b", r"\bcredit\s*memo\b", r"\bgutschrift\b", r"\brechnungskorrektur\b",
                         r"\bavoir\b", r"\bnote\s*de\s*cr[ée]dit\b", r"\bcreditnota\b", r"\bcreditfactuur\b")),
    ("purchase_order", _any(r"\bpurchase\s*order\b", r"\bbestellung\b", r"\bbon\s*de\s*commande\b",
                            r"\binkooporder\b", r"\bbestelbon\b", r"\bbestelling\b")),
    # a "simplified tax invoice" is what a GST country's till prints for a retail sale: a receipt
    ("invoice", _any(r"(?<!simplified tax )\binvoice\b", r"\brechnung\b", r"\bfacture\b", r"\bfactuur\b")),
    ("receipt", _any(r"\breceipt\b", r"\bsimplified\s*tax\s*invoice\b", r"\bcash\s*bill\b", r"\bquittung\b", r"\bkassen(?:bon|beleg|zettel)\b", r"\bbeleg\b",
                     r"\bre[çc]u\b", r"\bticket\s*de\s*caisse\b", r"\bkassabon\b", r"\bbon\b")),
    ("letter", _any(r"\bdear\b", r"\bsehr\s*geehrte", r"\bmadame\b", r"\bmonsieur\b", r"\bgeachte\b")),
)

#: the block that names the customer, which must not be mistaken for the vendor
CUSTOMER_BLOCK = _any(
    r"\bbill(?:ed)?\s*to\b", r"\binvoice\s*to\b", r"^\s*an\s*:?\s*$", r"^\s*aan\s*:?\s*$", r"\bship(?:ped)?\s*to\b", r"\bsold\s*to\b", r"\bcustomer\b", r"\bclient\b",
    r"\bdeliver\s*to\b", r"\brechnungsempf\s?\w{0,2}nger", r"\brechnungsadresse", r"\blieferadresse", r"\bkunde\b",
    r"\ban\s*:", r"\bfactur[ée]\s*[àa]\b", r"\blivr[ée]\s*[àa]\b", r"\bdestinataire\b", r"\bklant\b",
    r"\bfactuuradres\b", r"\bafleveradres\b", r"\baan\s*:", r"\blieferanschrift\b", r"\bversandadresse\b",
    r"\bdelivery\s*address\b", r"\badresse\s*de\s*livraison\b", r"\blieu\s*de\s*livraison\b", r"\bleveradres\b",
    r"\bbezorgadres\b",
)
#: a field that gives the customer's number ("Customer ID: C96884", "N° client", "Klant nr."): a value on
#: its row, not the heading of the customer's block, so the column under it may well be the issuer's
CUSTOMER_REFERENCE = _any(
    rf"\b(?:customer|client|kunden?|klant)[\s-]*(?:id|{_NO}|ref(?:erence)?|code|account)(?![^\W\d_])",
    r"\b(?:n[°ºo]|num[ée]ro|code|r[ée]f(?:[ée]rence)?)\.?\s*(?:de\s*|du\s*)?client\b",
)
#: the block that names the issuer of the document, where a layout prints one
VENDOR_BLOCK = _any(r"\bfrom\s*:", r"\bseller\b", r"\bsupplier(?:\s*details)?\b", r"\bvendor\b", r"\bverk[äa]ufer\b",
                    r"\blieferant\b", r"\bfournisseur\b", r"\bvendeur\b", r"\bleverancier\b", r"\bvan\s*:",
                    r"\babsender\b", r"\bexp[ée]diteur\b", r"\bafzender\b", r"\b[ée]metteur(?:\s*de\s*la\s*facture)?\b",
                    r"\bverkoper\b", r"\bissued\s*by\b", r"\binvoice\s*from\b", r"\bbilled\s*by\b",
                    r"\brechnungssteller\b", r"\baussteller\b", r"\bleistungserbringer\b", r"\brechnung\s*von\b",
                    r"\b[ée]mis\s*par\b", r"\bfactur[ée]\s*par\b", r"\bprestataire\b", r"\buitgegeven\s*door\b",
                    r"\bgefactureerd\s*door\b", r"\bdienstverlener\b", r"\bfactuur\s*van\b")
#: a field giving the number the vendor keeps the customer's account under ("Account No 95624", "Kunden-Nr.
#: C70562", "N° client"): a label with its value, never a name
ACCOUNT_REFERENCE = _any(rf"\b(?:account|acct|konto|compte|rekening)[\s-]*(?:{_NO}|id)(?![^\W\d_])")
#: a field giving a reference with its value ("PO Ref ORD-465219", "Your ref. 2291"): a label, never a name
REFERENCE_FIELD = _any(r"\b(?:p\.?o\.?|your|our)\s*ref(?:erence)?\b")
#: how payment details name the account holder: on some invoices the only place the vendor is named
PAYEE = _any(r"\b(?:please\s*)?make\s*(?:cheques|checks)\s*payable\s*to\b", r"\bpayable\s*to\b",
             r"\baccount\s*(?:name|holder)\b", r"\bbeneficiary\b", r"\bkontoinhaber(?:in)?\b",
             r"\bzahlungsempf\s?\w{0,2}nger\b", r"^\W*empf\s?\w{0,2}nger\s*:", r"\b(?:ch[èe]ques?\s*)?[àa]\s*l\W?\s*ordre\s*de\b",
             r"\btitulaire\s*du\s*compte\b", r"\bb[ée]n[ée]ficiaire\b", r"\brekeninghouder\b", r"\bten\s*name\s*van\b",
             r"\bbegunstigde\b")
#: on a purchase order the buyer issues the document: its "Supplier" block names the addressee
SUPPLIER_BLOCK = _any(r"\bseller\b", r"\bsupplier\b", r"\bvendor\b", r"\bverk[äa]ufer\b", r"\blieferant\b",
                      r"\bfournisseur\b", r"\bvendeur\b", r"\bleverancier\b")
#: page furniture: never a name or an address
PAGE_NUMBER = _any(r"^\W*(?:page|seite|pagina|blad|p\.)\s*\d{1,3}(?:\s*(?:of|von|/|sur|van|de|uit)\s*\d{1,3})?\W*$",
                   r"^\W*(?:page|seite|pagina)\b(?=.*\d).{0,12}$", r"^\W*(?:page|seite|pagina)\W*$")

_LEGAL_FORMS = (
    r"\bsdn\.?\s*bhd\b", r"\bsdn\b", r"\bbhd\b", r"\bs/b\b", r"\bltd\b", r"\blimited\b", r"\bllc\b", r"\binc\b",
    r"\bcorp", r"\bgmbh\b", r"\bag\b", r"\bkg\b", r"\bohg\b", r"\bgbr\b", r"\bug\b", r"\be\.k\.", r"\bsarl\b", r"\bsas\b", r"\bs\.a\.",
    r"\bsa\b", r"\beurl\b", r"\bb\.?v\.?(?!\w)", r"\bn\.?v\.?(?!\w)", r"\bv\.?o\.?f\.?(?!\w)", r"\bbvba\b",
    r"\bsrl\b", r"\bs[àa]\s?r\.?\s?l\b", r"\bs\.\s?[àa]\s?r\.?\s?l\b", r"\bog\b", r"\be\.\s?u\.", r"\bs\.?a\.?s\.?(?!\w)", r"\bpty\b",
    r"\bllp\b", r"\bplc\b", r"\bco\.", r"\bcompany\b",
    # "Schäfer & Zimmermann mbH", a cooperative's "e.G." / "eG" (never "e.g."), a Dutch "C.V.", a French "SASU"
    r"\bmbh\b", r"\be\.\s?(?-i:G)\.", r"\b(?-i:eG)\b", r"\bc\.v\.(?!\w)", r"\b(?-i:CV)\b", r"\bsasu\b",
    # "Facilities L.L.C.", "Schmidt Haustechnik UG (haftungsbeschränkt)"
    r"\bl\.l\.[cp]\.", r"\bhaftungsbeschr[äa]nkt\b",
)
#: a legal form: the end of a company's name
LEGAL_FORM = _any(*_LEGAL_FORMS)
#: a legal form or a word that names a business ("... Hardware", "... Restaurant")
COMPANY_SUFFIX = _any(
    *_LEGAL_FORMS,
    r"\benterprise", r"\brestaurant", r"\brestoran\b", r"\btrading\b", r"\bgroup\b", r"\bshop\b", r"\bstore\b",
    r"\bmart\b", r"\bhardware\b", r"\bbakeries\b", r"\bkedai\b", r"\bstationery\b", r"\bhouse\b",
)
#: "Owned by: ..." before the operating company's name on a shop's receipt
OWNED_BY = _any(r"^\W*(?:own(?:ed)?|operated|managed)\s+by\b\W*")
#: a company's entry in a trade register, which an issuer may print under its name, above its address
#: ("Registered in England and Wales No. 750776", "RCS Paris B 735 524", "Amtsgericht München HRB 1234");
#: not "Registered office:", which is followed by an address
_REGISTER_ENTRY_PATTERNS = (
    r"\bregistered\s+(?:in|no|number)\b", r"\bcompany\s*number\b", r"\brcs\b", r"\bamtsgericht\b",
    r"\bhandelsregister\b", r"\bhrb\b", r"\bkvk\b", r"\bsiret\b", r"\bsiren\b",
)
REGISTER_ENTRY = _any(*_REGISTER_ENTRY_PATTERNS)
#: lines that carry contact or registration details, never a name or an address line
CONTACT = _any(
    r"\btel\b", r"\bphone\b", r"\bfax\b", r"\be-?mail\b", r"@", r"\bwww\.", r"https?://", r"\bweb(?:site)?\b",
    r"\b(?:gst|vat|sst|tax|ust|tva|btw)\b", r"\breg(?:istration)?\b", r"\bco\.?\s*no\b", r"\bcompany\s*no\b",
    r"\biban\b", r"\bbic\b", r"\bswift\b", *_REGISTER_ENTRY_PATTERNS, r"\btelefon\b",
    r"\bsteuer-?(?:nummer|nr)\b",
    r"\bt[ée]l[ée]phone\b", r"\bt[ée]l\b", r"\btelefoon\b", r"\bmobile?\b", r"\bhp\b",
    # a web or e-mail address whose "@" or "www." OCR lost ("billing murphytic.com"), at the end of its line
    # (not "Rte.de Genève")
    r"[a-z]\.(?:com|net|org|info|biz|eu|de|at|ch|nl|be|fr|lu|ie|uk|us|my)\W*$",
)
#: country names as an address's last line prints them (English, German, French, Dutch, and the receipts' own),
#: each with its country's currency: a closed set, so a country OCR misread by one letter ("lreland",
#: "Osterreich") can be read back
COUNTRY_CURRENCIES = {
    **dict.fromkeys(("Ireland", "Irland", "Irlande", "Ierland", "Deutschland", "Germany", "Allemagne", "Duitsland",
                     "Österreich", "Austria", "Autriche", "Oostenrijk", "Belgique", "België", "Belgien", "Belgium",
                     "Nederland", "Niederlande", "Netherlands", "Pays-Bas", "France", "Frankreich", "Frankrijk",
                     "Luxembourg", "Luxemburg", "Italia", "Italien", "Italy", "Italie", "España", "Spanien", "Spain",
                     "Espagne", "Spanje", "Portugal"), "EUR"),
    **dict.fromkeys(("United Kingdom", "Vereinigtes Königreich", "Royaume-Uni", "Verenigd Koninkrijk", "England",
                     "Scotland", "Wales"), "GBP"),
    **dict.fromkeys(("USA", "U.S.A.", "United States", "Vereinigte Staaten", "États-Unis", "Verenigde Staten"), "USD"),
    **dict.fromkeys(("Schweiz", "Suisse", "Switzerland", "Svizzera", "Zwitserland"), "CHF"),
    **dict.fromkeys(("Canada", "Kanada"), "CAD"),
    **dict.fromkeys(("Danmark", "Dänemark", "Denmark", "Danemark", "Denemarken"), "DKK"),
    **dict.fromkeys(("Sverige", "Schweden", "Sweden", "Suède", "Zweden"), "SEK"),
    **dict.fromkeys(("Polska", "Polen", "Poland", "Pologne"), "PLN"),
    "Malaysia": "MYR", "Singapore": "SGD", **dict.fromkeys(("Australia", "Australien", "Australie"), "AUD"),
}
COUNTRIES = tuple(COUNTRY_CURRENCIES)
#: the end of an Irish address: an Eircode (routing key, then four letters or digits: "Galway H91 E2K3")
EIRCODE_END = re.compile(r"\b[A-Z]\d[\dW]\s?[A-Z\d]{4}$")
#: the end of a British address: a postcode ("Bristol BS1 5TR", "London EC1A 1BB")
UK_POSTCODE_END = re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}$")
#: a VAT (or tax) registration number and the country its prefix names ("BTW-nummer BE0641537476",
#: "N° TVA FR448 32359065", "USt-IdNr. DE342094571", "UID CHE-123.456.789")
VAT_NUMBER = re.compile(
    r"(?<![^\W_])(?:vat|tva|btw|ust|mwst|uid|iva|steuer)[\w.-]*(?:\s+(?:reg(?:istration)?|no|nr|n[°o]|number|nummer"
    r"|num[ée]ro|id|intracom)\.?)*[\s.:#-]*(?-i:([A-Z]{2,3}))[\s-]?U?\d", re.IGNORECASE)
#: the currency of the country a VAT number's prefix names: the euro area, Switzerland (CHE), the UK
VAT_COUNTRY_CURRENCIES = {
    **dict.fromkeys(("AT", "BE", "DE", "FR", "NL", "LU", "IE", "IT", "ES", "PT", "FI", "EL", "SK", "SI", "EE",
                     "LV", "LT", "MT", "CY", "HR"), "EUR"),
    "CHE": "CHF", "GB": "GBP",
}
#: the end of an address in the United States: a state's postal code and a ZIP code ("Austin, TX 78701"),
#: perhaps the country's name after them
US_STATE_ZIP = re.compile(
    r"\b(?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT"
    r"|V[AT]|W[AIVY])\s+\d{5}(?:-\d{4})?(?:,?\s*(?:USA|U\.S\.A\.|United States(?: of America)?))?$")
#: the units printed right after a quantity ("2 pcs", "3,5 h", "10 Stk."), as one alternation to build on
QUANTITY_UNITS = (
    r"(?:pcs?\.?|pieces?|ea\.?|each|units?|h|hrs?\.?|hours?|days?|kg|g|t|m|m2|m²|m³|km|l|ltr|lot|box(?:es)?|"
    r"packs?|sets?|x|stk\.?|st\.?|stck\.?|stück|std\.?|pkt\.?|psch\.?|pauschal|tage?|pce?s?\.?|u\.?|j|jours?|"
    r"forfait|stuks?|uur|uren|pak|dag(?:en)?)")
#: a word that is such a unit: part of the quantity cell
QUANTITY_UNIT = re.compile(rf"^{QUANTITY_UNITS}$", re.IGNORECASE)

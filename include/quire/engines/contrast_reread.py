"""Receipt pages read a second time with their grey levels stretched, the two readings merged word by word.

Till receipts are thermal or dot-matrix prints, often faded, photographed on grey paper: the ink is
a few dozen grey levels darker than the paper. Tesseract's LSTM recognises letters from the grey
image, not from the binarised one, so faint strokes reach it faint. Stretched so that the darkest
1 % is black and the brightest 1 % white, the same page reads many words better but loses others,
and on a few dark scans whole lines: alone it was worse than the page as it is (preprocess.py).
Neither reading is better everywhere, so :func:`merge_readings` takes, of each stretch of ink, the
more confident side, and the line re-read then reads the merged lines.

Merged everywhere (``Settings.ocr_receipt_contrast_reread = "always"``) it lowers the character
error rate but not the fields. bench/ocr_quality.py, region CER on the 36 SROIE receipts: 6.86 ->
6.26 % (tune half 6.75 -> 5.76, check half 6.96 -> 6.73); merged instead with a reading upscaled to
36 px lines the tune half gave 6.26 %, flattened 6.49, sharpened 6.57, Sauvola-thresholded 8.36 (these
four before the merged words were put in row order for the line re-read, when the stretched reading
gave 5.71).
Yet bench/accuracy.py: SROIE tune half issue_date 100 -> 94.4 %, vendor_name 88.9 -> 83.3 (total
94.4 unchanged); check half issue_date 83.3 -> 77.8, vendor_name 66.7 -> 61.1 (total 83.3
unchanged); receipts-degraded issue_date 80.6 -> 81.9, total 69.4 -> 70.8, vendor_name 72.2 ->
69.4. The lost fields are lines the re-read now cuts out from other word boxes and reads otherwise
("10/03/2018" -> "10/03/2078"), and words the stretched reading reads more surely but wrongly
("HARDWARE" -> "HARDUARE"). Keeping the page reading as the base and replacing only its words below
0.6 confidence lost the same two tune-half fields.

So by default (``"incomplete"``, :class:`IncompleteReceiptEngine`) the merged reading is asked only
of a receipt whose reading lacks what every receipt prints, a date or a total with its amount, and
kept only where it shows more of the two. bench/accuracy.py: receipts-degraded issue_date 80.6 ->
81.9, total 69.4 -> 70.8 (388r, turned by 2 degrees: neither before), every other field of every
receipt corpus unchanged (SROIE tune and check halves, their box transcripts). Counting a total only
with its amount on the label's own line asked it also of receipts whose amount stands under the
label ("Total (RM)" over a column) and lost a vendor there (receipts-degraded 210s).
Full-width pages (invoices) are never read again here: their scans get a second rendering already
(quire.engines.reader).
"""

from __future__ import annotations

from PIL import Image

from quire.engines.fusion import in_rows, merge_readings
from quire.engines.line_reread import AMOUNT, is_receipt_page, read_receipt_page, upright_grey
from quire.engines.ocr import OcrEngine, OcrResult
from quire.extraction import labels
from quire.extraction.normalise import find_dates


class ContrastRereadEngine:
    """``inner``'s reading; on a receipt page, merged with ``stretched``'s (the page with its contrast stretched)."""

    def __init__(self, inner: OcrEngine, stretched: OcrEngine) -> None:
        self.inner = inner
        self.stretched = stretched
        self.name = inner.name
        self.settings_key = f"{inner.settings_key};receipt_contrast=[{stretched.settings_key}]"

    @property
    def version(self) -> str:
        return self.inner.version

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        first = self.inner.recognize(image, dpi)
        if not read_receipt_page(image, first):
            return first
        merged = merge_readings(first, self.stretched.recognize(image, dpi))
        # the line re-read pairs the words with the text's lines
        text, words = in_rows(merged.words)
        return OcrResult(text, words, merged.confidence, merged.rotation)


class IncompleteReceiptEngine:
    """``first``'s reading; on a receipt page that shows no date or no total (see :func:`receipt_evidence`),
    ``fallback``'s where that shows more of the two."""

    def __init__(self, first: OcrEngine, fallback: OcrEngine) -> None:
        self.first = first
        self.fallback = fallback
        self.name = first.name
        self.settings_key = f"{first.settings_key};incomplete_receipt=[{fallback.settings_key}]"

    @property
    def version(self) -> str:
        return self.first.version

    def recognize(self, image: Image.Image, dpi: int) -> OcrResult:
        result = self.first.recognize(image, dpi)
        if not result.words:
            return result
        # the text first: about 1 ms a page, where the page test costs some 60 ms on a 300 dpi A4 scan, and a
        # reading with a date and a total (most invoices) needs no page test
        evidence = receipt_evidence(result)
        if evidence == 2 or not is_receipt_page(upright_grey(image, result.rotation), result):
            return result
        other = self.fallback.recognize(image, dpi)
        return other if receipt_evidence(other) > evidence else result


def receipt_evidence(result: OcrResult) -> int:
    """How many of a receipt's two musts the reading shows: a date, and a total label with an amount on its
    line or the next."""
    lines = result.text.split("\n")
    has_date = any(find_dates(line) for line in lines)
    has_total = any((labels.TOTAL_STRONG.search(line) or labels.TOTAL_PLAIN.search(line))
                    and AMOUNT.search(" ".join(lines[number:number + 2])) for number, line in enumerate(lines))
    return int(has_date) + int(has_total)

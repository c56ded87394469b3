"""Peak memory of reading a long text-layer PDF page by page through the reader.

    .venv/bin/python bench/parse_memory.py [--pages 500]

Generates a PDF of N text pages with reportlab (dense prose, ~3000 characters a
page) in a temporary folder, reads every page with ``open_document(...).read_page``
and prints the process's peak RSS. The OCR engine is a double that fails if
called: every page must come from the text layer. The limit is 400 MB.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from quire.engines.reader import open_document
from quire.model import TextMethod
from quire.settings import Settings

LIMIT_MB = 400
_SENTENCE = ("Invoice {page}-{line}: 12 units of part QX-{line:03d} at 4.75 EUR each, delivered to "
             "Lagerstrasse {page}, total 57.00 EUR.")


class NoOcrExpected:
    name, version, settings_key = "none", "0", ""

    def recognize(self, image, dpi):
        raise AssertionError("a text-layer page was sent to OCR")


def write_pdf(path: Path, pages: int) -> None:
    pdf = canvas.Canvas(str(path), pagesize=A4)
    for page in range(1, pages + 1):
        text = pdf.beginText(40, A4[1] - 50)
        text.setFont("Helvetica", 9)
        for line in range(1, 61):
            text.textLine(_SENTENCE.format(page=page, line=line))
        pdf.drawText(text)
        pdf.showPage()
    pdf.save()


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux reports KiB


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="quire-bench-") as scratch:
        path = Path(scratch) / "long.pdf"
        write_pdf(path, args.pages)
        before = peak_rss_mb()
        settings = Settings(home=Path(scratch) / "home")
        started = time.perf_counter()
        characters = 0
        with open_document(path, settings, ocr=NoOcrExpected()) as reader:
            for number in range(1, reader.page_count + 1):
                page = reader.read_page(number)
                assert page.method is TextMethod.TEXT_LAYER, number
                characters += len(page.text)
                del page  # the parse stage checkpoints and drops each page, as here
        seconds = time.perf_counter() - started
        peak = peak_rss_mb()
    print(f"pages read:        {args.pages}")
    print(f"characters:        {characters}")
    print(f"read time:         {seconds:.1f} s ({1000 * seconds / args.pages:.1f} ms/page)")
    print(f"peak RSS before:   {before:.0f} MB (after generating the PDF)")
    print(f"peak RSS:          {peak:.0f} MB (limit {LIMIT_MB} MB)")
    return 0 if peak < LIMIT_MB else 1


if __name__ == "__main__":
    sys.exit(main())

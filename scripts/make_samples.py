"""Write the bundled sample documents in samples/ (all generated here: no third-party content).

    .venv/bin/python scripts/make_samples.py

The samples cover what the demo should show: digital invoices in two languages,
a scanned invoice, a scanned receipt photo, a three-document packet, an
encrypted PDF (password "quire") and a truncated, malformed PDF.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.pdfgen.canvas import Canvas  # noqa: E402

from tests.factories import generate_invoice, make_packet, render_pdf, render_scan  # noqa: E402

SAMPLES = REPO / "samples"


def encrypted_pdf(path: Path, password: str) -> None:
    canvas = Canvas(str(path), pagesize=A4, invariant=1, encrypt=password)
    canvas.setFont("Helvetica", 14)
    canvas.drawString(72, 760, "Confidential statement: open me with the password.")
    canvas.save()


def main() -> None:
    SAMPLES.mkdir(exist_ok=True)
    render_pdf(generate_invoice(101, doc_type="invoice", language="en"), SAMPLES / "invoice-en.pdf")
    render_pdf(generate_invoice(102, doc_type="invoice", language="de"), SAMPLES / "rechnung-de.pdf")
    render_scan(generate_invoice(103, doc_type="invoice", language="fr"), SAMPLES / "facture-scan.pdf", 103)
    render_scan(generate_invoice(104, doc_type="receipt"), SAMPLES / "receipt-photo.jpg", 104)
    make_packet([105, 106, 107], SAMPLES / "packet-three-documents.pdf")
    encrypted_pdf(SAMPLES / "encrypted-password-quire.pdf", "quire")
    whole = io.BytesIO()
    render_pdf(generate_invoice(108, doc_type="invoice"), whole)
    (SAMPLES / "truncated.pdf").write_bytes(whole.getvalue()[: len(whole.getvalue()) // 3])
    for path in sorted(SAMPLES.iterdir()):
        print(f"{path.stat().st_size:>9}  {path.relative_to(REPO)}")


if __name__ == "__main__":
    main()

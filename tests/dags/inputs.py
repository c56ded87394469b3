"""Small real input files for the DAG and scheduler tests (digital PDFs with a text layer)."""

from __future__ import annotations

from pathlib import Path


def write_invoice_pdf(path: Path, pages: list[dict]) -> Path:
    """A digital PDF (real text layer): one invoice per entry of ``pages``."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    pdf = canvas.Canvas(str(path), pagesize=A4, invariant=1)
    for page in pages:
        y = 800
        pdf.setFont("Helvetica-Bold", 18)
        pdf.drawString(60, y, "INVOICE")
        pdf.setFont("Helvetica", 11)
        lines = [
            page["vendor"], "12 Market Street, Springfield", "",
            f"Invoice No: {page['number']}", f"Invoice Date: {page.get('date', '2024-03-05')}",
            "Bill To: Quire Test Customer Ltd", "",
            "Description                          Qty      Unit price      Amount",
        ]
        total = 0.0
        for description, qty, unit in page["items"]:
            amount = qty * unit
            total += amount
            lines.append(f"{description:<36} {qty:>3} {unit:>14.2f} {amount:>14.2f}")
        lines += ["", f"Subtotal: {total:.2f}", "Tax: 0.00", f"Total: {total:.2f} USD", "",
                  "Page 1 of 1"]
        for line in lines:
            y -= 18
            pdf.drawString(60, y, line)
        pdf.showPage()
    pdf.save()
    return path


def invoice(number: str, vendor: str = "Acme Supplies Inc") -> dict:
    return {"number": number, "vendor": vendor,
            "items": [("Paper, A4, 500 sheets", 4, 5.25), ("Toner cartridge", 1, 89.00)]}

"""Seeded generators of realistic documents with exact ground truth, for tests and benchmarks.

    spec = generate_invoice(7)                     # or split="heldout", doc_type=..., layout=...
    render_pdf(spec, "7.pdf")                      # digital, with a text layer
    render_scan(spec, "7.scan.pdf", seed=7)        # image-only; also .tif, .png, .jpg
    truth = spec.ground_truth()                    # JSON-able, normalised like Quire's output
    parts = make_packet([3, 8, 12], "packet.pdf")  # ground truth per part with page ranges

Import it as ``tests.factories`` (pytest puts the repository root on ``sys.path``).
"""

from .invoices import DOC_TYPES, SPLITS, InvoiceSpec, generate_invoice
from .layouts import DEV_LAYOUTS, HELDOUT_LAYOUTS
from .packet import make_packet
from .render import render_pdf, render_pdf_bytes
from .scan import render_scan, scan_pdf

__all__ = ["DEV_LAYOUTS", "DOC_TYPES", "HELDOUT_LAYOUTS", "SPLITS", "InvoiceSpec", "generate_invoice",
           "make_packet", "render_pdf", "render_pdf_bytes", "render_scan", "scan_pdf"]

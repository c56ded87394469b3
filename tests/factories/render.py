"""Rendering a generated document to a digital PDF (with a text layer)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import IO, TYPE_CHECKING

from reportlab.pdfgen.canvas import Canvas

from . import tune_layouts
from .layouts import draw_itemised, page_size
from .others import draw_letter, draw_receipt

if TYPE_CHECKING:
    from .invoices import InvoiceSpec


def new_canvas(target: str | Path | IO[bytes], first: InvoiceSpec) -> Canvas:
    """A canvas whose bytes depend only on what is drawn: no timestamps, no random document IDs."""
    return Canvas(str(target) if isinstance(target, Path) else target, pagesize=page_size(first), invariant=1,
                  pageCompression=1)


def draw_document(canvas: Canvas, spec: InvoiceSpec) -> None:
    """Draw every page of ``spec``; each page sets its own size, so documents can share a canvas."""
    if spec.doc_type == "letter":
        draw_letter(canvas, spec, page_size(spec))
    elif spec.doc_type == "receipt":
        draw_receipt(canvas, spec)
    elif spec.layout in tune_layouts.TUNE_LAYOUT_TABLE:
        tune_layouts.draw_itemised(canvas, spec)
    else:
        draw_itemised(canvas, spec)


def render_pdf(spec: InvoiceSpec, path: str | Path | IO[bytes]) -> None:
    """Write ``spec`` as a digital PDF; the same spec always gives the same bytes."""
    canvas = new_canvas(path, spec)
    draw_document(canvas, spec)
    canvas.save()


def render_pdf_bytes(spec: InvoiceSpec) -> bytes:
    buffer = io.BytesIO()
    render_pdf(spec, buffer)
    return buffer.getvalue()

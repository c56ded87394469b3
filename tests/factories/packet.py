"""Packets: several generated documents in one PDF, as a scanner's batch or a mail attachment."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from .invoices import InvoiceSpec, generate_invoice
from .render import draw_document, new_canvas


def make_packet(parts: Sequence[int | InvoiceSpec], path: str | Path | IO[bytes], *,
                split: str = "dev") -> list[dict[str, Any]]:
    """Render ``parts`` (seeds or specs) back to back into one PDF; returns per-part ground truth.

    Each part's ground truth gains ``index`` and its pages ``first_page``..``last_page``
    (1-based, inclusive), matching :class:`quire.model.SplitPart`.
    """
    if not parts:
        raise ValueError("a packet needs at least one part")
    specs = [part if isinstance(part, InvoiceSpec) else generate_invoice(part, split=split) for part in parts]
    canvas = new_canvas(path, specs[0])
    truth, first_page = [], 1
    for index, spec in enumerate(specs):
        draw_document(canvas, spec)
        last_page = first_page + spec.pages - 1
        truth.append({**spec.ground_truth(), "index": index, "first_page": first_page, "last_page": last_page})
        first_page = last_page + 1
    canvas.save()
    return truth

"""The invoice factory: determinism, exact ground truth, and PDFs that print what the truth says."""

from __future__ import annotations

import hashlib
import io
import re
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from tests.factories import (DEV_LAYOUTS, HELDOUT_LAYOUTS, generate_invoice, make_packet, render_pdf_bytes,
                             render_scan)
from tests.factories.layouts import LAYOUTS, page_size

AMOUNT = re.compile(r"^-?\d+\.\d{2}$")
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
REPO_ROOT = Path(__file__).resolve().parents[3]


def page_texts(pdf: bytes) -> list[str]:
    document = pdfium.PdfDocument(pdf)
    try:
        return [_normalise_spaces(page.get_textpage().get_text_range()) for page in document]
    finally:
        document.close()


def _normalise_spaces(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u00a0", " "))


def one_spec_per_layout_and_type():
    specs = [generate_invoice(3, layout=name, split=LAYOUTS[name].split) for name in LAYOUTS]
    specs += [generate_invoice(seed, doc_type=kind) for seed, kind in
              enumerate(("credit_note", "receipt", "purchase_order", "letter"))]
    return specs


def test_same_seed_gives_identical_bytes_and_truth():
    for spec in one_spec_per_layout_and_type():
        again = generate_invoice(spec.seed, split=spec.split, layout=spec.layout, doc_type=spec.doc_type)
        assert again.ground_truth() == spec.ground_truth()
        assert render_pdf_bytes(again) == render_pdf_bytes(spec), spec.layout


def test_bytes_do_not_depend_on_the_process():
    # a DejaVu document too: embedded TrueType subsets must not carry per-process names
    seed = next(s for s in range(200) if generate_invoice(s).style.font_family.startswith("DejaVu"))
    code = (f"import hashlib; from tests import factories; "
            f"print(hashlib.sha256(factories.render_pdf_bytes(factories.generate_invoice({seed}))).hexdigest())")
    digests = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              cwd=REPO_ROOT).stdout.strip() for _ in range(2)}
    assert digests == {hashlib.sha256(render_pdf_bytes(generate_invoice(seed))).hexdigest()}


@pytest.mark.parametrize("split", ["dev", "heldout"])
def test_ground_truth_arithmetic_is_exact(split):
    for seed in range(150):
        truth = generate_invoice(seed, split=split).ground_truth()
        fields, items = truth["fields"], truth["line_items"]
        assert ISO_DATE.match(fields["issue_date"])
        assert fields["due_date"] is None or ISO_DATE.match(fields["due_date"])
        if truth["doc_type"] == "letter":
            assert items == [] and fields["total_amount"] is None
            continue
        assert 1 <= len(items) <= 40
        for item in items:
            assert AMOUNT.match(item["amount"]) and AMOUNT.match(item["unit_price"])
            product = Decimal(item["quantity"]) * Decimal(item["unit_price"])
            assert product.quantize(Decimal("0.01"), ROUND_HALF_UP) == Decimal(item["amount"])
        subtotal, tax, total = (Decimal(fields[k]) for k in ("subtotal_amount", "tax_amount", "total_amount"))
        assert all(AMOUNT.match(fields[k]) for k in ("subtotal_amount", "tax_amount", "total_amount"))
        assert sum(Decimal(item["amount"]) for item in items) == subtotal
        assert subtotal + tax == total
        assert len(fields["currency"]) == 3


def test_text_layer_prints_number_and_total_as_in_the_truth():
    for spec in one_spec_per_layout_and_type():
        truth = spec.ground_truth()
        text = " ".join(page_texts(render_pdf_bytes(spec)))
        printed = {key: _normalise_spaces(value) for key, value in truth["printed"].items() if value}
        assert truth["fields"]["vendor_name"] in text
        for key in ("invoice_number", "total_amount", "issue_date"):
            if key in printed:
                assert printed[key] in text, (spec.layout, key, printed[key])


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_long_invoices_continue_with_totals_only_on_the_last_page(layout):
    spec = generate_invoice(5, layout=layout, split=LAYOUTS[layout].split, doc_type="invoice", item_count=40)
    texts = page_texts(render_pdf_bytes(spec))
    assert len(texts) == spec.pages == spec.ground_truth()["pages"] >= 2
    total = _normalise_spaces(spec.money_text(spec.total))
    assert total in texts[-1] and not any(total in text for text in texts[:-1])
    for page, text in enumerate(texts[:-1], start=1):
        assert spec.labels["continued_next"] in text
        assert spec.labels["page"].format(page=page, pages=spec.pages) in text
    for text, (start, end) in zip(texts, spec.page_items):
        assert spec.items[start].description in text  # and the items are where pagination put them


def test_every_layout_fits_an_item_and_the_totals_on_a_continuation_page():
    # pagination relies on this: the last page always carries at least one item
    for name, layout in LAYOUTS.items():
        spec = generate_invoice(0, layout=name, split=layout.split, doc_type="invoice")
        height = page_size(spec)[1]
        worst_totals = (layout.totals_height + 14 + 12 * 3) / layout.row_height
        assert layout.rows_available(height, first=False) > worst_totals + 1, name


def test_splits_use_disjoint_layouts():
    assert len(DEV_LAYOUTS) >= 8 and len(HELDOUT_LAYOUTS) >= 3
    assert not set(DEV_LAYOUTS) & set(HELDOUT_LAYOUTS)
    heldout = {generate_invoice(seed, split="heldout").layout for seed in range(60)}
    assert heldout <= set(HELDOUT_LAYOUTS) | {"letter", "receipt_roll"}


def test_corpus_mix_has_variety():
    truths = [generate_invoice(seed).ground_truth() for seed in range(300)]
    assert {t["language"] for t in truths} == {"en", "de", "fr", "nl"}
    assert {t["fields"]["currency"] for t in truths} >= {"EUR", "USD", "GBP", "CHF"}
    non_invoices = sum(t["doc_type"] not in ("invoice", "credit_note") for t in truths)
    assert 0.05 <= non_invoices / len(truths) <= 0.2
    assert any(t["pages"] > 1 for t in truths)


def test_scan_is_image_only_and_deterministic(tmp_path):
    spec = generate_invoice(2, doc_type="invoice", item_count=3)
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    assert render_scan(spec, first, seed=9) == [first]
    render_scan(spec, second, seed=9)
    assert first.read_bytes() == second.read_bytes()
    texts = page_texts(first.read_bytes())
    assert len(texts) == spec.pages and all(not text.strip() for text in texts)
    [png] = render_scan(spec, tmp_path / "a.png", seed=9)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_packet_reports_page_ranges_per_part():
    parts = [generate_invoice(1, doc_type="invoice", item_count=2),
             generate_invoice(2, doc_type="invoice", item_count=40),
             generate_invoice(3, doc_type="letter")]
    buffer = io.BytesIO()
    truth = make_packet(parts, buffer)
    texts = page_texts(buffer.getvalue())
    assert [(t["first_page"], t["last_page"]) for t in truth] == [(1, 1), (2, 1 + parts[1].pages),
                                                                    (2 + parts[1].pages, 2 + parts[1].pages)]
    assert len(texts) == truth[-1]["last_page"]
    assert parts[1].number in texts[1] and parts[2].letter.subject in texts[-1]

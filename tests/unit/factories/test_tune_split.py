"""The tune split: its own layouts, exact ground truth with discounts, and no change to dev or held-out."""

from __future__ import annotations

import hashlib
import json
import re
from decimal import ROUND_HALF_UP, Decimal

import pytest

from tests.factories import DEV_LAYOUTS, HELDOUT_LAYOUTS, generate_invoice, render_pdf_bytes
from tests.factories.tune_layouts import TUNE_LAYOUTS, tallest_row_fits
from tests.unit.factories.test_invoices import page_texts

#: sha256 over the ground truths of seeds 0..59, as generated before the tune split existed
_UNCHANGED = {"dev": "2763afcba4f06c9cd25a0f066dff43b88621ca4dc687dfa32fd52eabc8cf2a7f",
              "heldout": "1541f51f6a9a6fe0b018494c69cf00f1a888bda12fb0cd60d6f63c6f8d0d9f47"}


@pytest.mark.parametrize("split", ["dev", "heldout"])
def test_adding_the_tune_split_changed_nothing_in_the_others(split):
    digest = hashlib.sha256()
    for seed in range(60):
        digest.update(json.dumps(generate_invoice(seed, split=split).ground_truth(), sort_keys=True).encode())
    assert digest.hexdigest() == _UNCHANGED[split]


def test_tune_layouts_are_their_own_and_the_only_ones_drawn():
    assert len(TUNE_LAYOUTS) >= 6
    assert not set(TUNE_LAYOUTS) & (set(DEV_LAYOUTS) | set(HELDOUT_LAYOUTS))
    drawn = {generate_invoice(seed, split="tune").layout for seed in range(80)}
    assert set(TUNE_LAYOUTS) <= drawn <= set(TUNE_LAYOUTS) | {"letter", "receipt_roll"}


@pytest.mark.parametrize("layout", TUNE_LAYOUTS)
def test_same_seed_gives_identical_bytes(layout):
    spec = generate_invoice(4, split="tune", layout=layout, doc_type="invoice")
    again = generate_invoice(4, split="tune", layout=layout, doc_type="invoice")
    assert again.ground_truth() == spec.ground_truth()
    assert render_pdf_bytes(again) == render_pdf_bytes(spec)


def test_ground_truth_arithmetic_is_exact_with_discounts():
    discounted = 0
    for seed in range(120):
        truth = generate_invoice(seed, split="tune").ground_truth()
        if truth["doc_type"] == "letter":
            continue
        spec = generate_invoice(seed, split="tune")
        for item, row in zip(spec.items, truth["line_items"], strict=True):
            gross = Decimal(row["quantity"]) * Decimal(row["unit_price"]) * (100 - item.discount) / 100
            assert gross.quantize(Decimal("0.01"), ROUND_HALF_UP) == Decimal(row["amount"])
            discounted += item.discount > 0
        fields = truth["fields"]
        subtotal, tax, total = (Decimal(fields[k]) for k in ("subtotal_amount", "tax_amount", "total_amount"))
        assert sum(Decimal(row["amount"]) for row in truth["line_items"]) == subtotal
        assert subtotal + tax == total
    assert discounted > 20


def words_of(text: str) -> list[str]:
    return re.sub(r"\s+", " ", text.replace("\u00a0", " ")).split()


@pytest.mark.parametrize("layout", TUNE_LAYOUTS)
def test_text_layer_prints_the_truth(layout):
    for seed in range(6):
        spec = generate_invoice(seed, split="tune", layout=layout, doc_type="invoice")
        truth = spec.ground_truth()
        text = " ".join(" ".join(words_of(page)) for page in page_texts(render_pdf_bytes(spec)))
        assert " ".join(words_of(truth["fields"]["vendor_name"])) in text
        for key in ("invoice_number", "total_amount", "issue_date"):
            assert " ".join(words_of(truth["printed"][key])) in text, (layout, key)
        for item in spec.items:  # wrapped descriptions keep their words in order
            assert all(word in text for word in words_of(item.description))


@pytest.mark.parametrize("layout", TUNE_LAYOUTS)
def test_long_invoices_continue_with_totals_only_on_the_last_page(layout):
    spec = generate_invoice(5, split="tune", layout=layout, doc_type="invoice", item_count=40)
    assert tallest_row_fits(spec)
    texts = [" ".join(words_of(page)) for page in page_texts(render_pdf_bytes(spec))]
    assert len(texts) == spec.pages >= 2
    total = " ".join(words_of(spec.money_text(spec.total)))
    assert total in texts[-1] and not any(total in text for text in texts[:-1])
    assert all(end > start for start, end in spec.page_items)
    for text, (start, _) in zip(texts, spec.page_items, strict=True):
        assert words_of(spec.items[start].description)[0] in text

"""The tune2 split: vendors named where no other split names them, and no change to the other splits."""

from __future__ import annotations

import hashlib
import json

import pytest

from tests.factories import DEV_LAYOUTS, HELDOUT_LAYOUTS, generate_invoice, render_pdf_bytes
from tests.factories.tune_layouts import TUNE2_LAYOUTS, TUNE_LAYOUTS, tallest_row_fits
from tests.unit.factories.test_invoices import page_texts
from tests.unit.factories.test_tune_split import words_of

#: sha256 over the ground truths of tune seeds 0..59, as generated before the tune2 split existed
_TUNE_UNCHANGED = "470fedbd37eecd673864dbb7de4ec2a52c5006dac101c2996aaf2df00b12c1ae"


def _digest(split: str) -> str:
    digest = hashlib.sha256()
    for seed in range(60):
        digest.update(json.dumps(generate_invoice(seed, split=split).ground_truth(), sort_keys=True).encode())
    return digest.hexdigest()


def test_adding_tune2_changed_nothing_in_the_tune_split():
    assert _digest("tune") == _TUNE_UNCHANGED


def test_tune2_layouts_are_their_own_and_the_only_ones_drawn():
    assert not set(TUNE2_LAYOUTS) & (set(DEV_LAYOUTS) | set(HELDOUT_LAYOUTS) | set(TUNE_LAYOUTS))
    drawn = {generate_invoice(seed, split="tune2").layout for seed in range(120)}
    assert set(TUNE2_LAYOUTS) <= drawn <= set(TUNE2_LAYOUTS) | {"letter", "receipt_roll"}
    assert {generate_invoice(seed, split="tune").layout for seed in range(120)}.isdisjoint(TUNE2_LAYOUTS)


@pytest.mark.parametrize("layout", TUNE2_LAYOUTS)
def test_text_layer_prints_the_truth_and_the_same_bytes_again(layout):
    for seed in range(4):
        spec = generate_invoice(seed, split="tune2", layout=layout, doc_type="invoice")
        truth = spec.ground_truth()
        pdf = render_pdf_bytes(spec)
        assert render_pdf_bytes(generate_invoice(seed, split="tune2", layout=layout, doc_type="invoice")) == pdf
        text = " ".join(" ".join(words_of(page)) for page in page_texts(pdf)).casefold()
        assert " ".join(words_of(truth["fields"]["vendor_name"])).casefold() in text  # some print it in capitals
        for key in ("invoice_number", "total_amount", "issue_date"):
            assert " ".join(words_of(truth["printed"][key])).casefold() in text, (layout, key)


def test_the_ship_to_layout_names_a_delivery_company_that_is_not_the_vendor():
    spec = generate_invoice(3, split="tune2", layout="ship_to", doc_type="invoice")
    assert spec.ship_to is not None and spec.ship_to.name != spec.vendor.name
    text = " ".join(words_of(" ".join(page_texts(render_pdf_bytes(spec)))))
    assert " ".join(words_of(spec.ship_to.name)) in text
    assert generate_invoice(3, split="tune2", layout="issued_by").ship_to is None


@pytest.mark.parametrize("layout", TUNE2_LAYOUTS)
def test_long_invoices_continue_with_totals_only_on_the_last_page(layout):
    spec = generate_invoice(5, split="tune2", layout=layout, doc_type="invoice", item_count=40)
    assert tallest_row_fits(spec)
    texts = [" ".join(words_of(page)) for page in page_texts(render_pdf_bytes(spec))]
    assert len(texts) == spec.pages >= 2
    total = " ".join(words_of(spec.money_text(spec.total)))
    assert total in texts[-1] and not any(total in text for text in texts[:-1])

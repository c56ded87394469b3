"""``quire extract FILE --json`` as an operator runs it: the record schema of issue 4 (point 6), exactly,
and byte-identical output from separate processes (point 8).

Each run is a fresh ``python -m quire.cli`` process with its own QUIRE_HOME, so nothing (not even the
OCR cache) is shared between the two runs that must agree.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.factories import generate_invoice, make_packet, render_pdf, render_scan

FIELD_NAMES = {"vendor_name", "vendor_address", "invoice_number", "issue_date", "due_date", "currency",
               "subtotal_amount", "tax_amount", "total_amount"}
RECORD_KEYS = {"source", "sha256", "status", "reason", "pages", "ocr_pages", "documents"}
DOCUMENT_KEYS = {"id", "page_range", "doc_type", "doc_type_confidence", "fields", "line_items", "validation",
                 "routing"}
#: point 2's four line-item values, plus a confidence like every field's
LINE_ITEM_KEYS = {"description", "quantity", "unit_price", "discount_percent", "amount", "confidence"}
DOC_TYPES = {"invoice", "receipt", "credit_note", "purchase_order", "letter", "other"}
AMOUNT = re.compile(r"^-?\d+\.\d{2,}$")
QUANTITY = re.compile(r"^-?\d+(?:\.\d+)?$")
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def extract(paths: list[Path], home: Path) -> bytes:
    env = {key: value for key, value in os.environ.items() if not key.startswith("QUIRE_")}
    env["QUIRE_HOME"] = str(home)
    completed = subprocess.run([sys.executable, "-m", "quire.cli", "extract", *map(str, paths), "--json"],
                               env=env, capture_output=True, timeout=600, check=False)
    assert completed.returncode == 0, completed.stderr.decode(errors="replace")
    return completed.stdout


def records(output: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in output.decode("utf-8").splitlines()]


def assert_record_schema(record: dict[str, Any]) -> None:
    """Keys and types of one record, as issue 4 point 6 lays them out."""
    assert set(record) == RECORD_KEYS
    assert isinstance(record["source"], str)
    assert record["status"] in ("ok", "quarantined", "failed")
    assert isinstance(record["sha256"], str) and re.fullmatch(r"[0-9a-f]{64}", record["sha256"])
    assert record["reason"] is None if record["status"] == "ok" else isinstance(record["reason"], str)
    assert type(record["pages"]) is int and type(record["ocr_pages"]) is int
    assert 0 <= record["ocr_pages"] <= record["pages"]
    assert isinstance(record["documents"], list)
    if record["status"] != "ok":
        assert record["documents"] == [] and record["pages"] == 0
        return
    assert record["documents"], "an ok record describes at least one document"
    previous_last = 0
    for document in record["documents"]:
        assert set(document) == DOCUMENT_KEYS
        assert isinstance(document["id"], str) and re.fullmatch(r"[0-9a-f-]{36}", document["id"])
        first, last = document["page_range"]
        assert type(first) is int and type(last) is int and previous_last < first <= last <= record["pages"]
        previous_last = last
        assert document["doc_type"] in DOC_TYPES
        assert isinstance(document["doc_type_confidence"], float) and 0 <= document["doc_type_confidence"] <= 1
        assert document["routing"] in ("auto", "review", "blocked")
        assert set(document["fields"]) == FIELD_NAMES
        for name, field in document["fields"].items():
            assert set(field) == {"value", "confidence"}
            assert isinstance(field["confidence"], float) and 0 <= field["confidence"] <= 1
            value = field["value"]
            if value is None:
                continue
            assert isinstance(value, str)
            if name.endswith("_amount"):
                assert AMOUNT.match(value), (name, value)
            elif name.endswith("_date"):
                assert ISO_DATE.match(value), (name, value)
            elif name == "currency":
                assert re.fullmatch(r"[A-Z]{3}", value)
        for item in document["line_items"]:
            assert set(item) == LINE_ITEM_KEYS
            assert isinstance(item["description"], str)
            assert item["quantity"] is None or QUANTITY.match(item["quantity"])
            assert all(item[k] is None or AMOUNT.match(item[k]) for k in ("unit_price", "amount"))
            assert item["discount_percent"] is None or 0 < Decimal(item["discount_percent"]) < 100
            assert isinstance(item["confidence"], float)
        for result in document["validation"]:
            assert set(result) == {"rule", "ok", "detail"}
            assert isinstance(result["rule"], str) and isinstance(result["ok"], bool)
            assert isinstance(result["detail"], str)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("extract-inputs")
    invoice = folder / "invoice.pdf"
    render_pdf(generate_invoice(7, doc_type="invoice", language="de"), invoice)
    packet = folder / "packet.pdf"
    truth = make_packet([11, 12, 13], packet)
    (folder / "packet.json").write_text(json.dumps(
        [[part["first_page"], part["last_page"]] for part in truth]), encoding="utf-8")
    receipt = folder / "receipt.png"
    render_scan(generate_invoice(21, doc_type="receipt", language="en"), receipt, 21)
    broken = folder / "broken.pdf"
    broken.write_bytes(invoice.read_bytes()[: invoice.stat().st_size // 2])
    return {"invoice": invoice, "packet": packet, "receipt": receipt, "broken": broken}


def test_the_json_record_has_the_schema_of_issue_4_for_an_invoice_a_packet_and_a_quarantined_file(
        inputs, tmp_path):
    output = extract([inputs["invoice"], inputs["packet"], inputs["broken"]], tmp_path / "home")
    invoice, packet, broken = records(output)
    for record in (invoice, packet, broken):
        assert_record_schema(record)

    assert invoice["status"] == "ok" and invoice["ocr_pages"] == 0
    assert [d["doc_type"] for d in invoice["documents"]] == ["invoice"]
    assert invoice["documents"][0]["page_range"] == [1, invoice["pages"]]

    expected_ranges = json.loads((inputs["packet"].parent / "packet.json").read_text(encoding="utf-8"))
    assert [d["page_range"] for d in packet["documents"]] == expected_ranges
    assert len({d["id"] for d in packet["documents"]}) == len(expected_ranges)

    assert broken["status"] == "quarantined" and broken["reason"]
    assert broken["sha256"] is not None and broken["documents"] == []


def test_the_same_input_gives_byte_identical_json_in_separate_processes(inputs, tmp_path):
    paths = [inputs["invoice"], inputs["receipt"]]
    first = extract(paths, tmp_path / "first")
    second = extract(paths, tmp_path / "second")  # a cold OCR cache again: tesseract runs twice
    assert first == second
    invoice, receipt = records(first)
    assert invoice["status"] == receipt["status"] == "ok"
    assert receipt["ocr_pages"] == receipt["pages"] == 1
    assert_record_schema(receipt)

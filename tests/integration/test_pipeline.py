"""The whole pipeline in-process (the DAG's stage code without Airflow) on real files and injected faults."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import func, select

from quire.context import build_context
from quire.db.engine import transaction
from quire.db.models import (
    ClassificationRecord, Document, ExtractionRecord, OutboxEvent, PageResult, PipelineRun, PublishedDocument,
    SplitManifest,
)
from quire.intake import ingest_file
from quire.pipeline import advance_chunk, process_in_process
from quire.runs import Attempt, claim_documents
from tests.doubles import fault_count
from tests.factories.invoices import generate_invoice
from tests.factories.packet import make_packet
from tests.factories.render import render_pdf


@pytest.fixture
def fault_dir(tmp_path, monkeypatch):
    folder = tmp_path / "faults"
    monkeypatch.setenv("QUIRE_TEST_FAULT_DIR", str(folder))
    return folder


def _document(ctx, document_id):
    with transaction(ctx.engine) as session:
        return session.get(Document, uuid.UUID(document_id))


def _count(ctx, model, *where):
    with transaction(ctx.engine) as session:
        return session.execute(select(func.count()).select_from(model).where(*where)).scalar_one()


def test_digital_invoice_goes_all_the_way_to_complete(ctx, tmp_path):
    path = tmp_path / "invoice.pdf"
    render_pdf(generate_invoice(3, doc_type="invoice", language="en"), path)
    document_id = ingest_file(ctx, path).document_id
    totals = process_in_process(ctx, owner_run="t1")
    assert totals["claimed"] == 1 and totals["failed"] == 0
    document = _document(ctx, document_id)
    assert document.state in ("COMPLETE", "REVIEW_REQUIRED", "BLOCKED"), document.state_reason
    assert document.doc_type == "invoice"
    assert _count(ctx, PageResult, PageResult.method == "text_layer") == document.page_count
    assert _count(ctx, ClassificationRecord) == 1 and _count(ctx, ExtractionRecord) == 1
    if document.state == "COMPLETE":
        assert _count(ctx, PublishedDocument) == 1


def test_packet_is_split_into_children_by_an_immutable_manifest(ctx, tmp_path):
    path = tmp_path / "packet.pdf"
    truth = make_packet([11, 12, 13], path)
    document_id = ingest_file(ctx, path).document_id
    process_in_process(ctx, owner_run="t2")
    parent = _document(ctx, document_id)
    assert parent.state == "COMPLETE" and parent.state_reason == f"split into {len(truth)} documents"
    with transaction(ctx.engine) as session:
        children = session.execute(select(Document).where(Document.parent_id == parent.id)
                                   .order_by(Document.split_index)).scalars().all()
        manifest = session.execute(select(SplitManifest)).scalar_one()
    assert [(c.page_first, c.page_last) for c in children] == [(p["first_page"], p["last_page"]) for p in truth]
    assert [p["document_id"] for p in manifest.parts] == [str(c.id) for c in children]
    assert all(c.state in ("COMPLETE", "REVIEW_REQUIRED", "BLOCKED") for c in children)


def test_encrypted_and_malformed_pdfs_end_quarantined_and_block_nothing(ctx, corpus_dir, tmp_path):
    good = tmp_path / "good.pdf"
    render_pdf(generate_invoice(5, doc_type="invoice"), good)
    ids = [ingest_file(ctx, corpus_dir / "awkward" / name).document_id
           for name in ("pdfplumber__password-example.pdf", "ocrmypdf__invalid.pdf")]
    good_id = ingest_file(ctx, good).document_id
    process_in_process(ctx, owner_run="t3")
    assert [_document(ctx, i).state for i in ids] == ["QUARANTINED", "QUARANTINED"]
    assert _document(ctx, good_id).state != "PENDING"
    assert _count(ctx, PipelineRun, PipelineRun.outcome == "failed") == 0  # quarantined at intake: never claimed


def test_released_with_its_password_an_encrypted_pdf_is_processed(ctx, corpus_dir):
    from quire.services import release_document

    document_id = ingest_file(ctx, corpus_dir / "awkward" / "pdfplumber__password-example.pdf").document_id
    release_document(ctx, document_id, actor="test", password="test")
    process_in_process(ctx, owner_run="t4")
    document = _document(ctx, document_id)
    assert document.page_count == 4 and document.state not in ("PENDING", "QUARANTINED", "FAILED")


def test_crash_at_page_k_resumes_at_page_k(ctx, settings, corpus_dir, fault_dir, monkeypatch):
    # ocrmypdf__multipage.pdf: pages 1, 2, 3, 5, 6 need OCR, page 4 has a text layer; pages 1 and 2 are
    # scans (150 and 300 dpi), each read twice (at 300 dpi and as scanned or at 200), so OCR call 5 is page 3's.
    monkeypatch.setenv("QUIRE_TEST_CRASH_AT", "5")
    fake = build_context(settings.model_copy(update={"ocr_engine": "tests.doubles:FakeOcrEngine"}))
    document_id = ingest_file(fake, corpus_dir / "awkward" / "ocrmypdf__multipage.pdf").document_id
    claim_documents(fake, owner="dag/run-1", limit=1)
    first = advance_chunk(fake, "parse", [document_id], Attempt("dag", "run-1", "parse", 1, 2))
    assert first.transient_failures == [document_id]
    with transaction(ctx.engine) as session:
        saved = session.execute(select(PageResult.page_number).order_by(PageResult.page_number)).scalars().all()
    assert saved == [1, 2]  # committed before the crash on page 3
    second = advance_chunk(fake, "parse", [document_id], Attempt("dag", "run-1", "parse", 2, 2))
    assert second.advanced == [document_id]
    assert fault_count("ocr-calls") == 5 + 3  # retry OCRed pages 3, 5, 6 only
    with transaction(ctx.engine) as session:
        runs = session.execute(select(PipelineRun.try_number, PipelineRun.outcome, PipelineRun.detail)
                               .order_by(PipelineRun.try_number)).all()
    assert [(r.try_number, r.outcome) for r in runs] == [(1, "retry"), (2, "success")]
    assert runs[1].detail["resumed_at_page"] == 3 and runs[1].detail["pages_read"] == 4
    assert _document(ctx, document_id).state == "PARSED"


def test_transient_extract_failure_is_retried_without_reclassifying(ctx, settings, tmp_path, fault_dir):
    flaky = build_context(settings.model_copy(update={"extractor": "tests.doubles:flaky_extractor",
                                                      "classifier": "tests.doubles:counting_classifier"}))
    path = tmp_path / "invoice.pdf"
    render_pdf(generate_invoice(8, doc_type="invoice"), path)
    document_id = ingest_file(flaky, path).document_id
    totals = process_in_process(flaky, owner_run="t5")
    assert totals["failed"] == 0
    assert fault_count("extract-calls") == 2 and fault_count("classify-calls") == 1
    with transaction(ctx.engine) as session:
        runs = session.execute(select(PipelineRun.stage, PipelineRun.try_number, PipelineRun.outcome)
                               .order_by(PipelineRun.id)).all()
    assert [tuple(r) for r in runs] == [("parse", 1, "success"), ("split", 1, "success"),
                                         ("classify", 1, "success"), ("extract", 1, "retry"),
                                         ("extract", 2, "success"), ("publish", 1, "success")]
    assert _document(ctx, document_id).state in ("COMPLETE", "REVIEW_REQUIRED", "BLOCKED")


def test_running_the_pipeline_again_changes_nothing(ctx, tmp_path):
    path = tmp_path / "invoice.pdf"
    render_pdf(generate_invoice(21, doc_type="invoice"), path)
    ingest_file(ctx, path)
    process_in_process(ctx, owner_run="a")
    before = {m.__tablename__: _count(ctx, m) for m in (PageResult, ExtractionRecord, OutboxEvent, PublishedDocument)}
    assert process_in_process(ctx, owner_run="b")["claimed"] == 0
    assert {m.__tablename__: _count(ctx, m) for m in (PageResult, ExtractionRecord, OutboxEvent,
                                                      PublishedDocument)} == before


def test_documents_routed_to_review_release_their_lease(settings, tmp_path):
    # No confidence reaches 1.01, so every document is routed to a person.
    strict = build_context(settings.model_copy(update={"review_confidence": 1.01}))
    path = tmp_path / "invoice.pdf"
    render_pdf(generate_invoice(31, doc_type="invoice"), path)
    document_id = ingest_file(strict, path).document_id
    process_in_process(strict, owner_run="t6")
    document = _document(strict, document_id)
    assert (document.state, document.lease_owner) == ("REVIEW_REQUIRED", None)

"""Operator actions: audited, idempotent per request id, and refusing documents in the wrong state."""

import hashlib
import uuid

import pytest
from sqlalchemy import select

from quire.db.engine import transaction
from quire.db.models import AuditEvent, Document, DocumentSecret, ExtractionRecord, OutboxEvent
from quire.model import Extraction, FieldValue, Routing, ValidationResult
from quire.services import (
    AmbiguousDocumentError, DocumentNotFoundError, approve_document, document_detail, find_document,
    release_document, reprocess_document, retry_document, state_counts,
)
from quire.stages.extract import record_extraction
from quire.states import State
from tests.integration.factories import make_document


def _document(ctx, document_id):
    with transaction(ctx.engine) as session:
        return session.get(Document, uuid.UUID(document_id))


def _actions(ctx, document_id):
    with transaction(ctx.engine) as session:
        return session.execute(select(AuditEvent.action).where(AuditEvent.document_id == uuid.UUID(document_id))
                               .order_by(AuditEvent.id)).scalars().all()


def test_retry_reopens_where_it_stopped_with_a_fresh_budget_once_per_request(ctx):
    document_id = make_document(ctx, "f.pdf", state=State.FAILED, resume_state="CLASSIFIED", attempts=3,
                                state_reason="extract: backend down")
    first = retry_document(ctx, document_id, actor="alice", request_id="req-1")
    assert first.changed and first.state == "CLASSIFIED"
    document = _document(ctx, document_id)
    assert (document.state, document.attempts, document.resume_state) == ("CLASSIFIED", 0, None)
    again = retry_document(ctx, document_id, actor="alice", request_id="req-1")
    assert not again.changed and "already carried out" in again.message
    assert _actions(ctx, document_id).count("retry") == 1


def test_retry_of_a_document_that_is_not_failed_changes_nothing_and_says_why(ctx):
    document_id = make_document(ctx, "ok.pdf", state=State.COMPLETE)
    result = retry_document(ctx, document_id, actor="bob")
    assert not result.changed and "only FAILED" in result.message
    assert _document(ctx, document_id).state == "COMPLETE"


def test_release_stores_the_password_and_requeues(ctx):
    document_id = make_document(ctx, "locked.pdf", state=State.QUARANTINED,
                                state_reason="the PDF is encrypted and needs a password to open")
    result = release_document(ctx, document_id, actor="carol", password="test", request_id="r")
    assert result.changed and _document(ctx, document_id).state == "PENDING"
    with transaction(ctx.engine) as session:
        secret = session.get(DocumentSecret, uuid.UUID(document_id))
    assert (secret.password, secret.supplied_by) == ("test", "carol")
    assert not release_document(ctx, document_id, actor="carol", request_id="r").changed


def test_reprocess_restarts_a_complete_document_from_pending(ctx):
    document_id = make_document(ctx, "done.pdf", state=State.COMPLETE, attempts=1)
    result = reprocess_document(ctx, document_id, actor="dave", request_id="rp-1")
    assert result.changed and _document(ctx, document_id).state == "PENDING"
    assert "state_reset" in _actions(ctx, document_id) or "state_changed" in _actions(ctx, document_id)
    assert not reprocess_document(ctx, document_id, actor="dave", request_id="rp-1").changed


def test_approve_records_the_reviewers_correction_and_publishes(ctx):
    document_id = make_document(ctx, "unsure.pdf", state=State.REVIEW_REQUIRED)
    with transaction(ctx.engine) as session:
        record_extraction(session, uuid.UUID(document_id), Extraction(
            fields={"total_amount": FieldValue("10.00", 0.3), "invoice_number": FieldValue(None, 0.0)},
            line_items=(), validation=(ValidationResult("required_fields", False, "invoice_number missing"),),
            routing=Routing.REVIEW, extractor_version="x-1"), classification_id=None, pipeline_run_id=None)
    result = approve_document(ctx, document_id, actor="erin", request_id="ap-1",
                              corrections={"invoice_number": "INV-42", "total_amount": "1,010.5"})
    assert result.changed and result.state == "PUBLISHED"
    with transaction(ctx.engine) as session:
        reviewed = session.execute(select(ExtractionRecord).where(ExtractionRecord.origin == "review")).scalar_one()
        [event] = session.execute(select(OutboxEvent)).scalars().all()
    assert reviewed.fields["invoice_number"] == {"value": "INV-42", "confidence": 1.0}
    assert reviewed.fields["total_amount"]["value"] == "1010.50" and reviewed.decided_by == "erin"
    assert event.payload["origin"] == "review" and event.version == reviewed.id
    assert not approve_document(ctx, document_id, actor="erin", request_id="ap-1").changed


def test_documents_are_found_by_id_hash_or_unique_prefix(ctx):
    document_id = make_document(ctx, "a.pdf", content=b"alpha")
    sha = _document(ctx, document_id).sha256
    with transaction(ctx.engine) as session:
        assert str(find_document(session, document_id).id) == document_id
        assert str(find_document(session, sha).id) == document_id
        assert str(find_document(session, sha[:8].upper()).id) == document_id
        with pytest.raises(DocumentNotFoundError):
            find_document(session, "ffffffffffff")


def _two_contents_sharing_a_hash_prefix(length: int = 6) -> tuple[bytes, bytes, str]:
    """Birthday search: two byte strings whose sha256 share the first ``length`` hex digits."""
    seen: dict[str, bytes] = {}
    n = 0
    while True:
        content = f"content-{n}".encode()
        prefix = hashlib.sha256(content).hexdigest()[:length]
        if prefix in seen:
            return seen[prefix], content, prefix
        seen[prefix] = content
        n += 1


def test_an_ambiguous_prefix_is_refused(ctx):
    first, second, prefix = _two_contents_sharing_a_hash_prefix()
    make_document(ctx, "one.pdf", content=first)
    make_document(ctx, "two.pdf", content=second)
    with transaction(ctx.engine) as session, pytest.raises(AmbiguousDocumentError):
        find_document(session, prefix)


def test_state_counts_and_detail(ctx):
    document_id = make_document(ctx, "x.pdf", state=State.BLOCKED, state_reason="blocked by total_matches_lines")
    counts = state_counts(ctx)
    assert counts["BLOCKED"] == 1 and counts["PENDING"] == 0 and set(counts) == {s.value for s in State}
    detail = document_detail(ctx, document_id)
    assert detail["state"] == "BLOCKED" and detail["reason"] == "blocked by total_matches_lines"
    assert detail["attempts_log"] == [] and detail["split_manifest"] is None


def test_a_refused_request_does_not_use_up_its_request_id(ctx):
    document_id = make_document(ctx, "busy.pdf", state=State.COMPLETE)
    refused = retry_document(ctx, document_id, actor="fay", request_id="req-7")
    assert not refused.changed and "only FAILED" in refused.message
    assert "retry" not in _actions(ctx, document_id)
    with transaction(ctx.engine) as session:
        session.get(Document, uuid.UUID(document_id)).state = State.FAILED.value
    assert retry_document(ctx, document_id, actor="fay", request_id="req-7").changed

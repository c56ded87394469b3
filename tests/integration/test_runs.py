"""Claims, leases and attempt records against a real PostgreSQL."""

import multiprocessing
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from quire.db.engine import transaction
from quire.db.models import AuditEvent, Document, PipelineRun
from quire.errors import EngineError, UnreadableDocumentError
from quire.runs import Attempt, LeaseLostError, claim_documents, record_attempt, renew_lease
from quire.states import State
from tests.integration.factories import make_document


def _state(ctx, document_id):
    with transaction(ctx.engine) as session:
        return session.get(Document, uuid.UUID(document_id))


def test_claim_takes_pending_documents_oldest_first_and_leases_them(ctx):
    now = datetime.now(UTC)
    older = make_document(ctx, "older.pdf", received_at=now - timedelta(hours=1))
    newer = make_document(ctx, "newer.pdf", received_at=now)
    result = claim_documents(ctx, owner="dag/run-1", limit=1)
    assert [d.id for d in result.claimed] == [older]
    document = _state(ctx, older)
    assert (document.state, document.lease_owner, document.attempts) == ("IN_PROGRESS", "dag/run-1", 1)
    assert document.lease_expires_at > now
    assert _state(ctx, newer).state == "PENDING"


def test_claim_label_names_the_file_and_short_hash(ctx):
    make_document(ctx, "invoice-2026-03.pdf")
    [claimed] = claim_documents(ctx, owner="o", limit=5).claimed
    assert claimed.label.startswith("invoice-2026-03.pdf [") and claimed.sha256[:8] in claimed.label


def _claim_in_process(url, home, owner, queue):
    from quire.context import build_context
    from quire.settings import Settings

    ctx = build_context(Settings(home=home, database_url=url))
    queue.put([d.id for d in claim_documents(ctx, owner=owner, limit=10).claimed])


def test_two_runs_at_once_claim_disjoint_documents(ctx, settings):
    ids = {make_document(ctx, f"doc-{i}.pdf") for i in range(20)}
    queue = multiprocessing.get_context("spawn").Queue()
    workers = [multiprocessing.get_context("spawn").Process(
        target=_claim_in_process, args=(settings.database_url, settings.home, f"dag/run-{n}", queue))
        for n in range(2)]
    for worker in workers:
        worker.start()
    claimed = [queue.get(timeout=60) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
    assert set(claimed[0]).isdisjoint(claimed[1])
    assert set(claimed[0]) | set(claimed[1]) == ids


def test_an_expired_lease_is_claimed_again_by_another_run(ctx):
    document_id = make_document(ctx, "stuck.pdf")
    claim_documents(ctx, owner="dag/killed-run", limit=1)
    assert claim_documents(ctx, owner="dag/second", limit=1).claimed == []  # lease still valid
    with transaction(ctx.engine) as session:
        session.execute(update(Document).values(state=State.PARSED.value,
                                                lease_expires_at=datetime.now(UTC) - timedelta(seconds=1)))
    [reclaimed] = claim_documents(ctx, owner="dag/second", limit=1).claimed
    assert reclaimed.id == document_id and reclaimed.state == "PARSED"  # resumes where it was
    document = _state(ctx, document_id)
    assert (document.lease_owner, document.attempts) == ("dag/second", 2)
    with transaction(ctx.engine) as session:
        actions = session.execute(select(AuditEvent.action).where(
            AuditEvent.document_id == document.id)).scalars().all()
    assert "lease_expired" in actions


def test_exhausted_attempts_end_failed_with_the_reason_instead_of_a_silent_reclaim(ctx):
    document_id = make_document(ctx, "poison.pdf", state=State.PARSED, attempts=3, max_attempts=3)
    result = claim_documents(ctx, owner="dag/run", limit=5)
    assert result.claimed == [] and result.exhausted == [document_id]
    document = _state(ctx, document_id)
    assert document.state == "FAILED"
    assert "attempt budget exhausted: 3 of 3" in document.state_reason
    assert document.resume_state == "PARSED"


def test_renew_lease_refuses_a_document_another_run_holds(ctx):
    document_id = make_document(ctx, "held.pdf")
    claim_documents(ctx, owner="dag/a", limit=1)
    with pytest.raises(LeaseLostError):
        renew_lease(ctx, document_id, "dag/b")
    renew_lease(ctx, document_id, "dag/a")


def _attempt(try_number=1, max_tries=2, run_id="run-1"):
    return Attempt("quire_documents", run_id, "parse", try_number=try_number, max_tries=max_tries, map_index=0)


def test_record_attempt_writes_one_row_per_try_with_outcome_and_error_class(ctx):
    document_id = make_document(ctx, "flaky.pdf")
    claim_documents(ctx, owner=_attempt().owner, limit=1)
    with pytest.raises(EngineError), record_attempt(ctx, document_id, _attempt(1), "parse"):
        raise EngineError("tesseract was killed")
    with record_attempt(ctx, document_id, _attempt(2), "parse") as record:
        record.detail = {"pages": 2}
    with transaction(ctx.engine) as session:
        rows = session.execute(select(PipelineRun).order_by(PipelineRun.try_number)).scalars().all()
    assert [(r.try_number, r.outcome) for r in rows] == [(1, "retry"), (2, "success")]
    assert rows[0].error_class == "quire.errors.EngineError"
    assert "tesseract was killed" in rows[0].error_message and "Traceback" in rows[0].traceback_excerpt
    assert rows[1].detail == {"pages": 2} and rows[1].ended_at >= rows[1].started_at
    assert _state(ctx, document_id).state == "IN_PROGRESS"  # a retryable failure leaves the state alone


def test_transient_failure_on_the_last_try_ends_failed_with_a_resume_point(ctx):
    document_id = make_document(ctx, "doomed.pdf")
    claim_documents(ctx, owner=_attempt().owner, limit=1)
    with pytest.raises(EngineError), record_attempt(ctx, document_id, _attempt(3, max_tries=2), "parse"):
        raise EngineError("still down")
    document = _state(ctx, document_id)
    assert (document.state, document.resume_state, document.lease_owner) == ("FAILED", "IN_PROGRESS", None)
    assert "parse: still down" in document.state_reason


def test_terminal_error_moves_straight_to_its_terminal_state(ctx):
    document_id = make_document(ctx, "broken.pdf")
    claim_documents(ctx, owner=_attempt().owner, limit=1)
    with pytest.raises(UnreadableDocumentError), record_attempt(ctx, document_id, _attempt(1), "parse"):
        raise UnreadableDocumentError("no /Root object")
    assert _state(ctx, document_id).state == "QUARANTINED"

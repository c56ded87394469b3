"""A backfill run reprocesses the documents received in its data interval, idempotently.

fetch_pending is called as Airflow calls it (a context with the run's type and
data interval) against the real test database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from quire.db.engine import transaction
from quire.db.models import Document
from quire.states import State
from tests.integration.factories import make_document

DAY = datetime(2024, 3, 5, tzinfo=UTC)


@dataclass
class _TI:
    dag_id: str
    run_id: str
    task_id: str = "fetch_pending"
    try_number: int = 1
    max_tries: int = 3
    map_index: int = -1


@dataclass
class _DagRun:
    run_type: str


def _context(run_id: str, run_type: str, start: datetime, end: datetime, **params) -> dict:
    return {"ti": _TI("document_pipeline", run_id), "dag_run": _DagRun(run_type),
            "data_interval_start": start, "data_interval_end": end,
            "params": {"document_ids": [], "force_reprocess": False, "chunk_size": 0, "limit": 1000, **params}}


def _state(ctx, document_id: str) -> tuple[str, str | None]:
    with transaction(ctx.engine) as session:
        document = session.get(Document, __import__("uuid").UUID(document_id))
        return document.state, document.lease_owner


def test_backfill_reopens_and_claims_only_documents_received_in_its_interval(quire_env, ctx):
    import _quire_adapter as adapter

    inside_done = make_document(ctx, "inside-done.pdf", state=State.COMPLETE, received_at=DAY + timedelta(hours=3))
    inside_failed = make_document(ctx, "inside-failed.pdf", state=State.FAILED,
                                  received_at=DAY + timedelta(hours=20))
    before = make_document(ctx, "before.pdf", state=State.COMPLETE, received_at=DAY - timedelta(minutes=1))
    after_pending = make_document(ctx, "after.pdf", state=State.PENDING, received_at=DAY + timedelta(days=1))
    run_id = "backfill__2024-03-06T00:00:00+00:00"
    context = _context(run_id, "backfill", DAY, DAY + timedelta(days=1))

    chunks = adapter.fetch_pending(context)

    claimed = sorted(i for chunk in chunks for i in chunk["document_ids"])
    assert claimed == sorted([inside_done, inside_failed])
    owner = f"document_pipeline/{run_id}"
    assert _state(ctx, inside_done) == ("IN_PROGRESS", owner)
    assert _state(ctx, inside_failed) == ("IN_PROGRESS", owner)
    assert _state(ctx, before) == ("COMPLETE", None)  # outside the interval: untouched
    assert _state(ctx, after_pending) == ("PENDING", None)  # pending, but not this backfill's business

    # a retried fetch_pending (same run) returns the same documents and reopens nothing twice
    again = adapter.fetch_pending(context)
    assert sorted(i for chunk in again for i in chunk["document_ids"]) == claimed


def test_scheduled_runs_ignore_their_data_interval(quire_env, ctx):
    import _quire_adapter as adapter

    done = make_document(ctx, "done.pdf", state=State.COMPLETE, received_at=DAY + timedelta(hours=1))
    pending = make_document(ctx, "pending.pdf", state=State.PENDING, received_at=DAY - timedelta(days=30))
    context = _context("scheduled__2024-03-06T00:00:00+00:00", "scheduled", DAY, DAY + timedelta(days=1))

    chunks = adapter.fetch_pending(context)

    assert [i for chunk in chunks for i in chunk["document_ids"]] == [pending]
    assert _state(ctx, done) == ("COMPLETE", None)


def test_force_reprocess_reopens_the_named_documents(quire_env, ctx):
    import _quire_adapter as adapter

    done = make_document(ctx, "done.pdf", state=State.COMPLETE)
    other = make_document(ctx, "other.pdf", state=State.PENDING)
    with transaction(ctx.engine) as session:
        sha = session.get(Document, __import__("uuid").UUID(done)).sha256
    context = _context("manual__1", "manual", DAY, DAY, document_ids=[sha[:10]], force_reprocess=True)

    chunks = adapter.fetch_pending(context)

    assert [c["document_ids"] for c in chunks] == [[done]]  # named by a hash prefix; `other` not included
    assert chunks[0]["label"].startswith("done.pdf [")
    assert _state(ctx, done)[0] == "IN_PROGRESS" and _state(ctx, other) == ("PENDING", None)

"""Claims, leases and the record of every task attempt (``pipeline_runs``).

A DAG run claims documents with ``FOR UPDATE SKIP LOCKED`` and holds each under
a lease (owner = the run, expiry = now + lease). Two runs never claim the same
document; a lease left behind by a killed run expires and the document is
claimed again. Each claim spends one unit of the document's attempt budget; a
document whose budget is spent ends FAILED with the reason instead of being
claimed again silently, until an explicit retry grants a fresh budget.
"""

from __future__ import annotations

import logging
import traceback
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert

from quire.context import QuireContext
from quire.db.engine import transaction
from quire.db.models import Document, PipelineRun
from quire.db.repository import record_audit, transition
from quire.errors import QuireError, TerminalError
from quire.states import State

log = logging.getLogger(__name__)

#: states a claimed document can be in while the pipeline works on it
WORKING_STATES = (State.IN_PROGRESS, State.PARSED, State.SPLIT, State.CLASSIFIED, State.EXTRACTED,
                  State.PUBLISHED)
TRACEBACK_EXCERPT_CHARS = 4000


class LeaseLostError(TerminalError):
    """Another run holds the document's lease: this run must leave it alone."""


@dataclass(frozen=True, slots=True)
class Attempt:
    """Which Airflow task attempt is working (or a plain-loop stand-in for it)."""

    dag_id: str
    run_id: str
    task_id: str
    try_number: int = 1
    max_tries: int = 0  # retries allowed after the first try
    map_index: int = -1

    @property
    def owner(self) -> str:
        return f"{self.dag_id}/{self.run_id}"

    @property
    def is_last_try(self) -> bool:
        return self.try_number > self.max_tries


@dataclass(frozen=True, slots=True)
class ClaimedDocument:
    id: str
    sha256: str
    name: str
    state: str

    @property
    def label(self) -> str:
        """How the document is shown on its mapped task instance in the Airflow grid."""
        return f"{self.name[:40]} [{self.sha256[:8]}]"


@dataclass
class ClaimResult:
    claimed: list[ClaimedDocument] = field(default_factory=list)
    exhausted: list[str] = field(default_factory=list)


def claim_documents(ctx: QuireContext, *, owner: str, limit: int,
                    document_ids: Sequence[str] | None = None,
                    received_between: tuple[datetime, datetime] | None = None) -> ClaimResult:
    """Claim up to ``limit`` root documents for ``owner``: pending ones, and ones whose lease expired.

    With ``document_ids`` only those are considered (a manual trigger for one
    document shows that document alone). With ``received_between`` (start
    inclusive, end exclusive) only documents received in that interval are
    (a backfill run over a date range).
    """
    result = ClaimResult()
    lease = timedelta(seconds=ctx.settings.lease_seconds)
    with transaction(ctx.engine) as session:
        now = func.now()
        lease_free = or_(Document.lease_owner.is_(None), Document.lease_expires_at < now,
                         Document.lease_owner == owner)
        claimable = or_(Document.state == State.PENDING.value,
                        and_(Document.state.in_([s.value for s in WORKING_STATES]), lease_free))
        query = (select(Document).where(Document.parent_id.is_(None), claimable)
                 .order_by(Document.received_at, Document.id).limit(limit)
                 .with_for_update(skip_locked=True))
        if document_ids:
            query = query.where(Document.id.in_([uuid.UUID(str(d)) for d in document_ids]))
        if received_between is not None:
            query = query.where(Document.received_at >= received_between[0],
                                Document.received_at < received_between[1])
        for document in session.execute(query).scalars():
            if document.lease_owner == owner:
                pass  # this run already holds it (a retried fetch): no new attempt is spent
            elif document.attempts >= document.max_attempts:
                reason = (f"attempt budget exhausted: {document.attempts} of {document.max_attempts} "
                          f"attempts used (last stage: {document.current_stage or 'none'}); "
                          "`quire retry` grants a fresh budget")
                _fail(session, document, reason)
                result.exhausted.append(str(document.id))
                continue
            else:
                document.attempts += 1
            if document.lease_owner and document.lease_owner != owner:
                record_audit(session, action="lease_expired", document_id=document.id,
                             detail={"previous_owner": document.lease_owner, "new_owner": owner})
            document.lease_owner = owner
            document.lease_expires_at = now + lease
            if document.state == State.PENDING.value:
                transition(session, document, State.IN_PROGRESS, stage="fetch_pending")
            result.claimed.append(ClaimedDocument(str(document.id), document.sha256 or "", document.original_name,
                                                  document.state))
    return result


def _fail(session, document: Document, reason: str) -> None:
    resume = document.state if document.state != State.PENDING.value else None
    transition(session, document, State.FAILED, reason=reason)
    document.resume_state = resume
    document.lease_owner = None
    document.lease_expires_at = None


def renew_lease(ctx: QuireContext, document_id: str, owner: str) -> None:
    """Extend ``owner``'s lease, or take over an expired or released one; raise if another run holds it."""
    with transaction(ctx.engine) as session:
        renewed = session.execute(
            update(Document)
            .where(Document.id == uuid.UUID(document_id),
                   or_(Document.lease_owner.is_(None), Document.lease_owner == owner,
                       Document.lease_expires_at < func.now()))
            .values(lease_owner=owner,
                    lease_expires_at=func.now() + timedelta(seconds=ctx.settings.lease_seconds))
            .returning(Document.id)
        ).first()
    if renewed is None:
        raise LeaseLostError(f"document {document_id} is leased to another run")


def release_lease(ctx: QuireContext, document_id: str, owner: str) -> None:
    with transaction(ctx.engine) as session:
        session.execute(update(Document)
                        .where(Document.id == uuid.UUID(document_id), Document.lease_owner == owner)
                        .values(lease_owner=None, lease_expires_at=None))


def _error_class(exc: BaseException) -> str:
    kind = type(exc)
    return kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"


def _open_run(ctx: QuireContext, document_id: str, attempt: Attempt, stage: str) -> int:
    values: dict[str, Any] = dict(document_id=uuid.UUID(document_id), dag_id=attempt.dag_id, run_id=attempt.run_id,
                                  task_id=attempt.task_id, map_index=attempt.map_index,
                                  try_number=attempt.try_number, stage=stage)
    with transaction(ctx.engine) as session:
        run_id = session.execute(
            insert(PipelineRun).values(**values)
            .on_conflict_do_update(constraint="uq_pipeline_runs_attempt",
                                   set_={"started_at": func.now(), "ended_at": None, "outcome": "running",
                                         "error_class": None, "error_message": None, "traceback_excerpt": None})
            .returning(PipelineRun.id)).scalar_one()
        session.execute(update(Document).where(Document.id == values["document_id"])
                        .values(total_attempts=Document.total_attempts + 1, current_stage=stage,
                                updated_at=func.now()))
    return run_id


def _close_run(ctx: QuireContext, run_id: int, outcome: str, exc: BaseException | None = None,
               detail: dict[str, Any] | None = None) -> None:
    values: dict[str, Any] = {"outcome": outcome, "ended_at": func.now(), "detail": detail}
    if exc is not None:
        values.update(error_class=_error_class(exc), error_message=str(exc)[:2000] or type(exc).__name__,
                      traceback_excerpt="".join(traceback.format_exception(exc))[-TRACEBACK_EXCERPT_CHARS:])
    with transaction(ctx.engine) as session:
        session.execute(update(PipelineRun).where(PipelineRun.id == run_id).values(**values))


@dataclass
class AttemptRecord:
    """Handed to the stage so it can attach a small summary to its pipeline_runs row."""

    run_row_id: int
    detail: dict[str, Any] = field(default_factory=dict)


@contextmanager
def record_attempt(ctx: QuireContext, document_id: str, attempt: Attempt, stage: str) -> Iterator[AttemptRecord]:
    """Open a ``pipeline_runs`` row, run the block, close the row with its outcome.

    This is where retryability is decided, by error class: a TerminalError moves
    the document to the error's terminal state at once; any other error is
    retried by Airflow, and on the last try the document ends FAILED with a
    note of where to resume. The exception is always re-raised for the caller
    (the Airflow adapter) to translate.
    """
    renew_lease(ctx, document_id, attempt.owner)
    record = AttemptRecord(_open_run(ctx, document_id, attempt, stage))
    try:
        yield record
    except LeaseLostError as exc:
        _close_run(ctx, record.run_row_id, "skipped", exc)
        raise
    except BaseException as exc:
        terminal = isinstance(exc, QuireError) and not exc.retryable
        final = terminal or attempt.is_last_try or not isinstance(exc, Exception)
        _close_run(ctx, record.run_row_id, "failed" if final else "retry", exc, record.detail or None)
        if final:
            target = State(exc.terminal_state) if isinstance(exc, QuireError) else State.FAILED
            _stop_document(ctx, document_id, target, stage, exc, attempt)
        raise
    else:
        _close_run(ctx, record.run_row_id, "success", detail=record.detail or None)


def _stop_document(ctx: QuireContext, document_id: str, target: State, stage: str, exc: BaseException,
                   attempt: Attempt) -> None:
    reason = f"{stage}: {exc}" if str(exc) else f"{stage}: {type(exc).__name__}"
    with transaction(ctx.engine) as session:
        document = session.get(Document, uuid.UUID(document_id), with_for_update=True)
        if document is None or State(document.state) in (State.FAILED, State.BLOCKED, State.QUARANTINED):
            return
        resume_state = document.state
        transition(session, document, target, reason=reason, stage=stage,
                   detail={"error_class": _error_class(exc), "run_id": attempt.run_id, "task_id": attempt.task_id,
                           "try_number": attempt.try_number})
        if target is State.FAILED:
            document.resume_state = resume_state
        document.lease_owner = None
        document.lease_expires_at = None

"""Advance a chunk of documents through one stage: the unit of work of one Airflow task instance.

A task instance carries a chunk of documents because Airflow costs ~1.4-3
slot-seconds per task instance while a text-layer page costs milliseconds; a
manual trigger for one document still gets a chunk of one. Inside a chunk each
document is isolated: its attempt is recorded on its own ``pipeline_runs`` row,
its failure is classified on its own, and the other documents go on.
"""

from __future__ import annotations

import logging
import math
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sqlalchemy import select

from quire.context import QuireContext
from quire.db.engine import transaction
from quire.db.models import Document, PipelineRun
from quire.db.repository import record_audit, transition
from quire.errors import QuireError
from quire.runs import Attempt, ClaimedDocument, LeaseLostError, record_attempt
from quire.stages.classify import classify_document
from quire.stages.common import StageResult, document_parts, state_of
from quire.stages.extract import extract_document
from quire.stages.parse import parse_document
from quire.stages.publish import SETTLED, publish_document
from quire.stages.split import split_document
from quire.states import State

log = logging.getLogger(__name__)

STAGES = ("parse", "split", "classify", "extract", "publish")


@dataclass(frozen=True)
class StageSpec:
    name: str
    run: Callable[..., StageResult]
    #: is the root document (with its parts) waiting for this stage?
    is_ready: Callable[[Document, list[Document]], bool]
    takes_run_row: bool = False


def _parts_in(state: State) -> Callable[[Document, list[Document]], bool]:
    return lambda root, parts: state_of(root) not in (State.FAILED,) and any(state_of(p) is state for p in parts)


SPECS: dict[str, StageSpec] = {
    "parse": StageSpec("parse", parse_document, lambda root, parts: state_of(root) is State.IN_PROGRESS),
    "split": StageSpec("split", split_document, lambda root, parts: state_of(root) is State.PARSED),
    "classify": StageSpec("classify", classify_document, _parts_in(State.SPLIT), takes_run_row=True),
    "extract": StageSpec("extract", extract_document, _parts_in(State.CLASSIFIED), takes_run_row=True),
    "publish": StageSpec("publish", publish_document,
                         lambda root, parts: _parts_in(State.EXTRACTED)(root, parts) or _unfinished_lease(root, parts)),
}


def _unfinished_lease(root: Document, parts: list[Document]) -> bool:
    """A packet waiting to be completed, or a document routed to review/blocked that still holds its lease."""
    if state_of(root) is State.SPLIT and parts[0].id != root.id:
        return True
    return root.lease_owner is not None and all(state_of(p) in SETTLED for p in parts)


@dataclass
class ChunkOutcome:
    stage: str
    advanced: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    transient_failures: list[str] = field(default_factory=list)
    terminal_failures: list[str] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)

    def to_xcom(self) -> dict[str, int | str]:
        return {"stage": self.stage, "advanced": len(self.advanced), "skipped": len(self.skipped),
                "transient_failures": len(self.transient_failures),
                "terminal_failures": len(self.terminal_failures)}

    def summary(self) -> str:
        failures = "; ".join(f"{doc[:8]}: {message}" for doc, message in self.errors.items())
        return (f"{self.stage}: {len(self.advanced)} advanced, {len(self.skipped)} not ready, "
                f"{len(self.transient_failures)} will retry, {len(self.terminal_failures)} failed"
                + (f" ({failures})" if failures else ""))


#: up to this many documents per slot, each document gets a task instance of its own
FEW_DOCUMENTS_PER_SLOT = 4
#: a backlog is cut into this many waves per slot. One: a second wave queued every other chunk behind the
#: first (bench/throughput.py, 72 scans on 4 slots: ratio 0.58/0.71 with two waves, 0.85/0.83 with one),
#: and Airflow's ~1.5-3 slot-seconds per task instance are paid once per slot and stage
BACKLOG_WAVES = 1
MAX_CHUNK_SIZE = 500


def plan_chunks(claimed: Sequence[ClaimedDocument], chunk_size: int = 0, *, slots: int = 2) -> list[dict]:
    """Group claimed documents into chunks for mapped task instances.

    ``chunk_size`` 0 picks automatically: one document per instance while there
    are few (each shows alone in the grid), and for a backlog about
    ``BACKLOG_WAVES`` chunks per slot, so the per-instance overhead is spread
    over many documents.
    """
    if not claimed:
        return []
    if chunk_size <= 0:
        if len(claimed) <= slots * FEW_DOCUMENTS_PER_SLOT:
            chunk_size = 1
        else:
            chunk_size = min(MAX_CHUNK_SIZE, math.ceil(len(claimed) / (slots * BACKLOG_WAVES)))
    chunks = []
    for start in range(0, len(claimed), chunk_size):
        members = claimed[start:start + chunk_size]
        label = members[0].label + (f" +{len(members) - 1} more" if len(members) > 1 else "")
        chunks.append({"label": label, "document_ids": [d.id for d in members]})
    return chunks


def advance_chunk(ctx: QuireContext, stage: str, document_ids: Sequence[str], attempt: Attempt) -> ChunkOutcome:
    """Run ``stage`` for every document of the chunk that is ready for it, each in isolation."""
    spec = SPECS[stage]
    outcome = ChunkOutcome(stage)
    for document_id in document_ids:
        _resume_if_failed_here(ctx, document_id, attempt, stage)
        with transaction(ctx.engine) as session:
            root = session.get(Document, uuid.UUID(document_id))
            ready = root is not None and spec.is_ready(root, document_parts(session, root))
        if not ready:
            outcome.skipped.append(document_id)
            continue
        try:
            with record_attempt(ctx, document_id, attempt, stage) as record:
                result = (spec.run(document_id, ctx, record.run_row_id) if spec.takes_run_row
                          else spec.run(document_id, ctx))
                record.detail = result.to_xcom()
        except LeaseLostError as exc:
            outcome.skipped.append(document_id)
            outcome.errors[document_id] = str(exc)
        except Exception as exc:  # noqa: BLE001 - classified here, per document, so the chunk goes on
            retryable = not isinstance(exc, QuireError) or exc.retryable
            if retryable and not attempt.is_last_try:
                outcome.transient_failures.append(document_id)
            else:
                outcome.terminal_failures.append(document_id)
            outcome.errors[document_id] = f"{type(exc).__name__}: {exc}"
            log.warning("%s failed for %s: %s", stage, document_id, exc, exc_info=not isinstance(exc, QuireError))
        else:
            outcome.advanced.append(document_id)
    return outcome


def _resume_if_failed_here(ctx: QuireContext, document_id: str, attempt: Attempt, stage: str) -> None:
    """A cleared task instance resumes the document this very run left FAILED at this very stage."""
    with transaction(ctx.engine) as session:
        document = session.get(Document, uuid.UUID(document_id), with_for_update=True)
        if document is None or state_of(document) is not State.FAILED or not document.resume_state:
            return
        last_failure = session.execute(
            select(PipelineRun.run_id, PipelineRun.stage).where(PipelineRun.document_id == document.id,
                                                                PipelineRun.outcome == "failed")
            .order_by(PipelineRun.id.desc()).limit(1)).first()
        if last_failure is None or tuple(last_failure) != (attempt.run_id, stage):
            return
        resume_state = State(document.resume_state)
        transition(session, document, resume_state, stage=stage, reason=None,
                   detail={"resumed_by": attempt.owner, "try_number": attempt.try_number})
        document.resume_state = None
        record_audit(session, action="resumed", document_id=document.id,
                     detail={"stage": stage, "run_id": attempt.run_id, "state": resume_state.value})


def process_in_process(ctx: QuireContext, *, owner_run: str, limit: int = 1000, max_tries: int = 3,
                       document_ids: Sequence[str] | None = None) -> dict[str, int]:
    """Claim and run every stage in this process, the same code the DAG runs, without Airflow.

    Used by tests and by the throughput benchmark's baseline. A transient
    failure is retried here up to ``max_tries`` times, as Airflow would.
    """
    from quire.runs import claim_documents
    from quire.stages.publish import dispatch_outbox

    claimed = claim_documents(ctx, owner=f"in-process/{owner_run}", limit=limit, document_ids=document_ids)
    ids = [d.id for d in claimed.claimed]
    totals = {"claimed": len(ids), "exhausted": len(claimed.exhausted), "failed": 0}
    for stage in STAGES:
        pending = ids
        for try_number in range(1, max_tries + 1):
            attempt = Attempt("in-process", owner_run, stage, try_number=try_number, max_tries=max_tries - 1)
            outcome = advance_chunk(ctx, stage, pending, attempt)
            totals["failed"] += len(outcome.terminal_failures)
            pending = outcome.transient_failures
            if not pending:
                break
    totals["delivered"] = len(dispatch_outbox(ctx, owner=f"in-process/{owner_run}").delivered)
    return totals

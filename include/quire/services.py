"""Operator actions and read models, shared by the CLI and the Airflow UI plugin.

Every action is recorded in the audit trail and is idempotent: given the same
``request_id`` twice (a double click, a retried HTTP call) it acts once; and
an action on a document that is no longer in the state it applies to changes
nothing and says why.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from quire.airflow_api import AirflowRunNotFoundError, TaskInstanceClearer
from quire.context import QuireContext
from quire.db.engine import transaction
from quire.db.models import (
    AuditEvent, ClassificationRecord, Document, DocumentSecret, DocumentSource, ExtractionRecord, OutboxEvent,
    PageResult, PipelineRun, PublishedDocument, SplitManifest,
)
from quire.db.repository import record_audit, transition
from quire.errors import TerminalError
from quire.model import Extraction, FieldValue, LineItem, Routing, ValidationResult
from quire.stages.common import PARSE_STAGE
from quire.stages.extract import latest_extraction, record_extraction
from quire.stages.publish import publish_part
from quire.states import ALLOWED, State

UNFINISHED = (State.PENDING, State.IN_PROGRESS, State.PARSED, State.SPLIT, State.CLASSIFIED, State.EXTRACTED,
              State.PUBLISHED)


class DocumentNotFoundError(TerminalError):
    """No document matches the id or hash prefix given."""


class AmbiguousDocumentError(TerminalError):
    """A hash prefix matches more than one document."""


@dataclass(frozen=True, slots=True)
class ActionResult:
    document_id: str
    action: str
    changed: bool
    state: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"document_id": self.document_id, "action": self.action, "changed": self.changed,
                "state": self.state, "message": self.message}


def find_document(session: Session, reference: str) -> Document:
    """A document by id, by full sha256, or by a unique sha256 prefix (at least 6 characters)."""
    reference = reference.strip().lower()
    try:
        found = session.get(Document, uuid.UUID(reference))
        if found is not None:
            return found
    except ValueError:
        pass
    if len(reference) >= 6 and all(c in "0123456789abcdef" for c in reference):
        matches = session.execute(select(Document).where(Document.sha256.startswith(reference, autoescape=True))
                                  .limit(2)).scalars().all()
        if len(matches) > 1:
            raise AmbiguousDocumentError(f"hash prefix {reference!r} matches more than one document")
        if matches:
            return matches[0]
    raise DocumentNotFoundError(f"no document matches {reference!r} (give an id, a sha256 or its prefix)")


def resolve_document_ids(ctx: QuireContext, references: list[str]) -> list[str]:
    with transaction(ctx.engine) as session:
        return [str(find_document(session, ref).id) for ref in references]


class ActionRefused(Exception):
    """An action that does not apply to the document as it is now.

    Raised inside the action's transaction so that nothing it wrote, its
    request id included, is kept: the same request may be sent again once the
    document is in a state it applies to.
    """

    def __init__(self, document_id: str, action: str, state: str, message: str) -> None:
        super().__init__(message)
        self.result = ActionResult(document_id, action, False, state, message)


def refusals_as_results(action: Callable[..., ActionResult]) -> Callable[..., ActionResult]:
    @functools.wraps(action)
    def run(*args: Any, **kwargs: Any) -> ActionResult:
        try:
            return action(*args, **kwargs)
        except ActionRefused as refused:
            return refused.result
    return run


def _begin(session: Session, reference: str, action: str, actor: str, request_id: str | None,
           detail: dict[str, Any] | None = None) -> tuple[Document, bool]:
    document = find_document(session, reference)
    session.refresh(document, with_for_update=True)
    fresh = record_audit(session, action=action, document_id=document.id, actor=actor, request_id=request_id,
                         detail={"request_id": request_id, **(detail or {})})
    return document, fresh


def _repeat(document: Document, action: str) -> ActionResult:
    return ActionResult(str(document.id), action, False, document.state, "this request was already carried out")


def _reopen_failed(session: Session, document: Document, actor: str, reason: str) -> State:
    """Put a FAILED document back where it stopped, unleased, with a fresh attempt budget."""
    target = State(document.resume_state) if document.resume_state else State.PENDING
    transition(session, document, target, actor=actor, reason=reason)
    document.attempts, document.resume_state = 0, None
    document.lease_owner = document.lease_expires_at = None
    return target


@refusals_as_results
def retry_document(ctx: QuireContext, reference: str, *, actor: str, request_id: str | None = None) -> ActionResult:
    """Re-open a FAILED document where it stopped, with a fresh attempt budget."""
    with transaction(ctx.engine) as session:
        document, fresh = _begin(session, reference, "retry", actor, request_id)
        if not fresh:
            return _repeat(document, "retry")
        if document.state != State.FAILED.value:
            raise ActionRefused(str(document.id), "retry", document.state,
                                f"only FAILED documents are retried; this one is {document.state}")
        target = _reopen_failed(session, document, actor, f"retried by {actor}")
        return ActionResult(str(document.id), "retry", True, target.value,
                            f"re-opened at {target.value} with a fresh budget of {document.max_attempts} attempts")


@refusals_as_results
def resume_document(ctx: QuireContext, reference: str, *, actor: str, airflow: TaskInstanceClearer | None,
                    request_id: str | None = None) -> ActionResult:
    """Resume a FAILED document at its failed task: clear that task instance of its Airflow run.

    The document's newest ``pipeline_runs`` row names the run and task that
    failed it; clearing only the failed task instances (and their downstream)
    makes Airflow re-run them, and the re-run task picks the document up again
    where it stopped (``quire.pipeline._resume_if_failed_here``). Where there is
    no such Airflow run (failed outside one, the run was deleted, or the task
    instance is not failed any more) it falls back to ``retry_document``'s
    re-open, so the next run claims the document. The Airflow call is made
    inside the transaction: if Airflow is unreachable nothing is recorded and
    the same request can be sent again.
    """
    with transaction(ctx.engine) as session:
        document, fresh = _begin(session, reference, "resume", actor, request_id)
        if not fresh:
            return _repeat(document, "resume")
        if document.state != State.FAILED.value:
            raise ActionRefused(str(document.id), "resume", document.state,
                                f"only FAILED documents are resumed; this one is {document.state}")
        owners = [document.id] + ([document.parent_id] if document.parent_id else [])
        last = session.execute(select(PipelineRun).where(PipelineRun.document_id.in_(owners))
                               .order_by(PipelineRun.id.desc()).limit(1)).scalar_one_or_none()
        if airflow is not None and last is not None and last.outcome == "failed":
            try:
                cleared = airflow.clear_failed(last.dag_id, last.run_id)
            except AirflowRunNotFoundError:
                cleared = []
            if cleared:
                record_audit(session, action="task_instances_cleared", document_id=document.id, actor=actor,
                             detail={"dag_id": last.dag_id, "run_id": last.run_id,
                                     "task_instances": [[t.task_id, t.map_index] for t in cleared]})
                return ActionResult(str(document.id), "resume", True, document.state,
                                    f"cleared {len(cleared)} failed task instance(s) of {last.dag_id} run "
                                    f"{last.run_id} (from {last.task_id}); the document resumes at "
                                    f"{document.resume_state or State.PENDING.value} when it re-runs")
        target = _reopen_failed(session, document, actor, f"resumed by {actor}")
        return ActionResult(str(document.id), "resume", True, target.value,
                            f"no failed Airflow task instance to clear: re-opened at {target.value} with a fresh "
                            f"budget of {document.max_attempts} attempts for the next run to claim")


@refusals_as_results
def reprocess_document(ctx: QuireContext, reference: str, *, actor: str,
                       request_id: str | None = None) -> ActionResult:
    """Start a document over from parse: page checkpoints are dropped, decisions are kept as history.

    The split manifest is immutable and stays; children are re-opened so they
    are classified and extracted again. A result identical to one already
    delivered is not delivered twice (same idempotency key).
    """
    request_id = request_id or f"reprocess-{uuid.uuid4()}"
    with transaction(ctx.engine) as session:
        document, fresh = _begin(session, reference, "reprocess", actor, request_id)
        if not fresh:
            return _repeat(document, "reprocess")
        if document.parent_id is not None:
            raise ActionRefused(str(document.id), "reprocess", document.state,
                                "this is a part of a packet: reprocess the packet "
                                f"{document.parent_id} instead")
        if document.lease_owner and document.state not in {s.value for s in (State.FAILED, State.COMPLETE)}:
            still_leased = session.execute(select(func.now() < Document.lease_expires_at)
                                           .where(Document.id == document.id)).scalar()
            if still_leased:
                raise ActionRefused(str(document.id), "reprocess", document.state,
                                    f"a run ({document.lease_owner}) is working on it; try again when it ends")
        session.execute(delete(PageResult).where(PageResult.document_id == document.id,
                                                 PageResult.stage == PARSE_STAGE))
        children = session.execute(select(Document).where(Document.parent_id == document.id)).scalars().all()
        for child in children:
            session.execute(update(Document).where(Document.id == child.id).values(
                state=State.SPLIT.value, state_reason=f"reprocess requested by {actor}", attempts=0))
        _force_state(session, document, State.PENDING, actor, f"reprocess requested by {actor}")
        document.attempts, document.resume_state, document.request_id = 0, None, request_id[:64]
        document.lease_owner = document.lease_expires_at = None
        return ActionResult(str(document.id), "reprocess", True, State.PENDING.value,
                            "queued to be processed again from the start")


def _force_state(session: Session, document: Document, target: State, actor: str, reason: str) -> None:
    """Reprocess may start over from any state; route through the machine where it allows, else audit it."""
    current = State(document.state)
    if current is target:
        return
    if target in ALLOWED[current]:
        transition(session, document, target, actor=actor, reason=reason)
        return
    session.execute(update(Document).where(Document.id == document.id)
                    .values(state=target.value, state_reason=reason, updated_at=func.now()))
    session.refresh(document)
    record_audit(session, action="state_reset", document_id=document.id, actor=actor,
                 detail={"from": current.value, "to": target.value, "reason": reason})


@refusals_as_results
def release_document(ctx: QuireContext, reference: str, *, actor: str, password: str | None = None,
                     request_id: str | None = None) -> ActionResult:
    """Release a QUARANTINED document back to PENDING, optionally with the password it needs."""
    with transaction(ctx.engine) as session:
        document, fresh = _begin(session, reference, "release", actor, request_id,
                                 {"password_supplied": password is not None})
        if not fresh:
            return _repeat(document, "release")
        if document.state != State.QUARANTINED.value:
            raise ActionRefused(str(document.id), "release", document.state,
                                f"only QUARANTINED documents are released; this one is {document.state}")
        if password is not None:
            session.execute(insert(DocumentSecret).values(document_id=document.id, password=password,
                                                          supplied_by=actor)
                            .on_conflict_do_update(index_elements=[DocumentSecret.document_id],
                                                   set_={"password": password, "supplied_by": actor}))
        session.execute(delete(PageResult).where(PageResult.document_id == document.id))
        transition(session, document, State.PENDING, actor=actor, reason=f"released by {actor}")
        document.attempts = 0
        return ActionResult(str(document.id), "release", True, State.PENDING.value,
                            "released" + (" with a password" if password is not None else ""))


@refusals_as_results
def approve_document(ctx: QuireContext, reference: str, *, actor: str, corrections: dict[str, str | None]
                     | None = None, request_id: str | None = None) -> ActionResult:
    """Accept a REVIEW_REQUIRED document, with a reviewer's field corrections, and publish it."""
    corrections = corrections or {}
    with transaction(ctx.engine) as session:
        document, fresh = _begin(session, reference, "approve", actor, request_id, {"corrections": corrections})
        if not fresh:
            return _repeat(document, "approve")
        if document.state != State.REVIEW_REQUIRED.value:
            raise ActionRefused(str(document.id), "approve", document.state,
                                f"only REVIEW_REQUIRED documents are approved; this one is {document.state}")
        machine = latest_extraction(session, document.id)
        reviewed = _reviewed_extraction(machine, corrections)
        classification = session.execute(
            select(ClassificationRecord.id).where(ClassificationRecord.document_id == document.id)
            .order_by(ClassificationRecord.decided_at.desc()).limit(1)).scalar_one_or_none()
        record_extraction(session, document.id, reviewed, classification_id=classification, pipeline_run_id=None,
                          origin="review", decided_by=actor)
        transition(session, document, State.EXTRACTED, actor=actor, reason=f"approved by {actor}")
        root = session.get(Document, document.parent_id) if document.parent_id else document
        publish_part(session, document, root, actor=actor)
        return ActionResult(str(document.id), "approve", True, document.state,
                            "approved and queued for delivery" + (
                                f" with {len(corrections)} corrected field(s)" if corrections else ""))


def _reviewed_extraction(machine: ExtractionRecord | None, corrections: dict[str, str | None]) -> Extraction:
    fields = {name: FieldValue(v.get("value"), float(v.get("confidence", 0))) for name, v in
              ((machine.fields if machine else {}) or {}).items()}
    for name, value in corrections.items():
        if name in {"subtotal_amount", "tax_amount", "total_amount"} and value not in (None, ""):
            try:
                value = str(Decimal(str(value).replace(",", "")).quantize(Decimal("0.01")))
            except InvalidOperation as exc:
                raise TerminalError(f"{name}: {value!r} is not an amount") from exc
        fields[name] = FieldValue(value if value != "" else None, 1.0)
    line_items = tuple(LineItem(i["description"], i.get("quantity"), i.get("unit_price"), i.get("amount"),
                                float(i.get("confidence", 0)), discount_percent=i.get("discount_percent"))
                       for i in (machine.line_items if machine else []))
    validation = (ValidationResult("reviewed_by_person", True, "a reviewer approved the record"),)
    return Extraction(fields=fields, line_items=line_items, validation=validation, routing=Routing.AUTO,
                      extractor_version=(machine.extractor_version if machine else "none") + "+review",
                      template=machine.template if machine else None)


# -- read models ---------------------------------------------------------------------------------------------

def state_counts(ctx: QuireContext) -> dict[str, int]:
    with transaction(ctx.engine) as session:
        rows = session.execute(select(Document.state, func.count()).group_by(Document.state)).all()
    counts = dict.fromkeys((s.value for s in State), 0)
    counts.update({state: n for state, n in rows})
    return counts


def list_documents(ctx: QuireContext, *, states: list[str] | None = None, limit: int = 50) -> list[dict[str, Any]]:
    with transaction(ctx.engine) as session:
        query = select(Document).order_by(Document.received_at.desc(), Document.id).limit(limit)
        if states:
            query = query.where(Document.state.in_(states))
        return [_document_json(d) for d in session.execute(query).scalars()]


def _document_json(d: Document) -> dict[str, Any]:
    return {"id": str(d.id), "sha256": d.sha256, "parent_id": str(d.parent_id) if d.parent_id else None,
            "name": d.original_name, "state": d.state, "reason": d.state_reason, "stage": d.current_stage,
            "doc_type": d.doc_type, "pages": d.page_count, "media_type": d.media_type, "size": d.size_bytes,
            "page_range": [d.page_first, d.page_last] if d.page_first else None,
            "attempts": d.attempts, "max_attempts": d.max_attempts, "total_attempts": d.total_attempts,
            "lease_owner": d.lease_owner, "received_at": d.received_at.isoformat(),
            "updated_at": d.updated_at.isoformat()}


def document_detail(ctx: QuireContext, reference: str) -> dict[str, Any]:
    """Everything known about one document, for `quire show` and the UI's document page."""
    with transaction(ctx.engine) as session:
        document = find_document(session, reference)
        did = document.id
        detail = _document_json(document)
        detail["sources"] = [{"name": s.original_name, "source": s.source, "ref": s.source_ref,
                              "disposition": s.disposition, "received_at": s.received_at.isoformat()}
                             for s in session.execute(select(DocumentSource).where(DocumentSource.document_id == did)
                                                      .order_by(DocumentSource.id)).scalars()]
        detail["attempts_log"] = [
            {"run_id": r.run_id, "dag_id": r.dag_id, "task_id": r.task_id, "map_index": r.map_index,
             "try_number": r.try_number, "stage": r.stage, "started_at": r.started_at.isoformat(),
             "ended_at": r.ended_at.isoformat() if r.ended_at else None, "outcome": r.outcome,
             "duration_s": round((r.ended_at - r.started_at).total_seconds(), 3) if r.ended_at else None,
             "error_class": r.error_class, "error_message": r.error_message, "traceback": r.traceback_excerpt}
            for r in session.execute(select(PipelineRun).where(
                PipelineRun.document_id.in_([did] + ([document.parent_id] if document.parent_id else [])))
                .order_by(PipelineRun.id)).scalars()]
        page_source = document.parent_id or did
        pages = select(PageResult).where(PageResult.document_id == page_source, PageResult.stage == PARSE_STAGE)
        if document.page_first:
            pages = pages.where(PageResult.page_number.between(document.page_first, document.page_last))
        detail["pages_detail"] = [{"page": p.page_number, "method": p.method, "engine": p.engine,
                                   "confidence": round(p.confidence, 3), "chars": len(p.text),
                                   "rotation": p.rotation, "preview": p.text[:300]}
                                  for p in session.execute(pages.order_by(PageResult.page_number)).scalars()]
        manifest = session.execute(select(SplitManifest).where(SplitManifest.document_id == did)).scalar_one_or_none()
        detail["split_manifest"] = None if manifest is None else {
            "rule_version": manifest.rule_version, "parts": manifest.parts, "sha256": manifest.manifest_sha256}
        detail["children"] = [_document_json(c) for c in session.execute(
            select(Document).where(Document.parent_id == did).order_by(Document.split_index)).scalars()]
        detail["classifications"] = [
            {"id": c.id, "doc_type": c.doc_type, "confidence": c.confidence, "version": c.classifier_version,
             "decided_at": c.decided_at.isoformat()}
            for c in session.execute(select(ClassificationRecord).where(ClassificationRecord.document_id == did)
                                     .order_by(ClassificationRecord.id)).scalars()]
        detail["extractions"] = [
            {"id": e.id, "version": e.extractor_version, "template": e.template, "origin": e.origin,
             "decided_by": e.decided_by, "routing": e.routing, "fields": e.fields, "line_items": e.line_items,
             "validation": e.validation, "decided_at": e.decided_at.isoformat()}
            for e in session.execute(select(ExtractionRecord).where(ExtractionRecord.document_id == did)
                                     .order_by(ExtractionRecord.id)).scalars()]
        detail["outbox"] = [
            {"key": o.idempotency_key, "status": o.status, "attempts": o.attempts, "last_error": o.last_error,
             "created_at": o.created_at.isoformat(),
             "published_at": o.published_at.isoformat() if o.published_at else None}
            for o in session.execute(select(OutboxEvent).where(OutboxEvent.document_id == did)
                                     .order_by(OutboxEvent.id)).scalars()]
        detail["deliveries"] = [
            {"key": p.idempotency_key, "delivery_count": p.delivery_count,
             "first_delivered_at": p.first_delivered_at.isoformat()}
            for p in session.execute(select(PublishedDocument).where(PublishedDocument.document_id == did))
            .scalars()]
        detail["audit"] = [
            {"at": a.created_at.isoformat(), "actor": a.actor, "action": a.action, "detail": a.detail}
            for a in session.execute(select(AuditEvent).where(AuditEvent.document_id == did)
                                     .order_by(AuditEvent.id)).scalars()]
        return detail


def unfinished_count(ctx: QuireContext) -> int:
    """Documents that still need the pipeline: pending, in a working state, or awaiting delivery."""
    with transaction(ctx.engine) as session:
        return session.execute(select(func.count()).where(
            Document.state.in_([s.value for s in UNFINISHED]))).scalar_one()


def documents_received_between(ctx: QuireContext, start: datetime, end: datetime) -> list[str]:
    """Root documents received in [start, end): what a backfill run over that interval reprocesses."""
    with transaction(ctx.engine) as session:
        rows = session.execute(select(Document.id).where(Document.parent_id.is_(None),
                                                         Document.received_at >= start, Document.received_at < end)
                               .order_by(Document.received_at, Document.id)).scalars()
        return [str(r) for r in rows]

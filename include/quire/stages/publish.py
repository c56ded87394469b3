"""publish: the state change and its outbox event in one transaction; a dispatcher delivers them.

The outbox row is written in the same transaction that moves the part to
PUBLISHED, so a record is announced exactly when its state says so. The
dispatcher claims rows with SKIP LOCKED, delivers them under the idempotency key
``documents:<document>:extracted:v<extraction>``, then marks them published.
A crash between delivery and marking re-delivers the same key, which the sink
keeps as one record; a claim older than the timeout is taken back.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert

from quire.context import QuireContext
from quire.db.engine import transaction
from quire.db.models import Document, OutboxEvent
from quire.db.repository import transition
from quire.errors import QuireError
from quire.sinks import get_sink
from quire.stages.common import StageResult, document_parts, load_document, state_of
from quire.stages.extract import latest_extraction
from quire.states import State

log = logging.getLogger(__name__)
STAGE = "publish"
EVENT_TYPE = "document.extracted"
JOB = "documents"
#: parts in these states need nothing more from this pipeline run
SETTLED = frozenset({State.PUBLISHED, State.COMPLETE, State.REVIEW_REQUIRED, State.BLOCKED, State.FAILED,
                     State.QUARANTINED})
MAX_DELIVERY_ATTEMPTS = 10


def idempotency_key(document_id: str, version: int) -> str:
    return f"{JOB}:{document_id}:extracted:v{version}"


def record_payload(part: Document, extraction, root: Document) -> dict[str, Any]:
    """What consumers receive: the record, where it came from, and how it was decided."""
    return {
        "document_id": str(part.id), "sha256": root.sha256, "source_name": root.original_name,
        "parent_document_id": str(part.parent_id) if part.parent_id else None,
        "page_range": [part.page_first or 1, part.page_last or root.page_count],
        "doc_type": part.doc_type, "fields": extraction.fields, "line_items": extraction.line_items,
        "validation": extraction.validation, "routing": extraction.routing,
        "extractor_version": extraction.extractor_version, "template": extraction.template,
        "extraction_id": extraction.id, "origin": extraction.origin,
    }


def publish_part(session, part: Document, root: Document, *, actor: str = "quire") -> int:
    """Move an EXTRACTED part to PUBLISHED and write its outbox event, in the caller's transaction.

    A decision that was already delivered under the same key (a reprocess that
    reached the same result) is not announced again: the part goes straight on
    to COMPLETE, so consumers never see a record twice.
    """
    extraction = latest_extraction(session, part.id)
    key = idempotency_key(str(part.id), extraction.id)
    session.execute(insert(OutboxEvent).values(
        idempotency_key=key, document_id=part.id, stage=STAGE, version=extraction.id, event_type=EVENT_TYPE,
        payload=record_payload(part, extraction, root),
    ).on_conflict_do_nothing(index_elements=[OutboxEvent.idempotency_key]))
    transition(session, part, State.PUBLISHED, stage=STAGE, actor=actor, detail={"idempotency_key": key})
    delivered = session.execute(select(OutboxEvent.status).where(OutboxEvent.idempotency_key == key)).scalar_one()
    if delivered == "PUBLISHED":
        transition(session, part, State.COMPLETE, stage=STAGE, actor=actor, reason="already delivered")
    return extraction.id


def publish_document(document_id: str, ctx: QuireContext) -> StageResult:
    """Publish every EXTRACTED part; when all parts have settled, finish the root and release it."""
    published = 0
    with transaction(ctx.engine) as session:
        root = load_document(session, document_id, for_update=True)
        parts = document_parts(session, root)
        for part in parts:
            if state_of(part) is State.EXTRACTED:
                publish_part(session, part, root)
                published += 1
        settled = all(state_of(p) in SETTLED for p in parts)
        if settled and parts[0].id != root.id and state_of(root) is State.SPLIT:
            transition(session, root, State.COMPLETE, stage=STAGE,
                       reason=f"split into {len(parts)} documents")
        if settled:
            root.lease_owner = None
            root.lease_expires_at = None
    return StageResult(document_id, "published" if published else "unchanged",
                       {"published": published, "settled": settled})


@dataclass
class DispatchResult:
    delivered: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    reclaimed: int = 0

    def to_xcom(self) -> dict[str, int]:
        return {"delivered": len(self.delivered), "failed": len(self.failed), "reclaimed": self.reclaimed}


def dispatch_outbox(ctx: QuireContext, *, owner: str, limit: int = 500) -> DispatchResult:
    """Deliver pending outbox events to the sink, each at least once and deduplicated by key."""
    result = DispatchResult()
    sink = get_sink(ctx.settings, ctx.engine)
    stale = func.now() - timedelta(seconds=ctx.settings.outbox_claim_timeout_seconds)
    with transaction(ctx.engine) as session:
        result.reclaimed = session.execute(
            update(OutboxEvent).where(OutboxEvent.status == "PUBLISHING", OutboxEvent.claimed_at < stale)
            .values(status="PENDING", claimed_by=None, claimed_at=None)).rowcount
        claimed = session.execute(
            select(OutboxEvent).where(OutboxEvent.status == "PENDING")
            .order_by(OutboxEvent.id).limit(limit).with_for_update(skip_locked=True)).scalars().all()
        for event in claimed:
            event.status, event.claimed_by, event.claimed_at = "PUBLISHING", owner, func.now()
            event.attempts += 1
        batch = [(e.id, e.idempotency_key, str(e.document_id), e.payload) for e in claimed]
    for event_id, key, document_id, payload in batch:
        try:
            sink.deliver(key, document_id, payload)
        except QuireError as exc:
            _delivery_failed(ctx, event_id, exc)
            result.failed.append(key)
            continue
        mark_delivered(ctx, event_id, document_id)
        result.delivered.append(key)
    return result


def mark_delivered(ctx: QuireContext, event_id: int, document_id: str) -> None:
    with transaction(ctx.engine) as session:
        session.execute(update(OutboxEvent).where(OutboxEvent.id == event_id)
                        .values(status="PUBLISHED", published_at=func.now(), last_error=None))
        part = load_document(session, document_id, for_update=True)
        if state_of(part) is State.PUBLISHED:
            transition(session, part, State.COMPLETE, stage=STAGE, reason="delivered")


def _delivery_failed(ctx: QuireContext, event_id: int, exc: Exception) -> None:
    log.warning("outbox event %s not delivered: %s", event_id, exc)
    with transaction(ctx.engine) as session:
        event = session.get(OutboxEvent, event_id, with_for_update=True)
        event.last_error = f"{type(exc).__name__}: {exc}"[:2000]
        event.claimed_by, event.claimed_at = None, None
        event.status = "DEAD" if event.attempts >= MAX_DELIVERY_ATTEMPTS else "PENDING"

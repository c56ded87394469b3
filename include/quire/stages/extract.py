"""extract: fields and line items with confidences, validation, and the routing decision.

Routing is a decision stored with the extraction, not an exception: ``auto``
moves the part to EXTRACTED (then publish), ``review`` to REVIEW_REQUIRED (a
person decides), ``blocked`` to BLOCKED with the broken rule named.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert

from quire.context import QuireContext
from quire.db.engine import transaction
from quire.db.models import ExtractionRecord
from quire.db.repository import transition
from quire.loading import load_object
from quire.model import Classification, Extraction, Routing
from quire.stages.classify import decision_hash, latest_classification
from quire.stages.common import StageResult, load_document, load_parsed, parts_waiting_in
from quire.states import State

STAGE = "extract"
ROUTED_STATE = {Routing.AUTO: State.EXTRACTED, Routing.REVIEW: State.REVIEW_REQUIRED,
                Routing.BLOCKED: State.BLOCKED}


def extract_document(document_id: str, ctx: QuireContext, pipeline_run_id: int | None = None) -> StageResult:
    """Extract every CLASSIFIED part of a document and route it."""
    extractor = load_object(ctx.settings.extractor)
    routed: dict[str, str] = {}
    waiting = parts_waiting_in(ctx.engine, document_id, State.CLASSIFIED)
    for part_id in waiting:
        with transaction(ctx.engine) as session:
            part = load_document(session, part_id)
            stored = latest_classification(session, part.id)
            classification = Classification(stored.doc_type, stored.confidence, stored.classifier_version)
            extraction: Extraction = extractor(load_parsed(session, part), classification,
                                               settings=ctx.settings)
            record_extraction(session, part.id, extraction, classification_id=stored.id,
                              pipeline_run_id=pipeline_run_id)
            target = ROUTED_STATE[extraction.routing]
            failed = [v.rule for v in extraction.validation if not v.ok]
            reason = None if target is State.EXTRACTED else (
                f"{'blocked by' if target is State.BLOCKED else 'review:'} {', '.join(failed) or 'low confidence'}")
            transition(session, part, target, stage=STAGE, reason=reason,
                       detail={"routing": extraction.routing.value, "failed_rules": failed})
            routed[part_id] = extraction.routing.value
    return StageResult(document_id, "routed" if routed else "unchanged",
                       {"extracted": len(routed), "routing": sorted(routed.values())})


def record_extraction(session, part_id, extraction: Extraction, *, classification_id: int | None,
                      pipeline_run_id: int | None, origin: str = "machine", decided_by: str | None = None) -> int:
    """Store an extraction decision (idempotent by content) and return its id."""
    decision = {
        "extractor_version": extraction.extractor_version, "template": extraction.template,
        "fields": {name: value.to_json() for name, value in sorted(extraction.fields.items())},
        "line_items": [item.to_json() for item in extraction.line_items],
        "validation": [v.to_json() | {"blocking": v.blocking} for v in extraction.validation],
        "routing": extraction.routing.value, "origin": origin,
    }
    # A decision reached again is the same row, stamped with when it was last reached.
    return session.execute(
        insert(ExtractionRecord).values(
            document_id=part_id, pipeline_run_id=pipeline_run_id, classification_id=classification_id,
            decided_by=decided_by, decision_sha256=decision_hash(decision), **decision)
        .on_conflict_do_update(constraint="uq_extractions_decision", set_={"decided_at": func.now()})
        .returning(ExtractionRecord.id)).scalar_one()


def latest_extraction(session, part_id) -> ExtractionRecord | None:
    return session.execute(select(ExtractionRecord).where(ExtractionRecord.document_id == part_id)
                           .order_by(ExtractionRecord.decided_at.desc(), ExtractionRecord.id.desc()).limit(1)).scalar_one_or_none()

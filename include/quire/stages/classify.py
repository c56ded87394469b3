"""classify: decide each part's document type and keep every distinct decision.

A classification is stored append-only, keyed by a hash of the decision: a
retry that decides the same converges on the same row; one that decides
differently adds a new, visible row rather than overwriting the old one.
"""

from __future__ import annotations

import hashlib
import json

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert

from quire.context import QuireContext
from quire.db.engine import transaction
from quire.db.models import ClassificationRecord, Document
from quire.db.repository import transition
from quire.loading import load_object
from quire.model import Classification
from quire.stages.common import StageResult, load_document, load_parsed, parts_waiting_in
from quire.states import State

STAGE = "classify"


def decision_hash(payload: dict) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()


def classify_document(document_id: str, ctx: QuireContext, pipeline_run_id: int | None = None) -> StageResult:
    """Classify every part of a split document that is waiting in SPLIT."""
    classifier = load_object(ctx.settings.classifier)
    decided: dict[str, str] = {}
    waiting = parts_waiting_in(ctx.engine, document_id, State.SPLIT)
    for part_id in waiting:
        with transaction(ctx.engine) as session:
            part = load_document(session, part_id)
            classification: Classification = classifier(load_parsed(session, part))
            record_classification(session, part, classification, pipeline_run_id)
            transition(session, part, State.CLASSIFIED, stage=STAGE,
                       detail={"doc_type": classification.doc_type,
                               "confidence": round(classification.confidence, 3)})
            decided[part_id] = classification.doc_type
    return StageResult(document_id, State.CLASSIFIED.value if decided else "unchanged",
                       {"classified": len(decided), "types": sorted(set(decided.values()))})


def record_classification(session, part: Document, classification: Classification,
                          pipeline_run_id: int | None) -> int:
    decision = {"doc_type": classification.doc_type, "confidence": round(classification.confidence, 6),
                "classifier_version": classification.classifier_version}
    part.doc_type = classification.doc_type
    return session.execute(
        insert(ClassificationRecord).values(document_id=part.id, pipeline_run_id=pipeline_run_id,
                                            decision_sha256=decision_hash(decision), **decision)
        .on_conflict_do_update(constraint="uq_classifications_decision", set_={"decided_at": func.now()})
        .returning(ClassificationRecord.id)).scalar_one()


def latest_classification(session, part_id) -> ClassificationRecord | None:
    return session.execute(select(ClassificationRecord).where(ClassificationRecord.document_id == part_id)
                           .order_by(ClassificationRecord.decided_at.desc(), ClassificationRecord.id.desc()).limit(1)).scalar_one_or_none()

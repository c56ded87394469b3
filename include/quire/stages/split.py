"""split: cut a packet into child documents through an immutable split manifest.

The manifest is written once (a database trigger refuses changes) before any
child exists, and child ids derive from (parent sha256, split index, page range),
so running split twice yields the same manifest and the same children.
"""

from __future__ import annotations

import hashlib
import json
import logging

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert

from quire.context import QuireContext
from quire.db.engine import transaction
from quire.db.models import Document, SplitManifest
from quire.db.repository import record_audit, transition
from quire.ids import child_id_for
from quire.loading import load_object
from quire.model import SplitPlan
from quire.stages.common import StageResult, load_document, load_parsed, state_of
from quire.states import State

log = logging.getLogger(__name__)
STAGE = "split"


def manifest_parts(sha256: str, plan: SplitPlan) -> list[dict]:
    """The manifest body: each part with the id its child document will carry."""
    if len(plan.parts) == 1:
        part = plan.parts[0]
        return [{"index": part.index, "first_page": part.first_page, "last_page": part.last_page,
                 "reason": part.reason, "document_id": None}]
    return [{"index": p.index, "first_page": p.first_page, "last_page": p.last_page, "reason": p.reason,
             "document_id": str(child_id_for(sha256, p.index, p.first_page, p.last_page))} for p in plan.parts]


def split_document(document_id: str, ctx: QuireContext) -> StageResult:
    """Write the split manifest of a PARSED document and create its children (if it is a packet)."""
    with transaction(ctx.engine) as session:
        document = load_document(session, document_id)
        if state_of(document) is not State.PARSED:
            return StageResult(document_id, document.state, {"skipped": "already split"})
        parsed = load_parsed(session, document)
    plan: SplitPlan = load_object(ctx.settings.splitter)(parsed)

    with transaction(ctx.engine) as session:
        document = load_document(session, document_id, for_update=True)
        parts = manifest_parts(document.sha256, plan)
        body = json.dumps({"rule_version": plan.rule_version, "parts": parts}, sort_keys=True)
        session.execute(insert(SplitManifest).values(
            document_id=document.id, rule_version=plan.rule_version, parts=parts,
            manifest_sha256=hashlib.sha256(body.encode()).hexdigest(),
        ).on_conflict_do_nothing(index_elements=[SplitManifest.document_id]))
        # The stored manifest is the contract, even if this run's rules would now cut differently.
        stored = session.execute(select(SplitManifest).where(SplitManifest.document_id == document.id)).scalar_one()
        children = [p for p in stored.parts if p["document_id"]]
        for part in children:
            session.execute(insert(Document).values(
                id=part["document_id"], parent_id=document.id, split_index=part["index"],
                page_first=part["first_page"], page_last=part["last_page"], size_bytes=document.size_bytes,
                media_type=document.media_type, page_count=part["last_page"] - part["first_page"] + 1,
                blob_uri=document.blob_uri, state=State.SPLIT.value, current_stage=STAGE,
                original_name=f"{document.original_name} (pages {part['first_page']}-{part['last_page']})",
                received_at=document.received_at, max_attempts=document.max_attempts,
            ).on_conflict_do_nothing(index_elements=[Document.id]))
        if children:
            record_audit(session, action="split", document_id=document.id,
                         detail={"parts": len(children), "manifest": stored.manifest_sha256})
        transition(session, document, State.SPLIT, stage=STAGE, detail={"parts": len(stored.parts)})
    return StageResult(document_id, State.SPLIT.value,
                       {"parts": len(stored.parts), "children": [p["document_id"] for p in children]})

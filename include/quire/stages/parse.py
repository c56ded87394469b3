"""parse: text layer first, OCR only for pages without usable text, one checkpoint per page.

Each page's result is committed to ``page_results`` (unique per document,
stage and page) before the next page is read, so a crash at page k of N
resumes at page k on the next attempt and pages 1..k-1 are never read again.
"""

from __future__ import annotations

import hashlib
import logging

from sqlalchemy import func, select
from sqlalchemy.dialects.postgresql import insert

from quire.context import QuireContext
from quire.db.engine import transaction
from quire.db.models import DocumentSecret, PageResult
from quire.db.repository import transition
from quire.engines.reader import open_with_settings
from quire.model import PageText, TextMethod
from quire.stages.common import PARSE_STAGE, StageResult, load_document, state_of
from quire.states import State

log = logging.getLogger(__name__)


def parse_document(document_id: str, ctx: QuireContext) -> StageResult:
    """Read every page of an IN_PROGRESS document into page checkpoints and mark it PARSED."""
    with transaction(ctx.engine) as session:
        document = load_document(session, document_id)
        if state_of(document) is not State.IN_PROGRESS:
            return StageResult(document_id, document.state, {"skipped": "already parsed"})
        checkpointed = set(session.execute(
            select(PageResult.page_number).where(PageResult.document_id == document.id,
                                                 PageResult.stage == PARSE_STAGE)).scalars())
        password = session.execute(select(DocumentSecret.password)
                                   .where(DocumentSecret.document_id == document.id)).scalar_one_or_none()
        path = ctx.blobs.path_from_uri(document.blob_uri)

    pages_read, resumed_at = 0, None
    with open_with_settings(path, ctx.settings, password=password) as reader:
        page_count = reader.page_count
        for page_number in range(1, page_count + 1):
            if page_number in checkpointed:
                continue
            if checkpointed and resumed_at is None:
                resumed_at = page_number
            save_page_checkpoint(ctx, document_id, reader.read_page(page_number))
            pages_read += 1

    with transaction(ctx.engine) as session:
        document = load_document(session, document_id, for_update=True)
        ocr_pages = session.execute(
            select(func.count()).where(PageResult.document_id == document.id, PageResult.stage == PARSE_STAGE,
                                       PageResult.method == TextMethod.OCR.value)).scalar_one()
        document.page_count = page_count
        transition(session, document, State.PARSED, stage=PARSE_STAGE,
                   detail={"pages": page_count, "ocr_pages": ocr_pages})
    return StageResult(document_id, State.PARSED.value,
                       {"pages": page_count, "ocr_pages": ocr_pages, "pages_read": pages_read,
                        "resumed_at_page": resumed_at})


def save_page_checkpoint(ctx: QuireContext, document_id: str, page: PageText) -> None:
    """Commit one page's result; a page checkpointed before (a retry racing a zombie) is kept as it was."""
    with transaction(ctx.engine) as session:
        session.execute(insert(PageResult).values(
            document_id=document_id, stage=PARSE_STAGE, page_number=page.page_number, method=page.method.value,
            engine=page.engine, width=page.width, height=page.height, rotation=page.rotation, text=page.text,
            words=[w.to_json() for w in page.words], confidence=page.confidence,
            checksum=hashlib.sha256(page.text.encode()).hexdigest(),
        ).on_conflict_do_nothing(constraint="uq_page_results_page"))

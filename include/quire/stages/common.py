"""What several stages share: loading a document, its parts and its parsed pages."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from quire.db.engine import transaction
from quire.db.models import Document, PageResult
from quire.errors import TerminalError
from quire.model import ParsedDocument, PageText, TextMethod, Word
from quire.states import State

PARSE_STAGE = "parse"


class DocumentMissingError(TerminalError):
    """The document id names no row: the run was handed a stale or wrong id."""


@dataclass(frozen=True, slots=True)
class StageResult:
    """What a stage reports back: small enough for XCom and the pipeline_runs row."""

    document_id: str
    state: str
    detail: dict

    def to_xcom(self) -> dict:
        return {"document_id": self.document_id, "state": self.state, **self.detail}


def load_document(session: Session, document_id: str | uuid.UUID, *, for_update: bool = False) -> Document:
    query = select(Document).where(Document.id == uuid.UUID(str(document_id)))
    if for_update:
        query = query.with_for_update()
    document = session.execute(query).scalar_one_or_none()
    if document is None:
        raise DocumentMissingError(f"no document with id {document_id}")
    return document


def document_parts(session: Session, root: Document) -> list[Document]:
    """The documents that go on to classify/extract/publish: the split children, or the root itself."""
    children = session.execute(select(Document).where(Document.parent_id == root.id)
                               .order_by(Document.split_index)).scalars().all()
    return list(children) or [root]


def parts_waiting_in(engine, document_id: str, state: State) -> list[str]:
    """Ids of the document's parts that are in ``state``, i.e. ready for the stage that takes them from it."""
    with transaction(engine) as session:
        root = load_document(session, document_id)
        return [str(p.id) for p in document_parts(session, root) if state_of(p) is state]


def page_text_from_row(row: PageResult) -> PageText:
    return PageText(page_number=row.page_number, width=row.width, height=row.height, text=row.text,
                    words=tuple(Word.from_json(w) for w in row.words), method=TextMethod(row.method),
                    engine=row.engine, confidence=row.confidence, rotation=row.rotation)


def load_parsed(session: Session, document: Document) -> ParsedDocument:
    """The parsed pages of a document; a split child reads its page range from its parent's checkpoints."""
    source_id = document.parent_id or document.id
    query = select(PageResult).where(PageResult.document_id == source_id, PageResult.stage == PARSE_STAGE)
    if document.page_first is not None:
        query = query.where(PageResult.page_number.between(document.page_first, document.page_last))
    rows = session.execute(query.order_by(PageResult.page_number)).scalars().all()
    return ParsedDocument(pages=tuple(page_text_from_row(r) for r in rows))


def state_of(document: Document) -> State:
    return State(document.state)

"""SQLAlchemy 2 models for the whole pipeline; Alembic migrations create them.

Natural keys carry unique constraints so that every retried write is an upsert
that converges on the same rows (``ON CONFLICT``), never a duplicate.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger, CheckConstraint, DateTime, Float, ForeignKey, Index, Integer, String, Text,
    UniqueConstraint, func, text,
)
from sqlalchemy.dialects.postgresql import JSONB, UUID
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from quire.states import State

_STATE_NAMES = ", ".join(f"'{s.value}'" for s in State)


class Base(DeclarativeBase):
    pass


def _now() -> Any:
    return mapped_column(DateTime(timezone=True), server_default=func.now(), nullable=False)


class Document(Base):
    """One document: an uploaded file (keyed by sha256) or a child split out of a packet."""

    __tablename__ = "documents"
    __table_args__ = (
        CheckConstraint(f"state IN ({_STATE_NAMES})", name="ck_documents_state"),
        # a root document is its bytes; a child is a page range of its parent
        CheckConstraint("(parent_id IS NULL) = (sha256 IS NOT NULL)", name="ck_documents_root_or_child"),
        CheckConstraint("page_first IS NULL OR page_last >= page_first", name="ck_documents_page_range"),
        Index("ix_documents_pending", "received_at", postgresql_where=text("state = 'PENDING'")),
        Index("ix_documents_state_updated", "state", "updated_at"),
        Index("ix_documents_lease", "lease_expires_at", postgresql_where=text("lease_owner IS NOT NULL")),
        Index("ix_documents_received", "received_at", "id"),
        Index("ix_documents_parent", "parent_id"),
        # the UI's list: filter + newest-first keyset pages, name and hash-prefix search (migration 0002)
        Index("ix_documents_state_received", "state", "received_at", "id"),
        Index("ix_documents_type_received", "doc_type", "received_at", "id"),
        Index("ix_documents_sha256_prefix", "sha256", postgresql_ops={"sha256": "text_pattern_ops"}),
        Index("ix_documents_name_trgm", "original_name", postgresql_using="gin",
              postgresql_ops={"original_name": "gin_trgm_ops"}),
        UniqueConstraint("parent_id", "split_index", name="uq_documents_parent_split"),
    )

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    sha256: Mapped[str | None] = mapped_column(String(64), unique=True)
    parent_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("documents.id", ondelete="RESTRICT"))
    split_index: Mapped[int | None] = mapped_column(Integer)
    page_first: Mapped[int | None] = mapped_column(Integer)
    page_last: Mapped[int | None] = mapped_column(Integer)
    size_bytes: Mapped[int] = mapped_column(BigInteger, nullable=False)
    media_type: Mapped[str] = mapped_column(String(64), nullable=False)
    page_count: Mapped[int | None] = mapped_column(Integer)
    blob_uri: Mapped[str] = mapped_column(Text, nullable=False)
    original_name: Mapped[str] = mapped_column(Text, nullable=False)
    state: Mapped[str] = mapped_column(String(20), nullable=False, default=State.PENDING.value)
    state_reason: Mapped[str | None] = mapped_column(Text)
    #: the stage the document is in or failed in: parse, split, classify, extract, publish
    current_stage: Mapped[str | None] = mapped_column(String(20))
    #: where a resumed FAILED document picks up again
    resume_state: Mapped[str | None] = mapped_column(String(20))
    doc_type: Mapped[str | None] = mapped_column(String(32))
    #: task attempts in the current budget; reset by an explicit retry
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    #: every task attempt ever made on the document
    total_attempts: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    max_attempts: Mapped[int] = mapped_column(Integer, nullable=False, server_default="3")
    lease_owner: Mapped[str | None] = mapped_column(Text)
    lease_expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: the request id of the last reprocess, so a re-clicked reprocess is a no-op
    request_id: Mapped[str | None] = mapped_column(String(64))
    received_at: Mapped[datetime] = _now()
    created_at: Mapped[datetime] = _now()
    updated_at: Mapped[datetime] = _now()


class DocumentSource(Base):
    """Every arrival of a file; a duplicate upload adds a row here and is never lost."""

    __tablename__ = "document_sources"
    __table_args__ = (Index("ix_document_sources_document", "document_id", "received_at"),
                      Index("ix_document_sources_name", "original_name"),
                      Index("ix_document_sources_source", "source", "document_id"))

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    document_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), nullable=False)
    original_name: Mapped[str] = mapped_column(Text, nullable=False)
    source: Mapped[str] = mapped_column(String(64), nullable=False)
    source_ref: Mapped[str | None] = mapped_column(Text)
    #: new | duplicate
    disposition: Mapped[str] = mapped_column(String(16), nullable=False)
    received_at: Mapped[datetime] = _now()


class DocumentSecret(Base):
    """A password an operator supplied to release an encrypted document."""

    __tablename__ = "document_secrets"

    document_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"),
                                                   primary_key=True)
    password: Mapped[str] = mapped_column(Text, nullable=False)
    supplied_by: Mapped[str] = mapped_column(Text, nullable=False)
    created_at: Mapped[datetime] = _now()


class PipelineRun(Base):
    """One row per task attempt on one document, opened at start and closed at end."""

    __tablename__ = "pipeline_runs"
    __table_args__ = (
        UniqueConstraint("document_id", "dag_id", "run_id", "task_id", "map_index", "try_number",
                         name="uq_pipeline_runs_attempt"),
        Index("ix_pipeline_runs_document", "document_id", "started_at"),
        Index("ix_pipeline_runs_outcome_started", "outcome", "started_at"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    document_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), nullable=False)
    dag_id: Mapped[str] = mapped_column(String(250), nullable=False)
    run_id: Mapped[str] = mapped_column(String(250), nullable=False)
    task_id: Mapped[str] = mapped_column(String(250), nullable=False)
    map_index: Mapped[int] = mapped_column(Integer, nullable=False, server_default="-1")
    try_number: Mapped[int] = mapped_column(Integer, nullable=False)
    stage: Mapped[str] = mapped_column(String(20), nullable=False)
    started_at: Mapped[datetime] = _now()
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    #: running | success | retry | failed | skipped
    outcome: Mapped[str] = mapped_column(String(16), nullable=False, server_default="running")
    error_class: Mapped[str | None] = mapped_column(String(200))
    error_message: Mapped[str | None] = mapped_column(Text)
    traceback_excerpt: Mapped[str | None] = mapped_column(Text)
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSONB)


class PageResult(Base):
    """A page-level checkpoint: committed before the page's result is handed on."""

    __tablename__ = "page_results"
    __table_args__ = (UniqueConstraint("document_id", "stage", "page_number", name="uq_page_results_page"),)

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    document_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), nullable=False)
    stage: Mapped[str] = mapped_column(String(20), nullable=False)
    page_number: Mapped[int] = mapped_column(Integer, nullable=False)
    method: Mapped[str] = mapped_column(String(16), nullable=False)
    engine: Mapped[str] = mapped_column(String(100), nullable=False)
    width: Mapped[float] = mapped_column(Float, nullable=False)
    height: Mapped[float] = mapped_column(Float, nullable=False)
    rotation: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    text: Mapped[str] = mapped_column(Text, nullable=False)
    words: Mapped[list[Any]] = mapped_column(JSONB, nullable=False)
    confidence: Mapped[float] = mapped_column(Float, nullable=False)
    checksum: Mapped[str] = mapped_column(String(64), nullable=False)
    created_at: Mapped[datetime] = _now()


class SplitManifest(Base):
    """How a document was cut into parts; written once and never updated (a trigger enforces it)."""

    __tablename__ = "split_manifests"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    document_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"),
                                                   nullable=False, unique=True)
    rule_version: Mapped[str] = mapped_column(String(64), nullable=False)
    parts: Mapped[list[Any]] = mapped_column(JSONB, nullable=False)
    manifest_sha256: Mapped[str] = mapped_column(String(64), nullable=False)
    created_at: Mapped[datetime] = _now()


class ClassificationRecord(Base):
    """Every distinct classification decision; a retry that decides differently adds a row."""

    __tablename__ = "classifications"
    __table_args__ = (UniqueConstraint("document_id", "decision_sha256", name="uq_classifications_decision"),
                      Index("ix_classifications_document", "document_id", "created_at"))

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    document_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), nullable=False)
    pipeline_run_id: Mapped[int | None] = mapped_column(ForeignKey("pipeline_runs.id", ondelete="SET NULL"))
    doc_type: Mapped[str] = mapped_column(String(32), nullable=False)
    confidence: Mapped[float] = mapped_column(Float, nullable=False)
    classifier_version: Mapped[str] = mapped_column(String(64), nullable=False)
    decision_sha256: Mapped[str] = mapped_column(String(64), nullable=False)
    created_at: Mapped[datetime] = _now()
    #: when this decision was last reached (a retry reaching it again restamps it)
    decided_at: Mapped[datetime] = _now()


class ExtractionRecord(Base):
    """Every distinct extraction decision (machine or a reviewer's correction)."""

    __tablename__ = "extractions"
    __table_args__ = (
        UniqueConstraint("document_id", "decision_sha256", name="uq_extractions_decision"),
        CheckConstraint("routing IN ('auto', 'review', 'blocked')", name="ck_extractions_routing"),
        Index("ix_extractions_document", "document_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    document_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), nullable=False)
    pipeline_run_id: Mapped[int | None] = mapped_column(ForeignKey("pipeline_runs.id", ondelete="SET NULL"))
    classification_id: Mapped[int | None] = mapped_column(ForeignKey("classifications.id", ondelete="SET NULL"))
    extractor_version: Mapped[str] = mapped_column(String(64), nullable=False)
    template: Mapped[str | None] = mapped_column(String(200))
    fields: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False)
    line_items: Mapped[list[Any]] = mapped_column(JSONB, nullable=False)
    validation: Mapped[list[Any]] = mapped_column(JSONB, nullable=False)
    routing: Mapped[str] = mapped_column(String(16), nullable=False)
    #: machine | review
    origin: Mapped[str] = mapped_column(String(16), nullable=False, server_default="machine")
    decided_by: Mapped[str | None] = mapped_column(Text)
    decision_sha256: Mapped[str] = mapped_column(String(64), nullable=False)
    created_at: Mapped[datetime] = _now()
    #: when this decision was last reached (a retry reaching it again restamps it)
    decided_at: Mapped[datetime] = _now()


class OutboxEvent(Base):
    """Written in the same transaction as the state change it announces."""

    __tablename__ = "outbox_events"
    __table_args__ = (
        CheckConstraint("status IN ('PENDING', 'PUBLISHING', 'PUBLISHED', 'DEAD')", name="ck_outbox_status"),
        Index("ix_outbox_pending", "created_at", postgresql_where=text("status IN ('PENDING', 'PUBLISHING')")),
        Index("ix_outbox_document", "document_id"),
    )

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    #: (document, stage, version): what a consumer dedupes on
    idempotency_key: Mapped[str] = mapped_column(Text, nullable=False, unique=True)
    document_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"), nullable=False)
    stage: Mapped[str] = mapped_column(String(20), nullable=False)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    event_type: Mapped[str] = mapped_column(String(64), nullable=False)
    payload: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False)
    status: Mapped[str] = mapped_column(String(16), nullable=False, server_default="PENDING")
    attempts: Mapped[int] = mapped_column(Integer, nullable=False, server_default="0")
    claimed_by: Mapped[str | None] = mapped_column(Text)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    published_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = _now()


class PublishedDocument(Base):
    """The default sink: one row per idempotency key however often it is delivered."""

    __tablename__ = "published_documents"

    idempotency_key: Mapped[str] = mapped_column(Text, primary_key=True)
    document_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), nullable=False, index=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False)
    first_delivered_at: Mapped[datetime] = _now()
    last_delivered_at: Mapped[datetime] = _now()
    delivery_count: Mapped[int] = mapped_column(Integer, nullable=False, server_default="1")


class AuditEvent(Base):
    """Who did what to which document, for the timeline and the compliance trail."""

    __tablename__ = "audit_events"
    __table_args__ = (Index("ix_audit_events_document", "document_id", "created_at"),
                      UniqueConstraint("request_id", name="uq_audit_events_request"))

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    document_id: Mapped[uuid.UUID | None] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    actor: Mapped[str] = mapped_column(Text, nullable=False)
    action: Mapped[str] = mapped_column(String(64), nullable=False)
    detail: Mapped[dict[str, Any]] = mapped_column(JSONB, nullable=False, server_default=text("'{}'::jsonb"))
    #: an action's idempotency key: the same request twice is recorded (and acted on) once
    request_id: Mapped[str | None] = mapped_column(String(128))
    created_at: Mapped[datetime] = _now()

"""The context every service and stage receives: settings, the database, the blob store.

Built once per process (or per test) and passed down, in the manner of
OCRmyPDF's PdfContext, so nothing below reads the environment on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine

from quire.blobs import BlobStore
from quire.db import migrate
from quire.db.engine import get_engine
from quire.settings import Settings, get_settings


@dataclass(frozen=True)
class QuireContext:
    settings: Settings
    engine: Engine
    blobs: BlobStore


def build_context(settings: Settings | None = None, *, migrate_schema: bool = True) -> QuireContext:
    """Resolve the database (starting the embedded server if needed) and bring its schema to head."""
    settings = settings or get_settings()
    engine = get_engine(settings)
    if migrate_schema:
        migrate.upgrade(engine)
    return QuireContext(settings=settings, engine=engine, blobs=BlobStore(settings.blob_root))

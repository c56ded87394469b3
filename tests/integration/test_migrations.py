"""The Alembic chain builds the schema the models describe, and runs both ways."""

import uuid

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import DBAPIError

from quire.db.engine import to_sqlalchemy_url
from quire.db.models import Base


def test_migrated_schema_matches_the_models(database_url):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    engine = create_engine(to_sqlalchemy_url(database_url))
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    engine.dispose()
    assert diff == []


def test_pending_work_has_a_partial_index(database_url):
    engine = create_engine(to_sqlalchemy_url(database_url))
    indexes = {i["name"]: i for i in inspect(engine).get_indexes("documents")}
    engine.dispose()
    assert "'PENDING'" in indexes["ix_documents_pending"]["dialect_options"]["postgresql_where"]


def test_page_results_are_unique_per_document_stage_and_page(database_url):
    engine = create_engine(to_sqlalchemy_url(database_url))
    uniques = {u["name"]: u["column_names"] for u in inspect(engine).get_unique_constraints("page_results")}
    engine.dispose()
    assert uniques["uq_page_results_page"] == ["document_id", "stage", "page_number"]


def test_split_manifests_cannot_be_changed_once_written(clean_database):
    engine = create_engine(to_sqlalchemy_url(clean_database))
    doc_id = uuid.uuid4()
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO documents (id, sha256, size_bytes, media_type, blob_uri, original_name, state)"
                          " VALUES (:id, :sha, 1, 'application/pdf', 'blob://x', 'x.pdf', 'PARSED')"),
                     {"id": doc_id, "sha": "a" * 64})
        conn.execute(text("INSERT INTO split_manifests (document_id, rule_version, parts, manifest_sha256)"
                          " VALUES (:id, 'v1', '[]', 'b')"), {"id": doc_id})
    for statement in ("UPDATE split_manifests SET parts = '[1]'", "DELETE FROM split_manifests"):
        with pytest.raises(DBAPIError, match="immutable"), engine.begin() as conn:
            conn.execute(text(statement))
    engine.dispose()


def test_downgrade_and_upgrade_round_trip(tmp_path, database_url):
    from alembic import command

    from quire.db.migrate import alembic_config

    admin = create_engine(to_sqlalchemy_url(database_url), isolation_level="AUTOCOMMIT")
    name = f"quire_roundtrip_{uuid.uuid4().hex[:8]}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        from sqlalchemy.engine import make_url

        engine = create_engine(to_sqlalchemy_url(make_url(database_url).set(database=name)
                                                 .render_as_string(hide_password=False)))
        config = alembic_config(engine)
        command.upgrade(config, "head")
        command.downgrade(config, "base")
        assert set(inspect(engine).get_table_names()) <= {"alembic_version"}
        command.upgrade(config, "head")
        assert "documents" in inspect(engine).get_table_names()
        engine.dispose()
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

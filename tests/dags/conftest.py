"""Airflow for the DAG tests: a migrated metadata database of its own, the repo's dags, real input files.

Airflow reads its configuration when first imported, so the environment is set
here, at collection time, before any test imports it; the database named here
is created and migrated by the ``airflow_db`` session fixture.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.dags.inputs import invoice, write_invoice_pdf

REPO_ROOT = Path(__file__).resolve().parents[2]
DAGS_FOLDER = REPO_ROOT / "dags"
AIRFLOW_DB_NAME = f"quire_test_airflow_{uuid.uuid4().hex[:8]}"
_AIRFLOW_HOME = Path(os.environ.get("TMPDIR", "/tmp")) / f"quire-test-airflow-{AIRFLOW_DB_NAME[-8:]}"

if str(DAGS_FOLDER) not in sys.path:
    sys.path.insert(0, str(DAGS_FOLDER))  # what Airflow does for a dags folder: `import _quire_adapter` works

os.environ.update({
    "AIRFLOW_HOME": str(_AIRFLOW_HOME),
    "AIRFLOW__CORE__DAGS_FOLDER": str(DAGS_FOLDER),
    "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
    "AIRFLOW__CORE__UNIT_TEST_MODE": "False",
    "AIRFLOW__CORE__DAGS_ARE_PAUSED_AT_CREATION": "False",
    "AIRFLOW__LOGGING__LOGGING_LEVEL": "INFO",
})


def _airflow_url(admin_url: str) -> str:
    from quire.db.engine import to_sqlalchemy_url

    return to_sqlalchemy_url(admin_url).set(database=AIRFLOW_DB_NAME).render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def airflow_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A fresh, migrated Airflow metadata database on the test server (dropped at the end)."""
    from tests.conftest import _admin_url

    from quire.db.engine import to_sqlalchemy_url

    admin_url = _admin_url(tmp_path_factory.mktemp("embedded-airflow"))
    url = _airflow_url(admin_url)
    os.environ["AIRFLOW__DATABASE__SQL_ALCHEMY_CONN"] = url
    os.environ["AIRFLOW__DATABASE__SQL_ALCHEMY_CONN_ASYNC"] = make_url(url).set(
        drivername="postgresql+psycopg_async").render_as_string(hide_password=False)
    admin = create_engine(to_sqlalchemy_url(admin_url), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{AIRFLOW_DB_NAME}"'))
    _AIRFLOW_HOME.mkdir(parents=True, exist_ok=True)
    migrate = subprocess.run([str(Path(sys.executable).with_name("airflow")), "db", "migrate"],
                             env=os.environ.copy(), capture_output=True, text=True, timeout=600)
    assert migrate.returncode == 0, migrate.stdout[-2000:] + migrate.stderr[-2000:]
    if "airflow.settings" in sys.modules:  # imported earlier (e.g. by the integrity tests): point it here
        from airflow import settings as airflow_settings
        from airflow.configuration import conf

        conf.set("database", "sql_alchemy_conn", os.environ["AIRFLOW__DATABASE__SQL_ALCHEMY_CONN"])
        conf.set("database", "sql_alchemy_conn_async", os.environ["AIRFLOW__DATABASE__SQL_ALCHEMY_CONN_ASYNC"])
        airflow_settings.dispose_orm()
        airflow_settings.configure_vars()
        airflow_settings.configure_orm()
    yield url
    try:
        from airflow import settings as airflow_settings

        if airflow_settings.engine is not None:
            airflow_settings.engine.dispose()
    except ImportError:
        pass
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{AIRFLOW_DB_NAME}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def quire_env(settings, monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """Make the task code (which reads ``QUIRE_*``) see the test's settings and database."""
    from quire.settings import get_settings

    monkeypatch.setenv("QUIRE_HOME", str(settings.home))
    monkeypatch.setenv("QUIRE_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("QUIRE_TEST_FAULT_DIR", str(tmp_path / "faults"))
    get_settings.cache_clear()
    yield settings
    get_settings.cache_clear()


@pytest.fixture
def document_dag(airflow_db):
    """document_pipeline as the dag-processor would load it."""
    from airflow.dag_processing.dagbag import DagBag

    bag = DagBag(dag_folder=str(DAGS_FOLDER), include_examples=False) if _takes_examples() else \
        DagBag(dag_folder=str(DAGS_FOLDER))
    assert not bag.import_errors, bag.import_errors
    return bag.dags["document_pipeline"]


def _takes_examples() -> bool:
    import inspect

    from airflow.dag_processing.dagbag import DagBag

    return "include_examples" in inspect.signature(DagBag.__init__).parameters


# ---------------------------------------------------------------- input files


@pytest.fixture
def sample_files(tmp_path: Path, corpus_dir: Path) -> dict[str, Path]:
    """The five kinds of input the issue names, as files."""
    folder = tmp_path / "inputs"
    folder.mkdir()
    return {
        "invoice": write_invoice_pdf(folder / "invoice-1001.pdf", [invoice("INV-1001")]),
        "receipt": corpus_dir / "sroie" / "img" / "000.jpg",
        "packet": write_invoice_pdf(folder / "packet.pdf", [invoice("INV-2001", "Northwind Traders"),
                                                            invoice("INV-2002", "Globex Corporation"),
                                                            invoice("INV-2003", "Initech LLC")]),
        "encrypted": corpus_dir / "awkward" / "pdfplumber__password-example.pdf",
        "malformed": corpus_dir / "awkward" / "pdfplumber__malformed-from-issue-932.pdf",
    }

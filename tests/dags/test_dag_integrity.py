"""The DAG files load cleanly, declare retries, tags and labels, and touch no database while parsed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

DAGS_FOLDER = Path(__file__).resolve().parents[2] / "dags"

PARSE_SCRIPT = """
import json, sys, time
sys.path.insert(0, {dags!r})
started = time.monotonic()
from airflow.dag_processing.dagbag import DagBag
bag = DagBag(dag_folder={dags!r})
heavy = sorted(m for m in sys.modules if m.split(".")[0] in
               ("quire", "pdfplumber", "pypdfium2", "pytesseract", "PIL", "alembic"))
print(json.dumps({{"dags": sorted(bag.dag_ids), "errors": {{k: str(v) for k, v in bag.import_errors.items()}},
                  "quire_modules": [m for m in heavy], "seconds": time.monotonic() - started}}))
"""


def _parse_in_clean_process(env_overrides: dict[str, str]) -> dict:
    import json

    env = {k: v for k, v in os.environ.items() if not k.startswith(("AIRFLOW__DATABASE", "QUIRE_"))}
    env.update(env_overrides)
    result = subprocess.run([sys.executable, "-c", PARSE_SCRIPT.format(dags=str(DAGS_FOLDER))], env=env,
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_dags_parse_without_reaching_any_database():
    """Unreachable Airflow and Quire databases: parsing must still succeed, quickly, without Quire imported."""
    dead = "postgresql+psycopg://nobody:nothing@127.0.0.1:9/none?connect_timeout=1"
    report = _parse_in_clean_process({
        "AIRFLOW__DATABASE__SQL_ALCHEMY_CONN": dead,
        "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
        "QUIRE_DATABASE_URL": dead,
        "QUIRE_HOME": "/nonexistent/quire-home",
    })
    assert report["errors"] == {}
    assert report["dags"] == ["document_pipeline", "inbox_scan"]
    # nothing of Quire (no engines, no migrations) is imported at parse time
    assert report["quire_modules"] == [], report["quire_modules"]


@pytest.fixture(scope="module")
def bag():
    sys.path.insert(0, str(DAGS_FOLDER))
    from airflow.dag_processing.dagbag import DagBag

    return DagBag(dag_folder=str(DAGS_FOLDER))


def test_no_import_errors(bag):
    assert bag.import_errors == {}
    assert set(bag.dag_ids) == {"document_pipeline", "inbox_scan"}


def test_every_task_retries_with_backoff_and_every_dag_is_tagged_and_documented(bag):
    for dag in bag.dags.values():
        assert dag.tags and "quire" in dag.tags, dag.dag_id
        assert dag.doc_md and len(dag.doc_md) > 100, dag.dag_id
        assert dag.catchup is False
        for task in dag.tasks:
            assert task.retries >= 3, task.task_id
            assert task.retry_exponential_backoff, task.task_id
            assert task.max_retry_delay is not None, task.task_id


def test_document_pipeline_shape(bag):
    dag = bag.dags["document_pipeline"]
    stages = ["parse", "split", "classify", "extract", "publish"]
    ids = {t.task_id for t in dag.tasks}
    assert ids == {"fetch_pending", "dispatch_outbox", *(f"process_chunk.{s}" for s in stages)}
    for upstream, downstream in zip(stages, stages[1:], strict=False):
        assert f"process_chunk.{upstream}" in dag.get_task(f"process_chunk.{downstream}").upstream_task_ids
    for stage in stages:
        task = dag.get_task(f"process_chunk.{stage}")
        assert task.map_index_template == "{{ quire_label }}"  # each instance shows the document it carries
        assert task.trigger_rule == ("all_success" if stage == "parse" else "all_done"), stage
    assert dag.get_task("dispatch_outbox").trigger_rule == "all_done"
    assert set(dag.params.keys()) == {"document_ids", "force_reprocess", "chunk_size", "limit"}
    # asset-or-time: runs on intake's Asset and on a clock (so a backfill over a date range is possible)
    assert type(dag.timetable).__name__ == "AssetOrTimeSchedule"


def test_params_are_validated(bag):
    from airflow.sdk import ParamsDict

    dag = bag.dags["document_pipeline"]
    params = ParamsDict(dag.params)
    params.validate()
    bad = ParamsDict(dag.params)
    with pytest.raises(Exception, match="chunk_size|minimum|valid"):
        bad["chunk_size"] = -1
        bad.validate()


def test_inbox_scan_emits_the_pending_asset(bag):
    dag = bag.dags["inbox_scan"]
    (task,) = dag.tasks
    assert [o.uri for o in task.outlets] == ["quire://documents/pending"]

"""document_pipeline end to end with ``dag.test()`` on real files against real PostgreSQL.

Each test ingests real inputs, runs the DAG in-process (Airflow's metadata in
its own migrated database, Quire's in the session test database) and checks
the documents' states, the pipeline_runs rows and the task instances.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select

pytestmark = pytest.mark.usefixtures("airflow_db")


def _ingest(ctx, *paths):
    from quire.intake import ingest_path

    return {p.name: ingest_path(ctx, p) for p in paths}


def _states(ctx) -> dict[str, str]:
    from quire.db.engine import transaction
    from quire.db.models import Document

    with transaction(ctx.engine) as session:
        return {f"{d.original_name}#{d.split_index or 0}": d.state
                for d in session.execute(select(Document)).scalars()}


def _runs(ctx, stage: str | None = None) -> list[tuple]:
    from quire.db.engine import transaction
    from quire.db.models import PipelineRun

    with transaction(ctx.engine) as session:
        query = select(PipelineRun.document_id, PipelineRun.stage, PipelineRun.try_number, PipelineRun.outcome,
                       PipelineRun.error_class, PipelineRun.run_id).order_by(PipelineRun.id)
        if stage:
            query = query.where(PipelineRun.stage == stage)
        return list(session.execute(query).all())


def _task_states(dag_run) -> dict[tuple[str, int], str]:
    from airflow.models.taskinstance import TaskInstance
    from airflow.settings import Session

    with Session() as session:
        rows = session.execute(select(TaskInstance.task_id, TaskInstance.map_index, TaskInstance.state,
                                      TaskInstance.rendered_map_index, TaskInstance.try_number)
                               .where(TaskInstance.dag_id == dag_run.dag_id,
                                      TaskInstance.run_id == dag_run.run_id)).all()
    return {(r.task_id, r.map_index): (r.state, r.rendered_map_index, r.try_number) for r in rows}


def test_real_files_reach_their_terminal_states(document_dag, quire_env, ctx, sample_files):
    results = _ingest(ctx, *sample_files.values())
    # encrypted and malformed inputs are recognised at intake; the others wait for the pipeline
    assert results["invoice-1001.pdf"].status.value == "new"

    dag_run = document_dag.test(run_conf={"chunk_size": 1})
    states = _states(ctx)

    assert states["invoice-1001.pdf#0"] in ("COMPLETE", "REVIEW_REQUIRED"), states
    assert states["000.jpg#0"] in ("COMPLETE", "REVIEW_REQUIRED", "BLOCKED"), states
    # the packet: a parent COMPLETE once split, three children each with its own outcome
    assert states["packet.pdf#0"] == "COMPLETE", states
    children = {k: v for k, v in states.items() if k.startswith("packet.pdf") and not k.endswith("#0")}
    assert len(children) == 3, sorted(states.items())
    assert all(v in ("COMPLETE", "REVIEW_REQUIRED", "BLOCKED") for v in children.values()), children
    assert states["pdfplumber__password-example.pdf#0"] == "QUARANTINED"
    # malformed but recoverable by PDFium: whatever its outcome, it is a settled one with a reason
    assert states["pdfplumber__malformed-from-issue-932.pdf#0"] in ("QUARANTINED", "FAILED", "REVIEW_REQUIRED",
                                                                    "BLOCKED", "COMPLETE")
    assert not [s for s in states.values() if s in ("PENDING", "IN_PROGRESS", "PARSED", "SPLIT", "CLASSIFIED",
                                                     "EXTRACTED", "PUBLISHED")], states

    # every mapped instance is labelled with the document it carries
    tis = _task_states(dag_run)
    labels = {label for (task_id, _), (_, label, _) in tis.items() if task_id == "process_chunk.parse"}
    assert any(label and "invoice-1001.pdf [" in label for label in labels), labels
    # one pipeline_runs row per document attempt, closed
    runs = _runs(ctx)
    assert runs and all(r.outcome in ("success", "failed", "retry", "skipped") for r in runs)
    assert {r.run_id for r in runs} == {dag_run.run_id}


def test_transient_extract_failure_is_retried_without_rerunning_earlier_stages(document_dag, quire_env, ctx,
                                                                             sample_files, monkeypatch):
    """The first extractor call fails with a transient EngineError: Airflow retries extract only."""
    from quire.settings import get_settings
    from tests.doubles import fault_count

    monkeypatch.setenv("QUIRE_EXTRACTOR", "tests.doubles:flaky_extractor")
    monkeypatch.setenv("QUIRE_CLASSIFIER", "tests.doubles:counting_classifier")
    get_settings.cache_clear()
    document_id = _ingest(ctx, sample_files["invoice"])["invoice-1001.pdf"].document_id

    dag_run = document_dag.test(run_conf={"document_ids": [document_id]})

    tis = _task_states(dag_run)
    assert tis[("process_chunk.extract", 0)][0] == "success"
    assert tis[("process_chunk.extract", 0)][2] == 2  # failed once, succeeded on the retry
    for stage in ("parse", "split", "classify"):
        assert tis[(f"process_chunk.{stage}", 0)][2] == 1, stage  # not run again
    assert fault_count("classify-calls") == 1  # classification was read back, not recomputed
    extract_runs = [(r.try_number, r.outcome, r.error_class) for r in _runs(ctx, "extract")]
    assert extract_runs == [(1, "retry", "quire.errors.EngineError"), (2, "success", None)]
    assert [r.stage for r in _runs(ctx) if r.stage != "extract"] == ["parse", "split", "classify", "publish"]
    assert _states(ctx)["invoice-1001.pdf#0"] in ("COMPLETE", "REVIEW_REQUIRED")


def test_clearing_failed_task_instances_resumes_at_the_failed_task(document_dag, quire_env, ctx, sample_files,
                                                                  monkeypatch):
    """extract fails on every try; after the fix, clearing the failed task instances resumes there."""
    from quire.settings import get_settings

    monkeypatch.setenv("QUIRE_EXTRACTOR", "tests.dags.test_dag_runs:always_failing_extractor")
    get_settings.cache_clear()
    document_id = _ingest(ctx, sample_files["invoice"])["invoice-1001.pdf"].document_id
    for task in document_dag.tasks:
        task.retries = 0  # fail at once; retries are the other test's subject

    logical_date = datetime.now(UTC)
    dag_run = document_dag.test(run_conf={"document_ids": [document_id]}, logical_date=logical_date,
                                run_after=logical_date)
    tis = _task_states(dag_run)
    assert tis[("process_chunk.extract", 0)][0] == "failed"
    assert _states(ctx)["invoice-1001.pdf#0"] == "FAILED"
    before = [(r.stage, r.outcome) for r in _runs(ctx)]
    assert before[:3] == [("parse", "success"), ("split", "success"), ("classify", "success")]
    assert before[3] == ("extract", "failed")

    # the fix: the real extractor again; then clear the failed task instances with their downstream
    monkeypatch.delenv("QUIRE_EXTRACTOR")
    get_settings.cache_clear()
    cleared = _clear_failed_like_the_rest_api(dag_run)
    assert ("process_chunk.extract", 0) in cleared and ("process_chunk.parse", 0) not in cleared, cleared
    resumed = _run_cleared(document_dag, logical_date)

    tis = _task_states(resumed)
    assert resumed.run_id == dag_run.run_id
    assert tis.get(("process_chunk.extract", 0), ("missing",))[0] == "success", tis
    for stage in ("parse", "split", "classify"):
        assert tis[(f"process_chunk.{stage}", 0)][2] == 1, stage  # upstream kept its state: not run again
    after = [(r.stage, r.outcome) for r in _runs(ctx)]
    assert after[:len(before)] == before
    assert [s for s, _ in after[len(before):]] == ["extract", "publish"]
    assert _states(ctx)["invoice-1001.pdf#0"] in ("COMPLETE", "REVIEW_REQUIRED")


def always_failing_extractor(parsed, classification, **kwargs):
    from quire.errors import EngineError

    raise EngineError("extractor backend down (injected fault)")


def _clear_failed_like_the_rest_api(dag_run) -> set[tuple[str, int]]:
    """What ``POST /api/v2/dags/{id}/clearTaskInstances`` does for the run's failed task instances with
    ``include_downstream`` (``quire.airflow_api.AirflowApi.clear_failed`` sends exactly that)."""
    from airflow.models.serialized_dag import SerializedDagModel
    from airflow.models.taskinstance import TaskInstance, clear_task_instances, find_relevant_relatives
    from airflow.settings import Session

    with Session() as session:
        failed = session.execute(select(TaskInstance.task_id, TaskInstance.map_index).where(
            TaskInstance.dag_id == dag_run.dag_id, TaskInstance.run_id == dag_run.run_id,
            TaskInstance.state.in_(["failed", "upstream_failed"]))).all()
        dag = SerializedDagModel.get_dag(dag_run.dag_id, session=session)
        mapped = {(t, m) for t, m in failed if m >= 0}
        normal = {t for t, m in failed if m < 0}
        relatives = find_relevant_relatives(normal, mapped, dag=dag, run_id=dag_run.run_id,
                                            direction="downstream", session=session)
        normal.update(t for t in relatives if not isinstance(t, tuple))
        mapped.update(t for t in relatives if isinstance(t, tuple))
        markers = [*normal, *((t, m) for t, m in mapped if t not in normal)]
        tis = dag.clear(dry_run=True, task_ids=markers, run_id=dag_run.run_id, session=session)
        clear_task_instances(list(tis), session)
        session.commit()
        return {(ti.task_id, ti.map_index) for ti in tis}


def _run_cleared(dag, logical_date):
    """Drive the cleared run to its end in-process with dag.test()'s own loop.

    dag.test() normally clears every task instance and re-creates the run; here
    it must pick up the existing run as the scheduler would after a clear.
    """
    from unittest.mock import patch

    from airflow.models.dagrun import DagRun
    from airflow.serialization.definitions.dag import SerializedDAG

    def existing_run(*, dag, run_id, session, **kwargs):
        run = session.execute(select(DagRun).where(DagRun.dag_id == dag.dag_id, DagRun.run_id == run_id)
                              ).scalar_one()
        run.state = "running"  # what the scheduler does with the re-queued run
        session.commit()
        run.dag = dag
        return run

    with patch.object(SerializedDAG, "clear_dags", lambda *a, **k: None), \
            patch("airflow.models.dagrun.get_or_create_dagrun", existing_run):
        return dag.test(logical_date=logical_date, run_after=logical_date)

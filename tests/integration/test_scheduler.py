"""The real Airflow components as `quire up` starts them: loopback only, stopped exactly, idempotent.

These start api-server, scheduler, dag-processor and triggerer as subprocesses
(~30 s), so they are marked slow.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow


def _listening_ports(pids: set[int]) -> list[str]:
    """Local addresses the given processes listen on (from `ss`)."""
    out = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True).stdout
    found = []
    for line in out.splitlines():
        if any(f"pid={pid}," in line for pid in pids):
            found.append(line.split()[3])
    return found


def _stop_embedded_server(home: Path) -> None:
    pid_file = home / "pgdata" / "postmaster.pid"
    if pid_file.exists():
        os.kill(int(pid_file.read_text().split()[0]), signal.SIGTERM)


@pytest.fixture
def embedded_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A QUIRE_HOME with no QUIRE_DATABASE_URL: the embedded server holds both databases."""
    home = tmp_path / "home"
    monkeypatch.setenv("QUIRE_HOME", str(home))
    monkeypatch.delenv("QUIRE_DATABASE_URL", raising=False)
    yield home
    subprocess.run([sys.executable, "-m", "quire.cli", "down", "--timeout", "10"], env=os.environ.copy(),
                   capture_output=True, timeout=120)
    _stop_embedded_server(home)


def _quire(*args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "quire.cli", *args], env=os.environ.copy(), capture_output=True,
                          text=True, timeout=timeout)


def test_up_starts_loopback_components_reuses_them_and_down_stops_exactly_them(embedded_home: Path):
    from quire import airflow_runtime as rt

    port = rt.free_port()
    first = _quire("up", "--port", str(port))
    assert first.returncode == 0, first.stdout + first.stderr
    assert f"http://127.0.0.1:{port}" in first.stdout and "password" in first.stdout
    for component in rt.COMPONENTS:
        assert f"{component:14} started" in first.stdout

    paths = rt.RuntimePaths(embedded_home.resolve())
    records = {c: rt.ComponentRecord.read(paths.pid_file(c)) for c in rt.COMPONENTS}
    assert all(r is not None and rt.is_alive(r) for r in records.values())
    everything = set().union(*(rt.live_group_members(r.pgid) for r in records.values()))
    listening = _listening_ports(everything)
    assert listening == [f"127.0.0.1:{port}"], listening  # only the api-server, only on loopback

    # the generated admin can log in and the health endpoint reports every component
    client = rt.AirflowClient(f"http://127.0.0.1:{port}", rt.ADMIN_USER, rt.load_secrets(paths)["admin_password"])
    assert client.request("GET", "/version")["version"].startswith("3.3")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/monitor/health", timeout=10) as response:
        health = json.loads(response.read())
    assert health["scheduler"]["status"] == "healthy"

    again = _quire("up", "--port", str(port))
    assert again.returncode == 0, again.stderr
    for component in rt.COMPONENTS:
        assert f"{component:14} already running" in again.stdout
    assert {c: rt.ComponentRecord.read(paths.pid_file(c)).pid for c in rt.COMPONENTS} == \
        {c: r.pid for c, r in records.items()}
    assert "migrated" not in again.stdout  # the metadata database is migrated once

    # a process outside our groups survives `quire down`
    bystander = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        down = _quire("down")
        assert down.returncode == 0, down.stderr
        for record in records.values():
            deadline = time.monotonic() + 5
            while rt.live_group_members(record.pgid) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not rt.live_group_members(record.pgid), f"{record.component} group still has processes"
            assert not paths.pid_file(record.component).exists()
        assert bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()
    assert "not running" in _quire("down").stdout


@pytest.fixture
def runtime_settings(settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The test database for Quire; Airflow's metadata in `<that database>_airflow` on the same server."""
    from quire.settings import Settings

    home = settings.home  # the blobs the test ingests live here; the components must see the same store
    runtime = Settings(home=home, database_url=settings.database_url)
    # the components inherit this environment: the repo on the path (tests.* doubles), test settings
    monkeypatch.setenv("QUIRE_HOME", str(home))
    monkeypatch.setenv("QUIRE_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[2]))
    yield runtime
    from quire import airflow_runtime as rt

    rt.down(runtime, timeout=10)
    from sqlalchemy import create_engine, make_url, text

    from quire.db.engine import to_sqlalchemy_url

    name = f"{make_url(settings.database_url).database}_airflow"
    admin = create_engine(to_sqlalchemy_url(settings.database_url).set(database="postgres"),
                          isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.mark.timeout(300)
def test_real_scheduler_processes_a_handful_of_documents_to_terminal_states(runtime_settings, ctx, tmp_path,
                                                                            corpus_dir):
    from quire import airflow_runtime as rt
    from quire.intake import ingest_path
    from quire.services import state_counts, unfinished_count
    from tests.dags.inputs import invoice, write_invoice_pdf

    inputs = tmp_path / "inputs"
    inputs.mkdir()
    files = [
        write_invoice_pdf(inputs / "invoice-3001.pdf", [invoice("INV-3001")]),
        write_invoice_pdf(inputs / "invoice-3002.pdf", [invoice("INV-3002", "Umbrella Corp")]),
        write_invoice_pdf(inputs / "packet.pdf", [invoice("INV-3101", "Northwind Traders"),
                                                  invoice("INV-3102", "Globex Corporation")]),
        corpus_dir / "awkward" / "pdfplumber__password-example.pdf",
        corpus_dir / "sroie" / "img" / "016.jpg",
    ]
    for path in files:
        ingest_path(ctx, path)

    summary = rt.run_until_idle(runtime_settings, timeout=240, progress=False,
                                config=rt.RuntimeConfig(port=rt.free_port()))

    from quire.services import list_documents

    documents = [(d["name"], d["state"], d["reason"]) for d in list_documents(ctx, limit=50)]
    assert summary.idle, summary.text()
    assert unfinished_count(ctx) == 0, documents
    counts = state_counts(ctx)
    assert counts["QUARANTINED"] == 1
    assert counts["COMPLETE"] + counts["REVIEW_REQUIRED"] + counts["BLOCKED"] == 4 + 2, documents
    assert all(r["state"] == "success" for r in summary.runs), summary.runs
    # everything run_until_idle started, it stopped
    paths = rt.RuntimePaths.for_settings(runtime_settings)
    assert summary.started_components == list(rt.COMPONENTS)
    assert rt.running_components(paths) == {}


@pytest.mark.timeout(420)
def test_celery_executor_runs_the_tasks_on_a_worker_fed_by_redis(runtime_settings, ctx, tmp_path, corpus_dir):
    """QUIRE_EXECUTOR=celery: the scheduler queues on Redis, the `celery-worker` component runs every task."""
    from quire import airflow_runtime as rt
    from quire.intake import ingest_path
    from quire.services import state_counts
    from tests.dags.inputs import invoice, write_invoice_pdf

    settings = runtime_settings.model_copy(update={"executor": "celery"})
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    for path in (write_invoice_pdf(inputs / "invoice-4001.pdf", [invoice("INV-4001")]),
                 write_invoice_pdf(inputs / "invoice-4002.pdf", [invoice("INV-4002", "Umbrella Corp")]),
                 corpus_dir / "awkward" / "pdfplumber__password-example.pdf"):
        ingest_path(ctx, path)

    summary = rt.run_until_idle(settings, timeout=360, progress=False, keep_running=True,
                                config=rt.RuntimeConfig(port=rt.free_port()))
    paths = rt.RuntimePaths.for_settings(settings)
    try:
        assert summary.idle, summary.text()
        assert summary.started_components == [*rt.COMPONENTS, rt.CELERY_WORKER]
        counts = state_counts(ctx)
        assert counts["QUARANTINED"] == 1 and counts["COMPLETE"] == 2, counts

        state = rt.read_state(paths)
        assert state["executor"] == "celery"
        queue = rt.celery_queue(rt.airflow_database_url(settings))
        client = rt.AirflowClient(state["url"], rt.ADMIN_USER, rt.load_secrets(paths)["admin_password"])
        instances = [ti for run in summary.runs for ti in client.task_instances(rt.DOCUMENT_DAG_ID, run["run_id"])]
        ran = [ti for ti in instances if ti["state"] in ("success", "failed")]
        assert ran, instances
        # every task instance went through this installation's Celery queue
        assert {ti["queue"] for ti in ran} == {queue}
        assert "execute_workload" in (paths.log_dir / f"{rt.CELERY_WORKER}.log").read_text()
    finally:
        stopped = rt.down(settings, timeout=20)
    assert rt.CELERY_WORKER in stopped and rt.running_components(paths) == {}


def _wait_for(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(1)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


def _pipeline_runs(ctx, document_id: str) -> list[tuple[str, str, str]]:
    from sqlalchemy import select

    from quire.db.engine import transaction
    from quire.db.models import PipelineRun

    with transaction(ctx.engine) as session:
        return [tuple(r) for r in session.execute(
            select(PipelineRun.stage, PipelineRun.outcome, PipelineRun.run_id)
            .where(PipelineRun.document_id == document_id).order_by(PipelineRun.id)).all()]


@pytest.mark.timeout(480)
def test_a_failed_run_resumes_at_its_failed_task_through_the_rest_clear(runtime_settings, ctx, tmp_path):
    """The extractor is down (a double chosen by QUIRE_EXTRACTOR): extract fails terminally in the real
    scheduler; after the fix, the REST clear of the failed task instances re-runs extract and what follows
    in the same run, and parse, split and classify are not run again."""
    from quire import airflow_runtime as rt
    from quire.airflow_api import AirflowApi
    from quire.intake import ingest_path
    from quire.services import document_detail
    from tests.browser.faults import FLAG
    from tests.dags.inputs import invoice, write_invoice_pdf

    faults = tmp_path / "faults"
    faults.mkdir()
    (faults / FLAG).touch()
    config = rt.RuntimeConfig(port=rt.free_port(), extra_env={
        "QUIRE_EXTRACTOR": "tests.browser.faults:extractor_down_while_flagged",
        "QUIRE_TEST_FAULT_DIR": str(faults)})
    result = rt.up(runtime_settings, config, wait_timeout=240)
    client = rt.AirflowClient(result.url, result.user, result.password)
    client.wait_for_dag(rt.DOCUMENT_DAG_ID)
    client.unpause(rt.DOCUMENT_DAG_ID)

    document_id = ingest_path(ctx, write_invoice_pdf(tmp_path / "invoice-4001.pdf", [invoice("INV-4001")])
                              ).document_id
    client.trigger(rt.DOCUMENT_DAG_ID, {"document_ids": [document_id]})
    _wait_for(lambda: document_detail(ctx, document_id)["state"] == "FAILED", 240, "the document to fail")
    before = _pipeline_runs(ctx, document_id)
    assert [(s, o) for s, o, _ in before] == [("parse", "success"), ("split", "success"),
                                             ("classify", "success"), ("extract", "failed")], before
    run_id = before[-1][2]  # the run that claimed it (a scheduled run may have come first)

    def finished_tis():
        if client.dag_run(rt.DOCUMENT_DAG_ID, run_id)["state"] in rt.ACTIVE_RUN_STATES:
            return None
        return {(ti["task_id"], ti["map_index"]): (ti["state"], ti["try_number"])
                for ti in client.task_instances(rt.DOCUMENT_DAG_ID, run_id)}

    tis = _wait_for(finished_tis, 120, f"run {run_id} to end")
    assert tis[("process_chunk.extract", 0)] == ("failed", 1), tis

    (faults / FLAG).unlink()  # the fix
    api = AirflowApi(result.url, client._login())
    cleared = {(t.task_id, t.map_index) for t in api.clear_failed(rt.DOCUMENT_DAG_ID, run_id)}
    assert ("process_chunk.extract", 0) in cleared and ("process_chunk.publish", 0) in cleared, cleared
    assert not {("process_chunk.parse", 0), ("process_chunk.split", 0), ("process_chunk.classify", 0)} & cleared

    tis = _wait_for(lambda: (t := finished_tis()) and t[("process_chunk.extract", 0)][1] == 2 and t, 180,
                    f"run {run_id} to re-run extract and end")
    assert tis[("process_chunk.extract", 0)] == ("success", 2), tis
    assert tis[("process_chunk.publish", 0)][0] == "success", tis
    for stage in ("parse", "split", "classify"):
        assert tis[(f"process_chunk.{stage}", 0)] == ("success", 1), stage  # kept: not run again
    after = _pipeline_runs(ctx, document_id)
    assert after[:len(before)] == before
    assert [(s, o, r) for s, o, r in after[len(before):]] == [("extract", "success", run_id),
                                                             ("publish", "success", run_id)], after
    assert document_detail(ctx, document_id)["state"] in ("COMPLETE", "REVIEW_REQUIRED")

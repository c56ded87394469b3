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

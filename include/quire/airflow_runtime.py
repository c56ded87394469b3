"""Run Airflow's components for Quire on this machine: environment, start, stop, the REST API.

This module never imports Airflow. It builds the ``AIRFLOW__*`` environment and
spawns ``airflow api-server | scheduler | dag-processor | triggerer`` as
background processes, each in its own process group, with a pid file under
``QUIRE_HOME/run``. ``stop`` signals exactly those groups (SIGTERM, then
SIGKILL after a timeout), so nothing else on the machine is touched.

Decisions worth knowing:

* Everything listens on 127.0.0.1 only: the api-server gets ``--host
  127.0.0.1``, the scheduler and triggerer ``--skip-serve-logs`` (task logs are
  local files the api-server reads directly).
* Airflow's metadata lives in its own database on the same PostgreSQL server as
  Quire's: database ``airflow`` on the embedded server, or, when
  ``QUIRE_DATABASE_URL`` names a server, the database ``<quire database>_airflow``
  on that server (created if missing). ``QUIRE_AIRFLOW_DATABASE_URL`` overrides
  both (for a role without CREATEDB). A separate database rather than a schema
  keeps Airflow's and Quire's Alembic histories apart.
* The components get ``QUIRE_DATABASE_URL`` resolved once here, so a task
  process never pays for starting (or probing) the embedded server.
* Executors: LocalExecutor by default (task processes forked by the
  scheduler). With ``QUIRE_EXECUTOR=celery`` (or ``quire up --executor
  celery``) the scheduler queues task instances on the Celery broker
  (``QUIRE_CELERY_BROKER_URL``, Redis by default) and a ``celery-worker``
  component runs them; results go to Airflow's metadata database. The queue is
  named after this installation's metadata database, so two Quire
  installations sharing one broker never run each other's tasks.
* Login: the simple auth manager with one ``admin`` user whose password is
  generated once and kept in ``QUIRE_HOME/airflow/passwords.json`` (mode 600).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import Any

from quire.settings import Settings

COMPONENTS: tuple[str, ...] = ("api-server", "scheduler", "dag-processor", "triggerer")
CELERY_WORKER = "celery-worker"
#: every component `quire up` may start (pid files are looked for under each name)
ALL_COMPONENTS: tuple[str, ...] = (*COMPONENTS, CELERY_WORKER)
EXECUTORS = {"local": "LocalExecutor", "celery": "CeleryExecutor"}
ADMIN_USER = "admin"
DEFAULT_PORT = 8080
HOST = "127.0.0.1"
REPO_ROOT = Path(__file__).resolve().parents[2]
STOP_TIMEOUT_SECONDS = 20.0


class AirflowRuntimeError(Exception):
    """Airflow's components could not be started, reached or stopped."""


@dataclass(frozen=True)
class RuntimePaths:
    """Where the runtime keeps its files, all under ``QUIRE_HOME``."""

    home: Path

    @property
    def airflow_home(self) -> Path:
        return self.home / "airflow"

    @property
    def run_dir(self) -> Path:
        return self.home / "run"

    @property
    def log_dir(self) -> Path:
        return self.airflow_home / "component-logs"

    @property
    def secrets_file(self) -> Path:
        return self.airflow_home / "quire-secrets.json"

    @property
    def passwords_file(self) -> Path:
        return self.airflow_home / "passwords.json"

    @property
    def state_file(self) -> Path:
        return self.run_dir / "airflow.json"

    @property
    def migrated_marker(self) -> Path:
        return self.airflow_home / ".migrated"

    def pid_file(self, component: str) -> Path:
        return self.run_dir / f"airflow-{component}.pid"

    @classmethod
    def for_settings(cls, settings: Settings) -> RuntimePaths:
        return cls(settings.home.expanduser().resolve())


def dags_folder() -> Path:
    return Path(os.environ.get("QUIRE_DAGS_FOLDER", REPO_ROOT / "dags")).resolve()


def plugins_folder() -> Path:
    return Path(os.environ.get("QUIRE_PLUGINS_FOLDER", REPO_ROOT / "plugins")).resolve()


def airflow_executable() -> str:
    """The ``airflow`` script of the running interpreter's environment."""
    candidate = Path(sys.executable).with_name("airflow")
    return str(candidate) if candidate.exists() else "airflow"


# ---------------------------------------------------------------- databases


def quire_database_url(settings: Settings) -> str:
    from quire.db.engine import QUIRE_DATABASE, resolve_database_url

    return resolve_database_url(settings, QUIRE_DATABASE)


def airflow_database_url(settings: Settings) -> str:
    """Airflow's metadata database on the same server as Quire's (see the module docstring)."""
    override = os.environ.get("QUIRE_AIRFLOW_DATABASE_URL")
    if override:
        return override
    from quire.db.engine import AIRFLOW_DATABASE, resolve_database_url

    if not settings.database_url:
        return resolve_database_url(settings, AIRFLOW_DATABASE)
    from sqlalchemy import make_url

    quire_url = make_url(settings.database_url)
    name = f"{quire_url.database or 'quire'}_airflow"
    ensure_database(settings.database_url, name)
    return quire_url.set(database=name).render_as_string(hide_password=False)


def ensure_database(server_url: str, name: str) -> None:
    """Create database ``name`` on the server of ``server_url`` unless it exists."""
    from sqlalchemy import create_engine, text

    from quire.db.engine import to_sqlalchemy_url

    admin = create_engine(to_sqlalchemy_url(server_url).set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            if not conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}).scalar():
                conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()


def airflow_sqlalchemy_urls(url: str) -> tuple[str, str]:
    """The sync (psycopg 3) and async (psycopg 3 async) URLs Airflow should use for ``url``."""
    from quire.db.engine import to_sqlalchemy_url

    sync = to_sqlalchemy_url(url)
    return (sync.render_as_string(hide_password=False),
            sync.set(drivername="postgresql+psycopg_async").render_as_string(hide_password=False))


# ---------------------------------------------------------------- secrets and environment


def load_secrets(paths: RuntimePaths) -> dict[str, str]:
    """Secrets shared by all components (JWT, Fernet, admin password), generated once."""
    paths.airflow_home.mkdir(parents=True, exist_ok=True)
    data: dict[str, str] = {}
    if paths.secrets_file.exists():
        data = json.loads(paths.secrets_file.read_text())
    wanted = {
        "jwt_secret": lambda: secrets.token_urlsafe(48),
        "api_secret_key": lambda: secrets.token_urlsafe(32),
        "fernet_key": lambda: base64.urlsafe_b64encode(os.urandom(32)).decode(),
        "admin_password": lambda: secrets.token_urlsafe(12),
    }
    changed = False
    for key, make in wanted.items():
        if not data.get(key):
            data[key] = make()
            changed = True
    if changed:
        _write_private(paths.secrets_file, json.dumps(data, indent=2))
    passwords = json.dumps({ADMIN_USER: data["admin_password"]})
    if not paths.passwords_file.exists() or paths.passwords_file.read_text() != passwords:
        _write_private(paths.passwords_file, passwords)
    return data


def _write_private(path: Path, content: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(content)
    os.replace(tmp, path)


#: task slots per core when ``QUIRE_TASK_SLOTS`` is 0. Measured (bench/throughput.py): a task instance spends
#: ~1-2 s waiting on orchestration (scheduler loop, heartbeats, process start) with its core idle; a second slot
#: per core runs another chunk's stage meanwhile. OCR runs one thread per process (OMP_THREAD_LIMIT=1).
SLOTS_PER_CORE = 2


def task_slots(settings: Settings) -> int:
    """Airflow's parallelism: ``QUIRE_TASK_SLOTS``, or ``SLOTS_PER_CORE`` per core when that is 0."""
    if settings.task_slots > 0:
        return settings.task_slots
    return SLOTS_PER_CORE * max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class RuntimeConfig:
    """What the components are started with."""

    port: int = DEFAULT_PORT
    #: task instances running at once; 0 = ``task_slots(settings)``
    parallelism: int = 0
    extra_env: Mapping[str, str] = field(default_factory=dict)
    #: "local" or "celery"; None takes ``Settings.executor`` (``QUIRE_EXECUTOR``)
    executor: str | None = None

    def resolved(self, settings: Settings, **changes: Any) -> RuntimeConfig:
        """This configuration with ``changes`` applied and what it leaves open (executor, slots) from settings."""
        config = replace(self, **changes)
        executor = config.executor or settings.executor
        if executor not in EXECUTORS:
            raise AirflowRuntimeError(f"unknown executor {executor!r}; choose one of {', '.join(EXECUTORS)}")
        return replace(config, executor=executor,
                       parallelism=config.parallelism if config.parallelism > 0 else task_slots(settings))


def components_for(config: RuntimeConfig) -> tuple[str, ...]:
    """The components an installation with ``config`` (executor resolved) runs."""
    return ALL_COMPONENTS if config.executor == "celery" else COMPONENTS


def celery_queue(airflow_db_url: str) -> str:
    """This installation's queue: task instances of another installation on the same broker are never taken."""
    return "quire-" + hashlib.sha256(_redact(airflow_db_url).encode()).hexdigest()[:12]


def build_env(settings: Settings, config: RuntimeConfig, *, quire_db_url: str, airflow_db_url: str,
              base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment every Airflow component (and so every task process) runs with."""
    config = config.resolved(settings)
    paths = RuntimePaths.for_settings(settings)
    data = load_secrets(paths)
    sync_url, async_url = airflow_sqlalchemy_urls(airflow_db_url)
    api_url = f"http://{HOST}:{config.port}"
    env = {k: v for k, v in (base if base is not None else os.environ).items() if not k.startswith("AIRFLOW__")}
    env.update({
        "AIRFLOW_HOME": str(paths.airflow_home),
        "AIRFLOW__CORE__DAGS_FOLDER": str(dags_folder()),
        "AIRFLOW__CORE__PLUGINS_FOLDER": str(plugins_folder()),
        "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
        "AIRFLOW__CORE__EXECUTOR": EXECUTORS[config.executor],
        "AIRFLOW__CORE__PARALLELISM": str(config.parallelism),
        "AIRFLOW__CORE__MAX_ACTIVE_TASKS_PER_DAG": str(config.parallelism * 4),
        "AIRFLOW__CORE__DAGS_ARE_PAUSED_AT_CREATION": "False",
        "AIRFLOW__CORE__FERNET_KEY": data["fernet_key"],
        "AIRFLOW__CORE__EXECUTION_API_SERVER_URL": f"{api_url}/execution/",
        "AIRFLOW__CORE__AUTH_MANAGER":
            "airflow.api_fastapi.auth.managers.simple.simple_auth_manager.SimpleAuthManager",
        "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS": f"{ADMIN_USER}:admin",
        "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_PASSWORDS_FILE": str(paths.passwords_file),
        "AIRFLOW__DATABASE__SQL_ALCHEMY_CONN": sync_url,
        "AIRFLOW__DATABASE__SQL_ALCHEMY_CONN_ASYNC": async_url,
        "AIRFLOW__API__HOST": HOST,
        "AIRFLOW__API__PORT": str(config.port),
        "AIRFLOW__API__BASE_URL": api_url,
        "AIRFLOW__API__SECRET_KEY": data["api_secret_key"],
        "AIRFLOW__API__WORKERS": "1",
        "AIRFLOW__API_AUTH__JWT_SECRET": data["jwt_secret"],
        # measured: the default 5 s makes ~half the task instances wait ~5 s after their process ends
        "AIRFLOW__WORKERS__MIN_HEARTBEAT_INTERVAL": "1",
        "AIRFLOW__SCHEDULER__SCHEDULER_HEARTBEAT_SEC": "2",
        "AIRFLOW__SCHEDULER__ENABLE_HEALTH_CHECK": "False",
        "AIRFLOW__TRIGGERER__JOB_HEARTBEAT_SEC": "2",
        "AIRFLOW__DAG_PROCESSOR__REFRESH_INTERVAL": "30",
        "AIRFLOW__DAG_PROCESSOR__MIN_FILE_PROCESS_INTERVAL": "30",
        "AIRFLOW__LOGGING__WORKER_LOG_SERVER_PORT": "0",
        "AIRFLOW__LOGGING__TRIGGER_LOG_SERVER_PORT": "0",
        # what the task processes need to reach Quire's own state without probing the embedded server
        "QUIRE_HOME": str(paths.home),
        "QUIRE_DATABASE_URL": quire_db_url,
        # measured: tesseract's OpenMP threads fight over 2 cores; one per process is faster
        "OMP_THREAD_LIMIT": "1",
        "PYTHONUNBUFFERED": "1",
    })
    if config.executor == "celery":
        queue = celery_queue(airflow_db_url)
        env.update({
            "AIRFLOW__CELERY__BROKER_URL": settings.celery_broker_url,
            "AIRFLOW__CELERY__RESULT_BACKEND": "db+" + sync_url,
            "AIRFLOW__CELERY__WORKER_CONCURRENCY": str(config.parallelism),
            "AIRFLOW__OPERATORS__DEFAULT_QUEUE": queue,
            # an OCR task holds its worker slot for seconds: prefetching more would starve the other workers
            "AIRFLOW__CELERY__WORKER_PREFETCH_MULTIPLIER": "1",
            "QUIRE_CELERY_QUEUE": queue,
        })
    env.update(config.extra_env)
    return env


LOCAL_SETTINGS = '''"""Generated by quire.airflow_runtime (rewritten by every `quire up`; edit that module instead).

Preloads Quire's stage code in the scheduler and the Celery worker. The
LocalExecutor's workers are forked from the scheduler (Celery's pool processes
from the worker) and fork a process per task instance, so each task then
starts with Quire already imported instead of paying ~1.5 s of imports
(numpy, PDFium, pdfplumber, SQLAlchemy models) per task instance, and with the
task decorators imported that parsing the DAG file needs. Modules only:
no engine or connection is created here, so nothing is shared across forks.
"""

import importlib
import logging
import os
import sys

PRELOADED = (
    "quire.pipeline", "quire.services", "quire.stages.publish",
    # what every task process imports when it parses the DAG file (~0.3 s each, measured)
    "airflow.providers.standard.decorators.python", "airflow.sdk.definitions.decorators",
)

if os.environ.get("QUIRE_PRELOAD", "1") == "1" and len(sys.argv) > 1 and sys.argv[1] in ("scheduler", "celery"):
    try:
        for module in PRELOADED:
            importlib.import_module(module)
    except Exception:  # noqa: BLE001 - a preload must never stop the scheduler
        logging.getLogger(__name__).warning("could not preload quire and the task decorators", exc_info=True)
'''


def write_local_settings(paths: RuntimePaths) -> Path:
    """``$AIRFLOW_HOME/config/airflow_local_settings.py`` (Airflow puts that folder on sys.path)."""
    target = paths.airflow_home / "config" / "airflow_local_settings.py"
    target.parent.mkdir(parents=True, exist_ok=True)
    if not target.exists() or target.read_text() != LOCAL_SETTINGS:
        target.write_text(LOCAL_SETTINGS)
    return target


# ---------------------------------------------------------------- processes


@dataclass(frozen=True)
class ComponentRecord:
    """What a pid file says about a component we started."""

    component: str
    pid: int
    pgid: int
    start_ticks: int
    argv: list[str]

    def to_json(self) -> str:
        return json.dumps({"component": self.component, "pid": self.pid, "pgid": self.pgid,
                           "start_ticks": self.start_ticks, "argv": self.argv})

    @classmethod
    def read(cls, path: Path) -> ComponentRecord | None:
        try:
            data = json.loads(path.read_text())
            return cls(data["component"], int(data["pid"]), int(data["pgid"]), int(data["start_ticks"]),
                       list(data["argv"]))
        except (OSError, ValueError, KeyError):
            return None


def _start_ticks(pid: int) -> int | None:
    """The process start time from /proc (guards against a reused pid)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()
    if fields[0] == "Z":
        return None
    return int(fields[19])


def is_alive(record: ComponentRecord) -> bool:
    return _start_ticks(record.pid) == record.start_ticks


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie leader we spawned ourselves counts as alive until reaped
    try:
        os.waitpid(pgid, os.WNOHANG)
    except ChildProcessError:
        pass
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return bool(live_group_members(pgid))


def live_group_members(pgid: int) -> set[int]:
    """Pids of the non-zombie processes in process group ``pgid`` (read from /proc)."""
    members = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            stat = (proc / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.add(int(proc.name))
    return members


def component_argv(component: str, config: RuntimeConfig, env: Mapping[str, str]) -> list[str]:
    airflow = airflow_executable()
    if component == "api-server":
        return [airflow, "api-server", "--host", HOST, "--port", str(config.port), "--workers", "1"]
    if component == CELERY_WORKER:
        # one worker node per installation and host; gossip and mingle only slow its start on one machine
        return [airflow, "celery", "worker", "--concurrency", str(config.parallelism), "--queues",
                env["QUIRE_CELERY_QUEUE"], "--celery-hostname", f"{env['QUIRE_CELERY_QUEUE']}@%h",
                "--skip-serve-logs", "--without-gossip", "--without-mingle"]
    if component in ("scheduler", "triggerer"):
        return [airflow, component, "--skip-serve-logs"]
    return [airflow, component]


def running_components(paths: RuntimePaths) -> dict[str, ComponentRecord]:
    """Components whose pid file names a live process we started."""
    found = {}
    for component in ALL_COMPONENTS:
        record = ComponentRecord.read(paths.pid_file(component))
        if record is not None and is_alive(record):
            found[component] = record
    return found


def spawn(component: str, argv: Sequence[str], env: Mapping[str, str], paths: RuntimePaths) -> ComponentRecord:
    paths.log_dir.mkdir(parents=True, exist_ok=True)
    paths.run_dir.mkdir(parents=True, exist_ok=True)
    with (paths.log_dir / f"{component}.log").open("ab") as log:
        proc = subprocess.Popen(list(argv), env=dict(env), stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, cwd=paths.airflow_home, start_new_session=True)
    ticks = _start_ticks(proc.pid)
    record = ComponentRecord(component, proc.pid, proc.pid, ticks or 0, list(argv))
    paths.pid_file(component).write_text(record.to_json())
    return record


def stop_group(record: ComponentRecord, timeout: float = STOP_TIMEOUT_SECONDS) -> str:
    """SIGTERM the component's process group, SIGKILL it after ``timeout``. Returns how it ended."""
    if not is_alive(record) and not _group_alive(record.pgid):
        return "not running"
    began = time.monotonic()
    try:
        os.killpg(record.pgid, signal.SIGTERM)
    except ProcessLookupError:
        return "not running"
    deadline = began + timeout
    while time.monotonic() < deadline:
        if not _group_alive(record.pgid):
            return f"stopped ({time.monotonic() - began:.1f} s)"
        time.sleep(0.2)
    try:
        os.killpg(record.pgid, signal.SIGKILL)
    except ProcessLookupError:
        return f"stopped ({time.monotonic() - began:.1f} s)"
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and _group_alive(record.pgid):
        time.sleep(0.1)
    return f"killed after {timeout:.0f} s"


# ---------------------------------------------------------------- up / down


@dataclass
class UpResult:
    url: str
    user: str
    password: str
    started: list[str]
    reused: list[str]
    migrated: bool
    env: dict[str, str]
    parallelism: int

    @property
    def started_anything(self) -> bool:
        return bool(self.started)


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((HOST, port))
        except OSError:
            return False
    return True


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def read_state(paths: RuntimePaths) -> dict[str, Any]:
    try:
        return json.loads(paths.state_file.read_text())
    except (OSError, ValueError):
        return {}


def migrate_if_needed(env: Mapping[str, str], paths: RuntimePaths, airflow_db_url: str) -> bool:
    """``airflow db migrate`` unless this Airflow version already migrated this database."""
    marker = json.dumps({"airflow": metadata.version("apache-airflow"), "db": _redact(airflow_db_url)})
    if paths.migrated_marker.exists() and paths.migrated_marker.read_text() == marker \
            and _has_airflow_schema(airflow_db_url):
        return False
    result = subprocess.run([airflow_executable(), "db", "migrate"], env=dict(env), capture_output=True,
                            text=True, cwd=paths.airflow_home)
    if result.returncode != 0:
        raise AirflowRuntimeError(f"airflow db migrate failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    paths.migrated_marker.write_text(marker)
    return True


def _redact(url: str) -> str:
    from sqlalchemy import make_url

    return make_url(url).render_as_string(hide_password=True)


def _has_airflow_schema(url: str) -> bool:
    from sqlalchemy import create_engine, text

    from quire.db.engine import to_sqlalchemy_url

    engine = create_engine(to_sqlalchemy_url(url))
    try:
        with engine.connect() as conn:
            return conn.execute(text("SELECT to_regclass('public.alembic_version') IS NOT NULL "
                                     "AND to_regclass('public.dag_run') IS NOT NULL")).scalar()
    except Exception:  # noqa: BLE001 - unreachable or missing: migrate will say what is wrong
        return False
    finally:
        engine.dispose()


def up(settings: Settings, config: RuntimeConfig | None = None, *, wait_timeout: float = 120.0,
       components: Iterable[str] | None = None) -> UpResult:
    """Start whatever of the components (default: all the executor needs) is not running yet; reuse what is."""
    paths = RuntimePaths.for_settings(settings)
    paths.run_dir.mkdir(parents=True, exist_ok=True)
    paths.run_dir.chmod(0o700)  # it doubles as XDG_RUNTIME_DIR for the embedded server, which wants 0700
    running = running_components(paths)
    state = read_state(paths)
    config = (config or RuntimeConfig()).resolved(settings)
    if running and state.get("port"):
        # the running components were configured this way: keep it
        config = config.resolved(settings, port=int(state["port"]),
                                 parallelism=int(state.get("parallelism", config.parallelism)),
                                 executor=state.get("executor", "local"))
    elif config.port <= 0 or not port_is_free(config.port):
        config = config.resolved(settings, port=free_port())
    quire_db_url = quire_database_url(settings)
    airflow_db_url = airflow_database_url(settings)
    env = build_env(settings, config, quire_db_url=quire_db_url, airflow_db_url=airflow_db_url)

    # Quire's own schema first: task processes build their context without migrating
    from quire.db.engine import get_engine
    from quire.db.migrate import upgrade
    upgrade(get_engine(settings))

    write_local_settings(paths)
    migrated = migrate_if_needed(env, paths, airflow_db_url)
    started, reused = [], []
    for component in components_for(config) if components is None else components:
        if component in running:
            reused.append(component)
            continue
        spawn(component, component_argv(component, config, env), env, paths)
        started.append(component)
    _write_state(paths, {"port": config.port, "parallelism": config.parallelism, "executor": config.executor,
                         "url": f"http://{HOST}:{config.port}", "started_at": time.time()})
    url = f"http://{HOST}:{config.port}"
    wait_until_healthy(url, paths, timeout=wait_timeout)
    return UpResult(url=url, user=ADMIN_USER, password=load_secrets(paths)["admin_password"], started=started,
                    reused=reused, migrated=migrated, env=env, parallelism=config.parallelism)


def _write_state(paths: RuntimePaths, data: dict[str, Any]) -> None:
    paths.state_file.write_text(json.dumps(data, indent=2))


def down(settings: Settings, *, timeout: float = STOP_TIMEOUT_SECONDS,
         components: Iterable[str] | None = None) -> dict[str, str]:
    """Stop the components whose pid files we wrote; returns component -> how it ended."""
    paths = RuntimePaths.for_settings(settings)
    wanted = list(components) if components is not None else list(ALL_COMPONENTS)
    outcome: dict[str, str] = {}
    # scheduler first so no new task processes start, api-server last so running tasks can report
    for component in ("scheduler", CELERY_WORKER, "triggerer", "dag-processor", "api-server"):
        if component not in wanted:
            continue
        pid_file = paths.pid_file(component)
        record = ComponentRecord.read(pid_file)
        if record is None:
            if component in COMPONENTS:  # a worker that was never started is not worth a line
                outcome[component] = "not running"
            continue
        outcome[component] = stop_group(record, timeout) if (is_alive(record) or _group_alive(record.pgid)) \
            else "not running"
        pid_file.unlink(missing_ok=True)
    if not running_components(paths):
        paths.state_file.unlink(missing_ok=True)
    return outcome


def wait_until_healthy(url: str, paths: RuntimePaths, timeout: float = 120.0) -> dict[str, Any]:
    """Wait until the api-server answers and the scheduler reports healthy."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        dead = [c for c in ALL_COMPONENTS if (r := ComponentRecord.read(paths.pid_file(c))) and not is_alive(r)]
        if dead:
            raise AirflowRuntimeError(f"{', '.join(dead)} exited; see {paths.log_dir}/<component>.log")
        try:
            with urllib.request.urlopen(f"{url}/api/v2/monitor/health", timeout=5) as response:
                last = json.loads(response.read())
            if last.get("scheduler", {}).get("status") == "healthy" and \
                    last.get("metadatabase", {}).get("status") == "healthy":
                return last
        except (urllib.error.URLError, OSError, ValueError) as exc:
            last = exc
        time.sleep(0.5)
    raise AirflowRuntimeError(f"Airflow at {url} not healthy after {timeout:.0f} s (last: {last}); "
                              f"see {paths.log_dir}")


# ---------------------------------------------------------------- REST API


class AirflowClient:
    """The few REST calls Quire needs (``/api/v2``), authenticated as the generated admin."""

    def __init__(self, url: str, user: str, password: str):
        self.url = url.rstrip("/")
        self.user = user
        self.password = password
        self._token: str | None = None

    @classmethod
    def for_settings(cls, settings: Settings) -> AirflowClient:
        paths = RuntimePaths.for_settings(settings)
        state = read_state(paths)
        if not state.get("url"):
            raise AirflowRuntimeError("Airflow is not running here (no state file); run `quire up`")
        return cls(state["url"], ADMIN_USER, load_secrets(paths)["admin_password"])

    def _login(self) -> str:
        body = json.dumps({"username": self.user, "password": self.password}).encode()
        request = urllib.request.Request(f"{self.url}/auth/token", data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())["access_token"]

    def request(self, method: str, path: str, body: Any = None, query: Mapping[str, Any] | None = None) -> Any:
        if self._token is None:
            self._token = self._login()
        url = f"{self.url}/api/v2{path}"
        if query:
            url += "?" + urllib.parse.urlencode(query, doseq=True)
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(url, data=data, method=method, headers={
            "Authorization": f"Bearer {self._token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                payload = response.read()
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode(errors="replace")[:2000]
            raise AirflowRuntimeError(f"{method} {path}: HTTP {exc.code}: {detail}") from exc
        return json.loads(payload) if payload else None

    def get_dag(self, dag_id: str) -> dict[str, Any]:
        return self.request("GET", f"/dags/{dag_id}")

    def wait_for_dag(self, dag_id: str, timeout: float = 120.0) -> dict[str, Any]:
        """Wait until the dag-processor has parsed ``dag_id`` into the database."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self.get_dag(dag_id)
            except AirflowRuntimeError as exc:
                if "HTTP 404" not in str(exc) or time.monotonic() > deadline:
                    raise
            time.sleep(1)

    def unpause(self, dag_id: str) -> None:
        self.request("PATCH", f"/dags/{dag_id}", {"is_paused": False})

    def trigger(self, dag_id: str, conf: Mapping[str, Any] | None = None, run_id: str | None = None) -> dict:
        body: dict[str, Any] = {"logical_date": None, "conf": dict(conf or {})}
        if run_id:
            body["dag_run_id"] = run_id
        return self.request("POST", f"/dags/{dag_id}/dagRuns", body)

    def dag_runs(self, dag_id: str, states: Sequence[str] | None = None, limit: int = 100) -> list[dict]:
        query: dict[str, Any] = {"limit": limit, "order_by": "-run_after"}
        if states:
            query["state"] = list(states)
        return self.request("GET", f"/dags/{dag_id}/dagRuns", query=query)["dag_runs"]

    def dag_run(self, dag_id: str, run_id: str) -> dict[str, Any]:
        return self.request("GET", f"/dags/{dag_id}/dagRuns/{urllib.parse.quote(run_id, safe='')}")

    def task_instances(self, dag_id: str, run_id: str) -> list[dict]:
        path = f"/dags/{dag_id}/dagRuns/{urllib.parse.quote(run_id, safe='')}/taskInstances"
        return self.request("GET", path, query={"limit": 1000})["task_instances"]


# ---------------------------------------------------------------- quire run --until-idle

DOCUMENT_DAG_ID = "document_pipeline"
ACTIVE_RUN_STATES = ("queued", "running")


@dataclass
class RunSummary:
    """What `quire run --until-idle` did and where the documents ended."""

    idle: bool
    seconds: float
    runs: list[dict[str, Any]]
    states: dict[str, int]
    started_components: list[str]
    url: str
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"idle": self.idle, "seconds": round(self.seconds, 1), "runs": self.runs,
                "states": {k: v for k, v in self.states.items() if v}, "url": self.url,
                "started_components": self.started_components, "message": self.message}

    def text(self) -> str:
        triggered = sum(1 for r in self.runs if r["triggered_here"])
        lines = [f"{'idle' if self.idle else 'NOT idle'} after {self.seconds:.0f} s; "
                 f"{len(self.runs)} document_pipeline run(s), {triggered} triggered here"]
        for run in self.runs:
            lines.append(f"  {run['run_id']}: {run['state']}")
        lines.append("documents: " + ", ".join(f"{n} {s}" for s, n in self.states.items() if n) or "none")
        if self.message:
            lines.append(self.message)
        return "\n".join(lines)


def _progress(message: str, enabled: bool) -> None:
    if enabled:
        print(message, file=sys.stderr, flush=True)


def run_until_idle(settings: Settings, *, timeout: float = 3600.0, keep_running: bool = False,
                   document_ids: Sequence[str] | None = None, chunk_size: int = 0, progress: bool = True,
                   config: RuntimeConfig | None = None, poll_seconds: float = 2.0) -> RunSummary:
    """Process everything pending through the real DAG, then return (stopping what was started here).

    Starts the components unless they run, unpauses document_pipeline, and
    triggers a run whenever documents are unfinished and none of our runs is
    active. Stops when nothing is unfinished and no run is active; gives up
    (not idle) when two runs in a row changed nothing (documents leased by a
    run that died keep their lease until it expires) or at ``timeout``.
    """
    from quire.context import build_context
    from quire.services import resolve_document_ids, state_counts, unfinished_count

    began = time.monotonic()
    result = up(settings, config)
    started = result.started
    runs: list[dict[str, Any]] = []
    message = ""
    idle = False
    try:
        _progress(f"Airflow at {result.url} ({', '.join(started) or 'already running'} started here)", progress)
        ctx = build_context(settings)
        ids = resolve_document_ids(ctx, list(document_ids)) if document_ids else None
        client = AirflowClient(result.url, result.user, result.password)
        client.wait_for_dag(DOCUMENT_DAG_ID)
        client.unpause(DOCUMENT_DAG_ID)
        fruitless = 0
        last_counts: dict[str, int] | None = None
        conf: dict[str, Any] = {"chunk_size": chunk_size, **({"document_ids": ids} if ids else {})}
        while True:
            active = client.dag_runs(DOCUMENT_DAG_ID, states=ACTIVE_RUN_STATES)
            known = {r["run_id"] for r in runs}
            runs.extend({"run_id": r["dag_run_id"], "state": r["state"], "triggered_here": False}
                        for r in active if r["dag_run_id"] not in known)
            unfinished = _unfinished(ctx, ids) if ids else unfinished_count(ctx)
            counts = state_counts(ctx)
            for run in runs:
                if run["state"] in ACTIVE_RUN_STATES:
                    run["state"] = client.dag_run(DOCUMENT_DAG_ID, run["run_id"])["state"]
            if not active:
                if unfinished == 0:
                    idle = True
                    break
                if any(r["triggered_here"] for r in runs) and last_counts == counts:
                    fruitless += 1
                    if fruitless >= 2:
                        message = (f"{unfinished} document(s) unfinished but two runs changed nothing: they are "
                                   "probably leased by a run that ended abnormally (the lease expires after "
                                   f"{settings.lease_seconds} s) - see `quire status`")
                        break
                else:
                    fruitless = 0
                last_counts = counts
                run = client.trigger(DOCUMENT_DAG_ID, conf)
                runs.append({"run_id": run["dag_run_id"], "state": run.get("state", "queued"),
                             "triggered_here": True})
                _progress(f"triggered {run['dag_run_id']} for {unfinished} unfinished document(s)", progress)
            else:
                _progress(_progress_line(counts, active), progress)
            if time.monotonic() - began > timeout:
                message = f"gave up after {timeout:.0f} s"
                break
            time.sleep(poll_seconds)
        counts = state_counts(ctx)
    finally:
        if started and not keep_running:
            down(settings, components=started)
    return RunSummary(idle=idle, seconds=time.monotonic() - began, runs=runs, states=counts,
                      started_components=started, url=result.url, message=message)


def _unfinished(ctx, ids: Sequence[str]) -> int:
    from quire.services import UNFINISHED, document_detail

    wanted = {s.value for s in UNFINISHED}
    return sum(1 for i in ids if document_detail(ctx, i)["state"] in wanted)


def _progress_line(counts: Mapping[str, int], active: Sequence[dict]) -> str:
    shown = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    return f"{len(active)} run(s) active; documents: {shown}"

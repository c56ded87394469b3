"""The environment `quire up` gives the Airflow components, per executor (no process is started)."""

from __future__ import annotations

import pytest

from quire import airflow_runtime as rt
from quire.settings import Settings

QUIRE_DB = "postgresql://postgres@127.0.0.1:5432/quire_a"


def _env(tmp_path, airflow_db: str, **settings) -> dict[str, str]:
    return rt.build_env(Settings(home=tmp_path, **settings), rt.RuntimeConfig(port=8793, parallelism=3),
                        quire_db_url=QUIRE_DB, airflow_db_url=airflow_db, base={})


def test_local_executor_is_the_default_and_runs_no_worker(tmp_path):
    env = _env(tmp_path, "postgresql://postgres@127.0.0.1:5432/quire_a_airflow")
    assert env["AIRFLOW__CORE__EXECUTOR"] == "LocalExecutor"
    assert not any(k.startswith("AIRFLOW__CELERY__") for k in env)
    assert rt.components_for(rt.RuntimeConfig().resolved(Settings(home=tmp_path))) == rt.COMPONENTS


def test_celery_executor_gets_broker_db_results_and_a_queue_of_its_own(tmp_path):
    a = _env(tmp_path, "postgresql://postgres@127.0.0.1:5432/quire_a_airflow", executor="celery",
             celery_broker_url="redis://127.0.0.1:6379/3")
    b = _env(tmp_path, "postgresql://postgres@127.0.0.1:5432/quire_b_airflow", executor="celery")
    assert a["AIRFLOW__CORE__EXECUTOR"] == "CeleryExecutor"
    assert a["AIRFLOW__CELERY__BROKER_URL"] == "redis://127.0.0.1:6379/3"
    assert a["AIRFLOW__CELERY__RESULT_BACKEND"] == "db+postgresql+psycopg://postgres@127.0.0.1:5432/quire_a_airflow"
    assert a["AIRFLOW__CELERY__WORKER_CONCURRENCY"] == "3"
    # two installations on one broker never share a queue; the same one always gets the same queue
    assert a["AIRFLOW__OPERATORS__DEFAULT_QUEUE"] != b["AIRFLOW__OPERATORS__DEFAULT_QUEUE"]
    assert a["AIRFLOW__OPERATORS__DEFAULT_QUEUE"] == rt.celery_queue("postgresql://postgres@127.0.0.1:5432/quire_a_airflow")

    config = rt.RuntimeConfig(port=8793, parallelism=3).resolved(Settings(home=tmp_path, executor="celery"))
    assert rt.components_for(config) == (*rt.COMPONENTS, rt.CELERY_WORKER)
    argv = rt.component_argv(rt.CELERY_WORKER, config, a)
    assert argv[1:3] == ["celery", "worker"]
    assert argv[argv.index("--queues") + 1] == a["AIRFLOW__OPERATORS__DEFAULT_QUEUE"]
    assert argv[argv.index("--concurrency") + 1] == "3"


def test_an_explicit_executor_wins_over_the_setting_and_unknown_ones_are_refused(tmp_path):
    settings = Settings(home=tmp_path, executor="celery")
    assert rt.RuntimeConfig(executor="local").resolved(settings).executor == "local"
    assert rt.RuntimeConfig().resolved(settings).executor == "celery"
    with pytest.raises(rt.AirflowRuntimeError, match="unknown executor 'kubernetes'"):
        rt.RuntimeConfig(executor="kubernetes").resolved(settings)

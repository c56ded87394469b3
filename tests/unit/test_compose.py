"""docker-compose.yaml parses and names what Quire needs (no Docker engine runs here to start it)."""

from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]


def test_compose_file_parses_and_runs_the_airflow_components_on_postgres():
    compose = yaml.safe_load((REPO / "docker-compose.yaml").read_text())
    services = compose["services"]
    assert {"postgres", "airflow-init", "api-server", "scheduler", "dag-processor", "triggerer"} <= set(services)
    for name in ("api-server", "scheduler", "dag-processor", "triggerer", "worker"):
        environment = services[name]["environment"]
        assert environment["QUIRE_DATABASE_URL"].startswith("postgresql://")
        assert environment["AIRFLOW__DATABASE__SQL_ALCHEMY_CONN"].startswith("postgresql")
        assert "./dags:/opt/airflow/dags" in services[name]["volumes"]
    assert services["api-server"]["ports"] == ["127.0.0.1:8080:8080"]
    # scale-out: the CeleryExecutor on Redis, with a worker service that `--scale worker=N` multiplies
    environment = services["worker"]["environment"]
    assert environment["AIRFLOW__CORE__EXECUTOR"] == "CeleryExecutor"
    assert environment["AIRFLOW__CELERY__BROKER_URL"].startswith("redis://redis:")
    assert services["worker"]["command"][:2] == ["celery", "worker"]
    assert "redis" in services["worker"]["depends_on"]
    for mount in services["postgres"]["volumes"]:
        source = mount.split(":")[0]
        if source.startswith("./"):
            assert (REPO / source).exists(), source

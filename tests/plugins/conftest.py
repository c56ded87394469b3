"""The Quire UI plugin's app, mounted the way Airflow's api-server mounts it, with Airflow's own auth.

Tokens are real simple-auth-manager JWTs, signed with a test secret; Airflow
checks each token's id against its ``revoked_token`` table, so that table is
created in whatever metadata database this process's Airflow is configured with
(a private SQLite file under a temporary AIRFLOW_HOME when no other test
configured one). Quire's side is the real PostgreSQL test database (``ctx``).
"""

from __future__ import annotations

import os
import sys
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
PLUGINS = REPO_ROOT / "plugins"
JWT_SECRET = "quire-ui-tests-" + uuid.uuid4().hex + uuid.uuid4().hex

if str(PLUGINS) not in sys.path:
    sys.path.insert(0, str(PLUGINS))  # what Airflow does for its plugins folder

if "airflow" not in sys.modules and "AIRFLOW_HOME" not in os.environ:
    _home = Path(tempfile.mkdtemp(prefix="quire-ui-airflow-"))
    os.environ["AIRFLOW_HOME"] = str(_home)
    os.environ.setdefault("AIRFLOW__DATABASE__SQL_ALCHEMY_CONN", f"sqlite:///{_home / 'airflow.db'}")
os.environ.setdefault("AIRFLOW__CORE__LOAD_EXAMPLES", "False")


@pytest.fixture(scope="session")
def airflow_auth():
    """Airflow's simple auth manager, initialised, able to sign and check tokens."""
    from airflow import settings as airflow_settings
    from airflow.configuration import conf

    conf.set("core", "auth_manager",
             "airflow.api_fastapi.auth.managers.simple.simple_auth_manager.SimpleAuthManager")
    conf.set("api_auth", "jwt_secret", JWT_SECRET)
    conf.set("core", "simple_auth_manager_users", "admin:admin,viewer:viewer")
    if airflow_settings.engine is None:
        airflow_settings.configure_orm()
    from airflow.models.revoked_token import RevokedToken

    RevokedToken.__table__.create(airflow_settings.engine, checkfirst=True)
    from airflow.api_fastapi.app import create_auth_manager

    manager = create_auth_manager()
    manager.init()
    return manager


@pytest.fixture(scope="session")
def tokens(airflow_auth) -> dict[str, str]:
    from airflow.api_fastapi.auth.managers.simple.user import SimpleAuthManagerUser

    return {role: airflow_auth.generate_jwt(SimpleAuthManagerUser(username=f"{role}-user", role=role))
            for role in ("admin", "op", "user", "viewer")}


@dataclass
class FakeAirflow:
    """Stands in for Airflow's clearTaskInstances: records calls, returns what a real clear would."""

    cleared: list = field(default_factory=list)
    calls: list[tuple[str, str]] = field(default_factory=list)
    error: Exception | None = None

    def clear_failed(self, dag_id: str, run_id: str):
        self.calls.append((dag_id, run_id))
        if self.error is not None:
            raise self.error
        return list(self.cleared)


@dataclass
class UI:
    client: object
    ctx: object
    tokens: dict[str, str]
    airflow: FakeAirflow

    def headers(self, role: str = "admin", **extra: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[role]}", **extra}

    def get(self, path: str, role: str | None = "admin", **kwargs):
        headers = kwargs.pop("headers", {})
        if role:
            headers = {**self.headers(role), **headers}
        return self.client.get(path, headers=headers, **kwargs)

    def post(self, path: str, role: str | None = "admin", **kwargs):
        headers = kwargs.pop("headers", {})
        if role:
            headers = {**self.headers(role), **headers}
        return self.client.post(path, headers=headers, follow_redirects=False, **kwargs)


@pytest.fixture
def ui(ctx, airflow_auth, tokens) -> UI:
    """The plugin app under ``/quire`` of a root app holding Airflow's auth manager, as in the api-server."""
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from quire_ui.app import PREFIX, create_app

    fake = FakeAirflow()
    root = FastAPI()
    root.state.auth_manager = airflow_auth
    root.mount(PREFIX, create_app(context_factory=lambda: ctx, airflow_factory=lambda request: fake))
    with TestClient(root, base_url="http://testserver") as client:
        yield UI(client, ctx, tokens, fake)

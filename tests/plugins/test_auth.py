"""Every page and action needs an Airflow user; actions need permission to edit DAG runs."""

import pytest

from tests.integration.factories import make_document
from quire.states import State

READ_PATHS = ["/quire/", "/quire/documents", "/quire/api/documents", "/quire/documents/{id}",
              "/quire/api/documents/{id}", "/quire/documents/{id}/pages/1.png", "/quire/operations",
              "/quire/metrics"]
ACTIONS = ["resume", "reprocess", "release", "approve"]


@pytest.mark.parametrize("path", READ_PATHS)
def test_pages_answer_401_without_a_token(ui, path):
    doc = make_document(ui.ctx, "a.pdf")
    response = ui.get(path.format(id=doc), role=None)
    assert response.status_code == 401


@pytest.mark.parametrize("action", ACTIONS)
def test_actions_answer_401_without_a_token_and_change_nothing(ui, action):
    doc = make_document(ui.ctx, "a.pdf", state=State.FAILED)
    response = ui.post(f"/quire/documents/{doc}/{action}", role=None, data={"request_id": "r" * 12})
    assert response.status_code == 401
    assert ui.get(f"/quire/api/documents/{doc}").json()["state"] == "FAILED"


def test_a_forged_token_is_refused(ui):
    response = ui.client.get("/quire/documents", headers={"Authorization": "Bearer not.a.jwt"})
    assert response.status_code in (401, 403)


def test_the_ui_cookie_authenticates_like_a_bearer_token(ui):
    ui.client.cookies.set("_token", ui.tokens["viewer"])
    try:
        assert ui.client.get("/quire/documents").status_code == 200
    finally:
        ui.client.cookies.clear()


def test_a_browser_without_login_gets_a_sign_in_page(ui):
    response = ui.get("/quire/documents", role=None, headers={"Accept": "text/html"})
    assert response.status_code == 401
    assert "Sign in" in response.text and "/auth/login/" in response.text


def test_a_viewer_reads_but_cannot_act(ui):
    doc = make_document(ui.ctx, "a.pdf", state=State.FAILED)
    page = ui.get(f"/quire/documents/{doc}", role="viewer")
    assert page.status_code == 200
    assert 'id="resume"' not in page.text and "need permission to edit DAG runs" in page.text
    for action in ACTIONS:
        response = ui.post(f"/quire/documents/{doc}/{action}", role="viewer", data={"request_id": "v" * 12})
        assert response.status_code == 403, action
    assert ui.get(f"/quire/api/documents/{doc}").json()["state"] == "FAILED"
    assert ui.airflow.calls == []


def test_a_user_allowed_to_edit_dag_runs_may_act(ui):
    doc = make_document(ui.ctx, "a.pdf", state=State.FAILED)
    page = ui.get(f"/quire/documents/{doc}", role="user")
    assert 'id="resume"' in page.text
    response = ui.post(f"/quire/documents/{doc}/resume", role="user", data={"request_id": "u" * 12})
    assert response.status_code == 303


def test_a_cross_site_form_post_is_refused(ui):
    doc = make_document(ui.ctx, "a.pdf", state=State.FAILED)
    response = ui.post(f"/quire/documents/{doc}/resume", data={"request_id": "x" * 12},
                       headers={"Origin": "https://evil.example"})
    assert response.status_code == 403

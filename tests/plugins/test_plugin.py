"""The plugin as Airflow's plugin manager and UI read it."""


def test_plugin_registers_the_app_and_a_nav_view():
    from airflow.api_fastapi.core_api.datamodels.plugins import ExternalViewResponse, FastAPIAppResponse
    from fastapi import FastAPI

    from quire_ui import QuireUIPlugin

    [app] = QuireUIPlugin.fastapi_apps
    assert isinstance(app["app"], FastAPI) and app["url_prefix"] == "/quire"
    FastAPIAppResponse.model_validate({**app, "app": "quire_ui.app"})
    views = [ExternalViewResponse.model_validate(v) for v in QuireUIPlugin.external_views]
    documents = next(v for v in views if v.name == "Documents")
    assert documents.destination == "nav" and documents.href == "/quire/documents"
    assert documents.url_route == "quire-documents"


def test_the_nav_icons_are_served(ui):
    for icon in ("documents.svg", "gauge.svg"):
        response = ui.client.get(f"/quire/static/{icon}")
        assert response.status_code == 200 and "<svg" in response.text

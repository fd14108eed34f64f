"""The optional token: over a real server, every way in without it is refused and it never leaks."""

from __future__ import annotations

import logging
import socket

import httpx
import pytest

from tests.conftest import episode as episode_cli
from tests.conftest import example, serving
from watercolour_env import WatercolourAction, WatercolourEnv
from watercolour_env.errors import ConfigError

pytestmark = pytest.mark.server

TOKEN = "wc-test-7f3a9c1e5b2d"
SKETCH = example("hibiscus.js")


@pytest.fixture(scope="module")
def token_server():
    """A real server that requires TOKEN; yields (url, records) with every log record it wrote."""
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    records: list[logging.LogRecord] = []
    handler = logging.Handler(level=logging.DEBUG)
    handler.emit = records.append  # type: ignore[method-assign]
    root = logging.getLogger()
    root.addHandler(handler)
    previous = root.level
    root.setLevel(logging.DEBUG)
    try:
        app = build_app(load_settings(render_workers=1, render_deadline_s=10, api_token=TOKEN))
        with serving(app) as url:
            yield url, records
        app.state.renderer.close()
    finally:
        root.removeHandler(handler)
        root.setLevel(previous)


def episode(url: str, **client_args) -> float | None:
    with WatercolourEnv(base_url=url, message_timeout_s=60, **client_args).sync() as env:
        env.reset(seed=3)
        return env.step(WatercolourAction(reply=f"```js\n{SKETCH}\n```")).reward


def test_health_and_the_description_routes_stay_open(token_server):
    url, _ = token_server
    assert httpx.get(f"{url}/health").status_code == 200
    assert httpx.get(f"{url}/schema").status_code == 200


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"}, {"X-Watercolour-Token": TOKEN[:-1]}],
    ids=["none", "wrong", "not-bearer", "truncated"],
)
def test_compute_routes_refuse_without_the_token(token_server, headers):
    url, _ = token_server
    for method, path in [("POST", "/reset"), ("POST", "/step"), ("GET", "/state")]:
        response = httpx.request(method, f"{url}{path}", headers=headers, json={})
        assert response.status_code == 401, (method, path)
        assert response.headers["www-authenticate"] == "Bearer"
        assert "WATERCOLOUR_API_TOKEN" in response.json()["detail"]
        assert TOKEN not in response.text


@pytest.mark.parametrize("token", ["", "wrong"], ids=["none", "wrong"])
def test_the_websocket_refuses_a_missing_or_wrong_token(token_server, token, monkeypatch):
    url, _ = token_server
    monkeypatch.delenv("WATERCOLOUR_API_TOKEN", raising=False)
    with pytest.raises(ConnectionError, match="HTTP 401"):
        episode(url, token=token)


def test_the_token_opens_the_websocket_as_bearer_as_header_and_from_the_environment(token_server, monkeypatch):
    url, _ = token_server
    assert episode(url, token=TOKEN) is not None
    # a private Space's HF token holds Authorization: ours goes in its own header
    assert episode(url, token=TOKEN, headers={"Authorization": "Bearer hf_not_ours"}) is not None
    monkeypatch.setenv("WATERCOLOUR_API_TOKEN", TOKEN)
    assert episode(url) is not None


def test_the_token_never_reaches_a_log_an_error_or_an_observation(token_server, monkeypatch):
    url, records = token_server
    monkeypatch.delenv("WATERCOLOUR_API_TOKEN", raising=False)
    with WatercolourEnv(base_url=url, message_timeout_s=60, token=TOKEN).sync() as env:
        reset = env.reset(seed=4)
        result = env.step(WatercolourAction(reply=f"```js\n{SKETCH}\n```"))
    with pytest.raises(ConnectionError) as refused:
        episode(url, token=TOKEN + "x")
    assert TOKEN not in reset.observation.model_dump_json() and TOKEN not in result.observation.model_dump_json()
    assert TOKEN not in str(refused.value)
    logged = [r.getMessage() + " " + str(r.args) for r in records]
    assert any("no valid token" in line for line in logged)  # the refusal is logged, without the token
    assert not [line for line in logged if TOKEN in line]
    assert not [line for line in logged if "without completing handshake" in line]
    assert httpx.post(f"{url}/reset?token={TOKEN}").status_code == 401  # a token in the URL is refused


def test_uvicorns_access_log_keeps_no_query_string(token_server):
    # the tests' server logs no access lines, so the filter is checked on uvicorn's own record shape
    access = logging.getLogger("uvicorn.access")
    record = access.makeRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "POST", f"/reset?token={TOKEN}", "1.1", 401),
        None,
    )
    assert all(f.filter(record) for f in access.filters)
    assert TOKEN not in record.getMessage() and "/reset?[query redacted]" in record.getMessage()


@pytest.mark.parametrize("value", ["", "   ", " padded", "tab\tin"], ids=["empty", "blank", "padded", "control"])
def test_an_unusable_token_refuses_to_start(value):
    from watercolour_env.server.settings import load_settings

    with pytest.raises(ConfigError, match="WATERCOLOUR_API_TOKEN"):
        load_settings(api_token=value)


def test_the_settings_never_show_the_token():
    from watercolour_env.server.settings import load_settings

    settings = load_settings(api_token=TOKEN)
    assert TOKEN not in repr(settings) and TOKEN not in str(settings.model_dump())


def test_the_trainer_and_the_cli_say_which_token_to_set(token_server, monkeypatch):
    from watercolour_trainer.episodes.rewards import EnvironmentReward

    url, _ = token_server
    monkeypatch.setenv("WATERCOLOUR_API_TOKEN", "wrong")
    with pytest.raises(ConfigError, match="refused this client's token .HTTP 401.: set WATERCOLOUR_API_TOKEN"):
        EnvironmentReward(url, 4).check_configuration()
    finished = episode_cli(url)
    assert finished.returncode == 2 and "set WATERCOLOUR_API_TOKEN" in finished.stderr
    assert "Traceback" not in finished.stderr and "wrong" not in finished.stderr
    monkeypatch.setenv("WATERCOLOUR_API_TOKEN", TOKEN)
    EnvironmentReward(url, 4).check_configuration()
    assert episode_cli(url).returncode == 0


def test_no_server_is_one_line_too(monkeypatch):
    from watercolour_trainer.episodes.rewards import EnvironmentReward

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}"  # nothing listens here once closed
    with pytest.raises(ConfigError, match="no environment server answered at"):
        EnvironmentReward(url, 4).check_configuration()
    finished = episode_cli(url)
    assert finished.returncode == 2 and "no environment server answered" in finished.stderr
    assert "Traceback" not in finished.stderr


def test_the_pool_route_needs_the_token_and_the_audit_sends_it(token_server, monkeypatch):
    import httpx

    from watercolour_env.audit.run import audit

    url, _records = token_server
    assert httpx.get(url + "/pool", timeout=60).status_code == 401
    monkeypatch.setenv("WATERCOLOUR_API_TOKEN", TOKEN)
    report, rows = audit(url, only=("subject swap",))  # the token from the environment, as the client reads it
    assert report["subjects"] == ["a hibiscus", "a jellyfish", "a songbird on a branch"]
    assert "references" not in report and "subject_tier_rewards" not in report
    assert [(r.family, r.refused, r.sent) for r in rows] == [("subject swap", 2, 2)]

"""`watercolour deploy` for real: huggingface_hub's calls against a local server that answers the
Hub's routes (the Hub cannot be reached here), and a Hub that does not answer."""

from __future__ import annotations

import base64
import json
import socket

import pytest
import yaml
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from tests.conftest import REPO, serving
from tests.watercolour_env.deploy.conftest import SECRET, deploy, stderr_of, tracked


@pytest.mark.cli
def test_without_a_token_a_real_deploy_stops_before_any_call(tmp_path):
    result = deploy("env", "--space", "me/x", env={"HF_HOME": str(tmp_path), "HF_HUB_OFFLINE": "0"})
    assert result.returncode == 2
    assert "no Hugging Face token" in result.stderr and "create_repo" not in result.stdout


@pytest.fixture
def hub():
    """A local server answering the Hub routes `deploy` uses, recording each request."""
    seen: list[tuple[str, str, object]] = []
    app = FastAPI()

    @app.post("/api/repos/create")
    async def create(request: Request):
        body = await request.json()
        seen.append(("create", body["name"], body))
        return {"url": f"https://huggingface.co/spaces/{body['organization']}/{body['name']}"}

    @app.post("/api/spaces/{owner}/{name}/variables")
    async def variable(owner: str, name: str, request: Request):
        body = await request.json()
        seen.append(("variable", f"{owner}/{name}", body))
        return {body["key"]: {"value": body["value"], "updatedAt": "2026-12-02T00:00:00.000Z"}}

    @app.post("/api/spaces/{owner}/{name}/secrets")
    async def secret(owner: str, name: str, request: Request):
        seen.append(("secret", f"{owner}/{name}", await request.json()))
        return {}

    @app.post("/api/spaces/{owner}/{name}/hardware")
    async def hardware(owner: str, name: str, request: Request):
        body = await request.json()
        seen.append(("hardware", f"{owner}/{name}", body))
        return {
            "stage": "BUILDING",
            "hardware": {"current": None, "requested": body["flavor"]},
            "sleepTime": body.get("sleepTimeSeconds"),
            "storage": None,
        }

    @app.post("/api/validate-yaml")
    async def validate_yaml(request: Request):
        body = await request.json()
        card = yaml.safe_load(body["content"].split("---")[1])
        seen.append(("card", body["repoType"], card))
        if body["repoType"] == "space" and card.get("sdk") not in ("docker", "gradio", "static"):
            return JSONResponse({"errors": [{"message": '"sdk" is required'}]}, status_code=400)
        return {"errors": [], "warnings": []}

    @app.post("/api/spaces/{owner}/{name}/preupload/{revision}")
    async def preupload(owner: str, name: str, revision: str, request: Request):
        body = await request.json()
        return {"files": [{"path": f["path"], "uploadMode": "regular", "shouldIgnore": False} for f in body["files"]]}

    @app.post("/api/spaces/{owner}/{name}/commit/{revision}")
    async def commit(owner: str, name: str, revision: str, request: Request):
        lines = [json.loads(line) for line in (await request.body()).decode().splitlines() if line.strip()]
        files = {x["value"]["path"]: base64.b64decode(x["value"]["content"]) for x in lines if x["key"] == "file"}
        seen.append(("commit", f"{owner}/{name}", files))
        return {
            "commitUrl": f"https://huggingface.co/spaces/{owner}/{name}/commit/{'0' * 40}",
            "commitOid": "0" * 40,
            "success": True,
        }

    with serving(app) as url:
        yield url, seen


@pytest.mark.cli
def test_a_real_deploy_makes_the_calls_of_its_dry_run_on_the_hub(hub, tmp_path):
    url, seen = hub
    env = {
        "HF_ENDPOINT": url,
        "HF_TOKEN": "hf_writer_token",
        "HF_HUB_OFFLINE": "0",
        "HF_HOME": str(tmp_path),
        "HPSV3_API_TOKEN": SECRET,
    }
    result = deploy("hpsv3", "--space", "me/hps", env=env)
    assert result.returncode == 0, result.stderr
    kinds = [(kind, repo) for kind, repo, _ in seen]
    assert kinds == [
        ("create", "hps"),
        ("secret", "me/hps"),
        ("hardware", "me/hps"),
        ("card", "space"),
        ("commit", "me/hps"),
    ]
    assert seen[3][2]["sdk"] == "docker" and seen[3][2]["app_port"] == 7860
    assert seen[0][2]["type"] == "space" and seen[0][2]["sdk"] == "docker"
    assert seen[1][2] == {"key": "HPSV3_API_TOKEN", "value": SECRET}  # the real value reaches the Hub ...
    assert SECRET not in result.stdout + result.stderr  # ... and is never shown
    assert seen[2][2] == {"flavor": "l4x1", "sleepTimeSeconds": 3600}
    files = seen[4][2]
    assert files["Dockerfile"] == (REPO / "docker/hpsv3.Dockerfile").read_bytes()
    assert set(files) == tracked("scorers/hpsv3_space") | {"Dockerfile", "README.md"}


@pytest.mark.cli
def test_a_hub_that_does_not_answer_is_one_line_saying_how_far_it_got(tmp_path):
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        free_port = s.getsockname()[1]
    env = {
        "HF_ENDPOINT": f"http://127.0.0.1:{free_port}",
        "HF_TOKEN": "hf_writer_token",
        "HF_HUB_OFFLINE": "0",
        "HF_HOME": str(tmp_path),
        "HPSV3_API_TOKEN": SECRET,
    }
    result = deploy("hpsv3", "--space", "me/hps", env=env)
    assert result.returncode == 2, result.stderr
    assert "the Hub did not answer create_repo for me/hps" in result.stderr
    assert "0 of 4 calls were made" in result.stderr and len(stderr_of(result)) == 1

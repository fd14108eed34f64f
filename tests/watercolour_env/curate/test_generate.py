"""Generation against a local server that speaks the OpenAI chat-completions protocol."""

import time

import pytest
from fastapi import FastAPI, Request
from openai import OpenAI

from tests.conftest import example, serving
from watercolour_env.curate.generate import Generator
from watercolour_env.pool import read_manifest

pytestmark = pytest.mark.browser

CRITIQUE = "Darken the throat and let the outer wash bleed further."


def scripted_endpoint(requests: list[dict]) -> FastAPI:
    """Painter 'good' answers with a sketch (revised once critiqued), 'bad' with prose; the critic critiques."""
    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def chat(request: Request) -> dict:
        body = await request.json()
        requests.append(body)
        last = body["messages"][-1]["content"]
        if body["model"] == "critic":
            text = CRITIQUE
        elif body["model"] == "bad":
            text = "I would love to paint a hibiscus, but I cannot draw."
        elif isinstance(last, str) and "teacher" in last:
            text = "```js\n" + example("rich.js") + "\n```"
        else:
            text = "Here you go:\n```js\n" + example("hibiscus.js") + "\n```"
        return {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }

    return app


@pytest.fixture()
def endpoint():
    requests: list[dict] = []
    with serving(scripted_endpoint(requests)) as url:
        yield f"{url}/v1", requests


def test_candidates_are_gated_rendered_critiqued_and_revised(endpoint, renderer, tmp_path):
    url, requests = endpoint
    client = OpenAI(base_url=url, api_key="test-token", max_retries=0)
    candidates = Generator(client, renderer, tmp_path, critic_model="critic").run(
        ["good", "bad"], "a peach hibiscus", per_model=1, rounds=2
    )
    by_id = {c.id: c for c in candidates}
    assert sorted(by_id) == ["bad-01-r1", "good-01-r1", "good-01-r2"]
    assert by_id["bad-01-r1"].violations == ["no_sketch"] and not by_id["bad-01-r1"].passed
    assert by_id["good-01-r1"].passed and by_id["good-01-r1"].critique == CRITIQUE
    assert by_id["good-01-r2"].passed  # the revision (rich.js) rendered too

    critic_calls = [r for r in requests if r["model"] == "critic"]
    assert len(critic_calls) == 1
    image_part = critic_calls[0]["messages"][0]["content"][0]
    assert image_part["image_url"]["url"].startswith("data:image/png;base64,")
    revision_call = [r for r in requests if r["model"] == "good"][1]
    assert CRITIQUE in revision_call["messages"][-1]["content"]
    assert revision_call["messages"][0]["role"] == "system"

    rows = read_manifest(tmp_path)
    assert [r.id for r in rows] == ["good-01-r1", "good-01-r2"] and all(r.tier is None for r in rows)
    assert (tmp_path / "images" / "good-01-r2.png").is_file()
    assert len((tmp_path / "candidates.jsonl").read_text().splitlines()) == 3


def test_painters_are_prompted_with_the_folders_subject_and_hint(endpoint, renderer, tmp_path):
    url, requests = endpoint
    hint = "Paint each bell two or three times: a large wash first, then a smaller one inside."
    (tmp_path / "pool.toml").write_text(f'subject = "a jellyfish"\nhint = "{hint}"\n')
    client = OpenAI(base_url=url, api_key="test-token", max_retries=0)
    Generator(client, renderer, tmp_path).run(["good"], "a jellyfish", per_model=1)
    (system, user) = requests[0]["messages"]
    assert f"- {hint}\n" in system["content"] and "petal" not in system["content"]
    assert user["content"].startswith("Paint a jellyfish")
    assert [r.subject for r in read_manifest(tmp_path)] == ["a jellyfish"]

"""Helpers of the reward tests: the starter pool, a candidate painting, a scripted judge that
speaks the OpenAI chat protocol, and a reply that passed the gate."""

import asyncio
import base64
import functools
import time

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from watercolour_env.pool import STARTER_POOL, Pool, Tier


@functools.cache
def starter_pool() -> Pool:
    """The starter pool, loaded once, when a test first asks for it."""
    return Pool.load(str(STARTER_POOL))


def candidate_png() -> bytes:
    """The painting the judge tests score: the pool's first "nope"."""
    return starter_pool().tier(Tier.NOPE)[0].png


def reply(text: str, model: str) -> dict:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}],
    }


def scripted_judge(calls: list[str]) -> FastAPI:
    app = FastAPI()
    candidate_url = "data:image/png;base64," + base64.b64encode(candidate_png()).decode()
    in_flight = [0]

    @app.post("/v1/chat/completions")
    async def chat(request: Request):
        body = await request.json()
        model = body["model"]
        calls.append(model)
        first_image = body["messages"][0]["content"][0]["image_url"]["url"]
        candidate_letter = "A" if first_image == candidate_url else "B"
        schema = body.get("response_format", {}).get("json_schema", {}).get("schema")
        if model == "counts-in-flight":  # records how many requests it holds at once
            in_flight[0] += 1
            calls.append(f"in-flight {in_flight[0]}")
            await asyncio.sleep(0.3)
            in_flight[0] -= 1
            return reply(f'{{"winner": "{candidate_letter}", "reason": "ok"}}', model)
        if model == "rejects-everything":  # a bad request, with the format or without it
            return JSONResponse({"error": {"message": "image too large"}}, status_code=400)
        if model == "refuses-candidate-first" and schema is not None and candidate_letter == "A":
            calls.append("refused")  # one kind of request is refused with the format; the rest answered
            return JSONResponse({"error": {"message": "context too long"}}, status_code=400)
        if model == "refuses-candidate-first":
            return reply(f'{{"winner": "{candidate_letter}", "reason": "ok"}}', model)
        if model == "refuses-structured" and schema is not None:
            calls.append("refused")
            return JSONResponse({"error": {"message": "response_format is not supported"}}, status_code=400)
        if model == "needs-structured":  # answers in the schema only when it was asked for
            if schema is None or list(schema["properties"]) != ["winner", "reason"]:
                return reply("The first one, because", model)
            return reply(f'{{"winner": "{candidate_letter}", "reason": "constrained"}}', model)
        if model == "prefers-candidate":
            return reply(f'{{"winner": "{candidate_letter}", "reason": "richer washes"}}', model)
        if model == "prefers-reference":
            other = "B" if candidate_letter == "A" else "A"
            return reply(f'```json\n{{"winner": "{other}", "reason": "a real flower"}}\n```', model)
        if model == "position-bias":
            return reply('{"winner": "A", "reason": "the first one"}', model)
        if model == "malformed":
            return reply("Both are lovely, I could not choose.", model)
        if model == "flaky" and calls.count("flaky") % 2 == 1:
            return JSONResponse({"error": {"message": "overloaded"}}, status_code=503)
        if model == "flaky":
            return reply(f'{{"winner": "{candidate_letter}", "reason": "ok"}}', model)
        if model == "slow":
            time.sleep(3)
        return reply('{"winner": "A"}', model)

    return app


def passed_gate():
    from watercolour_env.server.gate import GateResult, check_source
    from watercolour_env.server.sandbox import RenderResult, RenderStatus

    source = check_source((STARTER_POOL / "sketches" / "bloom-01.js").read_text())
    render = RenderResult(RenderStatus.OK, png=candidate_png(), paint_fraction=0.1, finished=True)
    return GateResult(True, [], source.sketch, source.inventory, render)

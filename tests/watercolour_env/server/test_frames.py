"""Bad input over the real websocket: a clear error frame each time, and the session goes on."""

from __future__ import annotations

import json

import pytest
from websockets.sync.client import connect

from tests.conftest import example

pytestmark = [pytest.mark.server, pytest.mark.browser]

REPLY = f"```js\n{example('hibiscus.js')}\n```"
RESET = {"type": "reset", "data": {"seed": 1}}
STEP = {"type": "step", "data": {"reply": REPLY}}


def ask(ws, frame) -> dict:
    ws.send(frame if isinstance(frame, (str, bytes)) else json.dumps(frame))
    return json.loads(ws.recv(timeout=60))


def still_usable(ws) -> None:
    """A full episode on the same socket after the bad frame."""
    assert ask(ws, RESET)["data"]["observation"]["status"] == "ready"
    assert ask(ws, STEP)["data"]["observation"]["status"] == "scored"


BAD_FRAMES = {
    "binary": (b"\xff\xfe\x00", "INVALID_JSON", "binary frames are not accepted"),
    "not json": ("{nope", "INVALID_JSON", "Invalid JSON"),
    "json array": ("[1, 2]", "VALIDATION_ERROR", "a JSON object with type and data, not list"),
    "json string": ('"hi"', "VALIDATION_ERROR", "not str"),
    "unknown type": ({"type": "dance"}, "UNKNOWN_TYPE", "Unknown message type: dance"),
    # found by a red-team helper: each closed the session before the guard caught it
    "nesting 100,000 deep": ("[" * 100_000 + "]" * 100_000, "INVALID_JSON", "RecursionError"),
    "an integer of 5,000 digits": ('{"type": "reset", "data": {"seed": ' + "9" * 5000 + "}}", "INVALID_JSON", "digits"),
    "a lone surrogate as data": ('{"type": "reset", "data": "\\ud800"}', "VALIDATION_ERROR", "lone surrogate"),
    "a lone surrogate in a reply beside an unknown field": (
        '{"type": "step", "data": {"reply": "\\ud800", "extra": 1}}',
        "VALIDATION_ERROR",
        "lone surrogate",
    ),
    "a lone surrogate as a key": ('{"type": "reset", "data": {"\\ud800": 1}}', "VALIDATION_ERROR", "lone surrogate"),
    "frame over the limit": (
        json.dumps({"type": "step", "data": {"reply": "a" * 700_000}}),
        "VALIDATION_ERROR",
        "over this server's limit of 589824",  # 2 x 262144 + 65536
    ),
}


@pytest.mark.parametrize("frame, code, message", BAD_FRAMES.values(), ids=BAD_FRAMES.keys())
def test_a_bad_frame_gets_an_error_frame_and_the_session_lives(server_url, frame, code, message):
    with connect(server_url.replace("http", "ws") + "/ws", max_size=None) as ws:
        answer = ask(ws, frame)
        assert answer["type"] == "error" and answer["data"]["code"] == code
        assert message in answer["data"]["message"]
        still_usable(ws)


BAD_RESETS = {
    "seed negative": ({"seed": -5}, "seed must be an integer in [0, 4294967295]"),
    "seed too big": ({"seed": 2**32}, "seed must be an integer"),
    "seed text": ({"seed": "abc"}, "seed must be an integer"),
    "seed bool": ({"seed": True}, "seed must be an integer"),
    "subject number": ({"subject": 5}, "subject must be a non-empty string"),
    "subject blank": ({"subject": "   "}, "subject must be a non-empty string"),
    "subject too long": ({"subject": "x" * 201}, "at most 200 printable characters (201 given)"),
    "subject control": ({"subject": "a\nhibiscus"}, "printable"),
    "return_image text": ({"return_image": "yes"}, "return_image must be true or false"),
    "unknown option": ({"bogus": 1}, "unknown reset option(s) bogus; reset takes seed"),
    "episode_id too long": ({"episode_id": "e" * 256}, "episode_id must be a string of at most 255"),
    "weights unknown": ({"weights": "no-such-preset"}, "no-such-preset"),
    "references zero": ({"references": 0}, "references must be an integer in [1, 32]"),
    "references too many": ({"references": 33}, "references must be an integer in [1, 32]"),
    "references text": ({"references": "4"}, "references must be an integer"),
    "references bool": ({"references": True}, "references must be an integer"),
}


@pytest.mark.parametrize("data, message", BAD_RESETS.values(), ids=BAD_RESETS.keys())
def test_a_reset_option_out_of_range_is_named_and_the_session_lives(server_url, data, message):
    with connect(server_url.replace("http", "ws") + "/ws", max_size=None) as ws:
        answer = ask(ws, {"type": "reset", "data": data})
        assert answer["type"] == "error" and message in answer["data"]["message"]
        still_usable(ws)


def test_the_edges_of_the_ranges_are_accepted(server_url):
    with connect(server_url.replace("http", "ws") + "/ws", max_size=None) as ws:
        edges = (
            {"seed": 0},
            {"seed": 2**32 - 1},
            {"subject": "a hibiscus " + "x" * 189},
            {"seed": None, "subject": None},
            {"references": 1},
            {"references": 32},
            {"references": None},
        )
        for data in edges:
            assert ask(ws, {"type": "reset", "data": data})["data"]["observation"]["status"] == "ready", data
        assert ask(ws, {"type": "reset", "data": {"seed": 2**32 - 1}})["data"]["observation"]["seed"] == 2**32 - 1


BAD_STEPS = {
    "reply a number": ({"reply": 5}, "Invalid message"),
    "reply missing": ({}, "Invalid message"),
    "unknown field": ({"reply": "x", "extra": 1}, "Invalid message"),
    "data not an object": ("x", "Invalid message"),
}


@pytest.mark.parametrize("data, message", BAD_STEPS.values(), ids=BAD_STEPS.keys())
def test_a_bad_step_is_named_and_the_episode_stays_open(server_url, data, message):
    with connect(server_url.replace("http", "ws") + "/ws", max_size=None) as ws:
        assert ask(ws, RESET)["data"]["observation"]["status"] == "ready"
        answer = ask(ws, {"type": "step", "data": data})
        assert answer["type"] == "error" and message in answer["data"]["message"]
        assert ask(ws, STEP)["data"]["observation"]["status"] == "scored"  # the same episode, still open


def test_step_before_reset_and_a_second_step_are_named(server_url):
    with connect(server_url.replace("http", "ws") + "/ws", max_size=None) as ws:
        assert "call reset before step" in ask(ws, STEP)["data"]["message"]
        still_usable(ws)
        assert "the episode is over; call reset" in ask(ws, STEP)["data"]["message"]
        still_usable(ws)


def test_a_reply_at_the_limit_is_judged_and_one_byte_over_is_the_gates_refusal(server_url):
    padded = REPLY + "\n" + "x" * (262_144 - len(REPLY.encode()) - 1)  # prose after the block
    assert len(padded.encode()) == 262_144
    with connect(server_url.replace("http", "ws") + "/ws", max_size=None) as ws:
        ask(ws, RESET)
        assert ask(ws, {"type": "step", "data": {"reply": padded}})["data"]["observation"]["status"] == "scored"
        ask(ws, RESET)
        over = ask(ws, {"type": "step", "data": {"reply": padded + "x"}})["data"]
        assert (over["observation"]["status"], over["observation"]["violations"]) == ("rejected", ["reply_too_long"])
        assert over["reward"] == 0.0 and over["done"] is True  # the policy's fault: a reward, never None


def test_http_bodies_are_bounded_and_bad_http_requests_are_4xx_not_500(server_url):
    import httpx

    with httpx.Client(base_url=server_url, timeout=60) as http:
        big = http.post(
            "/reset", content=b'{"episode_id": "' + b"a" * 700_000 + b'"}', headers={"content-type": "application/json"}
        )
        assert big.status_code == 413 and "589824" in big.json()["detail"] and len(big.content) < 200
        step = http.post("/step", json={"action": {"reply": "x"}})  # HTTP step: a fresh env each time
        assert step.status_code == 400 and "call reset before step" in step.json()["detail"]
        assert "/ws" in step.json()["detail"]
        surrogate = http.post("/reset", content=b'{"seed": "\\ud800"}', headers={"content-type": "application/json"})
        assert surrogate.status_code in (400, 422) and len(surrogate.content) < 2000
        assert http.post("/reset", json={"seed": 3}).status_code == 200  # the connection still serves


def test_a_subject_the_pool_does_not_cover_is_refused_naming_the_pools_subjects(server_url):
    with connect(server_url.replace("http", "ws") + "/ws", max_size=None) as ws:
        answer = ask(ws, {"type": "reset", "data": {"subject": "a blue whale"}})
        assert answer["type"] == "error"
        message = answer["data"]["message"]
        assert 'covers ("a hibiscus", "a jellyfish", "a songbird on a branch"), not "a blue whale"' in message
        assert "WATERCOLOUR_POOL" in message
        covered = ask(ws, {"type": "reset", "data": {"subject": "a peach hibiscus"}})
        assert covered["data"]["observation"]["status"] == "ready"
        # with the embedded scorer not weighed, nothing judges against the pool: any subject
        unweighed = {"subject": "a blue whale", "weights": {"gate": 0.5, "length": 0.5}}
        free = ask(ws, {"type": "reset", "data": unweighed})
        assert free["data"]["observation"]["subject"] == "a blue whale"

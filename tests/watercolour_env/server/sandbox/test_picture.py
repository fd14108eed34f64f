"""The report's text on the server side: valid Unicode, bounded, whatever the frame sent."""

import json

from watercolour_env.server.sandbox.picture import MAX_ERROR_CHARS, MAX_ERRORS, RenderStatus, clean_text, read_report


def test_a_lone_surrogate_becomes_the_replacement_character_and_a_whole_emoji_stays():
    half = "\ud83c"  # the first half of 🌺, as "🌺".slice(0, 1) makes it in JavaScript
    assert clean_text(f"petal {half} done") == "petal \ufffd done"
    assert clean_text("a 🌺 b") == "a 🌺 b"
    assert clean_text(f"{half}\udf3a") == "\ufffd\ufffd"  # a pair left apart by Python is two halves


def test_long_text_is_cut_to_the_limit_and_marked():
    cut = clean_text("x" * 5000, max_chars=2000)
    assert len(cut) == 2000 and cut == "x" * 1999 + "…"
    assert clean_text("short", max_chars=2000) == "short"


def test_a_report_of_huge_unencodable_errors_comes_out_bounded_and_encodable():
    payload = {
        "reason": "error",
        "guard": "on",
        "png": None,
        "errors": ["Error: " + "\ud800" * 3_000_000] * 50,
        "violations": [{"kind": "brush_argument", "name": "brush.fill \udc00" + "y" * 500}],
    }
    status, fields = read_report(payload, enforce=True)
    assert status is RenderStatus.SKETCH_ERROR
    assert len(fields["js_errors"]) == MAX_ERRORS == 20
    assert all(len(e) == MAX_ERROR_CHARS for e in fields["js_errors"])
    assert fields["violations"] == [("brush_argument", "brush.fill \ufffd" + "y" * 67 + "…")]  # 80 characters
    json.dumps(fields["js_errors"], ensure_ascii=False).encode("utf-8")  # raises on a lone surrogate


def test_errors_that_are_not_a_list_are_none():
    status, fields = read_report({"reason": "error", "guard": "on", "errors": "x" * 10_000}, enforce=True)
    assert status is RenderStatus.SKETCH_ERROR and fields["js_errors"] == []

"""Episodes with revisions (issue 37): 1 + K paintings, a critique between them, one reward at the end."""

import ast
import re

import pytest

from tests.conftest import REPO, example, serving, starter_terms
from watercolour_env import EpisodeStatus, WatercolourAction
from watercolour_env.errors import InvalidOption, WatercolourError
from watercolour_env.pool import STARTER_POOL, Pool
from watercolour_env.server.copies import CopyGuard
from watercolour_env.server.reward.rubric import Rubric, RubricWeights
from watercolour_env.server.sandbox import Renderer
from watercolour_env.server.watercolour_environment import WatercolourEnvironment

GOOD, BARE = example("hibiscus.js"), example("bare_primitives.js")


def environment(renderer, **kwargs):
    return WatercolourEnvironment(renderer, Rubric(RubricWeights(), starter_terms()), **kwargs)


def one_step_reward(renderer, reply, seed):
    env = environment(renderer)
    env.reset(seed=seed)
    return env.step(WatercolourAction(reply=reply)).reward


@pytest.mark.browser
def test_each_painting_but_the_last_gets_a_critique_and_the_last_the_reward(renderer):
    env = environment(renderer)
    assert env.reset(seed=5, revisions=2, return_image=True).turn == 0
    first = env.step(WatercolourAction(reply=GOOD))
    assert (first.status, first.done, first.reward, first.turn) == (EpisodeStatus.REVISE, False, None, 1)
    assert first.reward_components == [] and first.image_png_b64  # the picture, never the score
    assert first.critique.startswith("The paint covers ") and "The palette is mostly " in first.critique
    second = env.step(WatercolourAction(reply=BARE))
    assert (second.status, second.done, second.turn) == (EpisodeStatus.REVISE, False, 2)
    assert second.critique.startswith("The gate refused this reply: it draws with p5's own shapes")
    third = env.step(WatercolourAction(reply=GOOD))
    assert (third.status, third.done, third.turn) == (EpisodeStatus.SCORED, True, 3)
    assert third.reward == one_step_reward(renderer, GOOD, seed=5)  # the last painting's, as if sent alone
    assert third.image_png_b64 == first.image_png_b64  # one seed for every turn
    with pytest.raises(WatercolourError, match="the episode is over"):
        env.step(WatercolourAction(reply=GOOD))


@pytest.mark.browser
def test_the_reward_is_the_last_paintings_or_the_best(renderer):
    last = environment(renderer)
    last.reset(seed=5, revisions=1)
    last.step(WatercolourAction(reply=GOOD))
    ending = last.step(WatercolourAction(reply=BARE))
    assert (ending.status, ending.reward) == (EpisodeStatus.REJECTED, 0.0)
    best = environment(renderer)
    best.reset(seed=5, revisions=1, revision_reward="best")
    assert best.step(WatercolourAction(reply=GOOD)).reward is None  # scored, but not told
    ending = best.step(WatercolourAction(reply=BARE))
    assert (ending.status, ending.reward) == (EpisodeStatus.SCORED, one_step_reward(renderer, GOOD, seed=5))
    assert ending.detail.startswith("the reward is painting 1's, the best of 2; ")
    assert {c.name for c in ending.reward_components if c.weight} == {"gate", "length", "embedded"}


@pytest.mark.browser
def test_a_painting_sent_as_final_ends_the_episode_early_and_is_judged_as_the_last(renderer):
    env = environment(renderer)
    start = env.reset(seed=5, revisions=2)
    assert "may paint it up to 2 more times; your last painting is the one judged." in start.prompt
    env.step(WatercolourAction(reply=BARE))
    ending = env.step(WatercolourAction(reply=GOOD, final=True))
    assert (ending.status, ending.done, ending.turn) == (EpisodeStatus.SCORED, True, 2)
    assert ending.reward == one_step_reward(renderer, GOOD, seed=5)
    with pytest.raises(WatercolourError, match="the episode is over"):
        env.step(WatercolourAction(reply=GOOD))
    single = environment(renderer)  # without revisions the one painting is the last anyway
    assert "critique" not in single.reset(seed=5).prompt
    assert single.step(WatercolourAction(reply=GOOD, final=True)).reward == ending.reward


@pytest.mark.browser
def test_an_infrastructure_failure_at_any_turn_leaves_the_episode_unscored():
    dead = Renderer(workers=1)
    dead.start()
    dead.close()
    env = environment(dead)
    env.reset(seed=1, revisions=2)
    first = env.step(WatercolourAction(reply=GOOD))
    assert (first.status, first.done, first.reward) == (EpisodeStatus.INFRA_ERROR, True, None)
    with pytest.raises(WatercolourError, match="the episode is over"):
        env.step(WatercolourAction(reply=GOOD))


def test_revisions_are_bounded_by_the_option_and_by_the_server():
    env = environment(Renderer(workers=1), max_revisions=2)
    with pytest.raises(
        InvalidOption, match=r"^revisions=3: this server allows at most 2 \(WATERCOLOUR_MAX_REVISIONS\)"
    ):
        env.reset(revisions=3)
    with pytest.raises(InvalidOption, match=r"^revisions must be an integer in \[0, 8\], not '9'"):
        env.reset(revisions=9)
    with pytest.raises(InvalidOption, match='^revision_reward must be "last" or "best", not \'mean\''):
        env.reset(revision_reward="mean")
    assert env.reset(revisions=2).status is EpisodeStatus.READY


@pytest.mark.browser
def test_a_copy_between_revisions_is_named_as_a_copy_but_not_which_painting(renderer):
    pool = Pool.load(str(STARTER_POOL))
    env = environment(renderer, copy_guard=CopyGuard(pool))
    env.reset(seed=0, revisions=1)
    observation = env.step(WatercolourAction(reply=f"```js\n{pool.references[0].sketch}\n```"))
    assert [v.value for v in observation.violations] == ["copied_reference"]
    assert observation.detail == "copied_reference"
    assert observation.critique.startswith("The gate refused this reply: it reproduces an existing painting")
    assert not any(reference.id in observation.critique for reference in pool.rated)
    ending = env.step(WatercolourAction(reply=GOOD))  # an honest last painting cannot undo the copy
    assert (ending.status, ending.reward, ending.judged_turn) == (EpisodeStatus.REJECTED, 0.0, 2)
    assert ending.detail == "an earlier painting of this episode copied a painting of the pool"
    assert ending.reward_components == []


@pytest.mark.browser
def test_a_copy_as_the_last_painting_fails_the_episode_when_the_best_pays_too(renderer):
    """The red team's case (issue 56): with the best painting paying, a copy as the last one was
    paid the first painting's reward (0.896), probing the guard for free."""
    pool = Pool.load(str(STARTER_POOL))
    env = environment(renderer, copy_guard=CopyGuard(pool))
    env.reset(seed=0, revisions=1, revision_reward="best")
    env.step(WatercolourAction(reply=GOOD))
    ending = env.step(WatercolourAction(reply=f"```js\n{pool.references[0].sketch}\n```"))
    assert (ending.status, ending.reward, ending.judged_turn) == (EpisodeStatus.REJECTED, 0.0, 2)
    assert [v.value for v in ending.violations] == ["copied_reference"]


@pytest.mark.browser
def test_a_copy_fails_the_episode_even_when_a_later_painting_cannot_be_rendered():
    """The copy is the sketch's fault and already known: a later infrastructure failure (here the
    renderer closed under the episode) must not turn its failure reward into None."""
    pool = Pool.load(str(STARTER_POOL))
    renderer = Renderer(workers=1)
    env = environment(renderer, copy_guard=CopyGuard(pool))
    env.reset(seed=0, revisions=2, revision_reward="best")
    env.step(WatercolourAction(reply=f"```js\n{pool.references[0].sketch}\n```"))
    renderer.close()
    ending = env.step(WatercolourAction(reply=GOOD))
    assert (ending.status, ending.reward, ending.done) == (EpisodeStatus.REJECTED, 0.0, True)
    assert ending.detail == "an earlier painting of this episode copied a painting of the pool"


@pytest.mark.browser
def test_the_last_observation_names_the_painting_it_judged(renderer):
    last = environment(renderer)
    last.reset(seed=5, revisions=1)
    assert last.step(WatercolourAction(reply=GOOD)).judged_turn is None  # not over yet
    assert last.step(WatercolourAction(reply=BARE)).judged_turn == 2
    best = environment(renderer)
    best.reset(seed=5, revisions=2, revision_reward="best")
    best.step(WatercolourAction(reply=BARE))
    best.step(WatercolourAction(reply=GOOD))
    assert best.step(WatercolourAction(reply=BARE)).judged_turn == 2  # the one that scored, not the last


FORBIDDEN = re.compile(r"score|reward|refer|pool|tier|\blove|okay|nope|judge|hps|embedded|weight|bloom|rank", re.I)


@pytest.mark.browser
def test_the_critique_never_speaks_of_the_pool_or_the_score(renderer):
    """Sketches across the starter pool's tiers and the gate's refusals, each in a 1-revision episode."""
    pool = Pool.load(str(STARTER_POOL))
    replies = [reference.sketch for reference in pool.references[::6]] + [BARE, "no code here", GOOD]
    env = environment(renderer)
    for reply in replies:
        env.reset(seed=3, revisions=1)
        critique = env.step(WatercolourAction(reply=f"```js\n{reply}\n```")).critique
        assert critique and not FORBIDDEN.search(critique), critique
        assert not re.search(r"\d\.\d", critique), critique  # no decimal number: shares are whole percentages


def test_the_critique_reads_the_gate_only_never_the_reward_or_the_pool():
    tree = ast.parse((REPO / "envs/watercolour_env/server/critique.py").read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert imported == {
        "__future__",
        "io",
        "re",
        "numpy",
        "PIL",
        "watercolour_env.server.gate",
        "watercolour_env.server.sandbox.picture",
        "watercolour_env.terms",
    }


@pytest.mark.browser
@pytest.mark.server
def test_a_client_plays_a_multi_turn_episode_over_the_websocket_until_done():
    from watercolour_env import WatercolourEnv
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    app = build_app(load_settings(render_workers=1))
    try:
        with serving(app) as url, WatercolourEnv(base_url=url, token="").sync() as env:
            result = env.reset(seed=5, revisions=2)
            turns = []
            while not result.done:
                result = env.step(WatercolourAction(reply=GOOD if len(turns) != 1 else BARE))
                turns.append((result.observation.status.value, result.reward, bool(result.observation.critique)))
    finally:
        app.state.renderer.close()
    assert [t[:2] for t in turns[:2]] == [("revise", None), ("revise", None)] and all(t[2] for t in turns)
    assert turns[2][0] == "scored" and turns[2][1] > 0.5


@pytest.mark.browser
@pytest.mark.server
@pytest.mark.cli
def test_the_episode_command_paints_several_replies_as_one_episode_with_revisions(tmp_path):
    import json
    import subprocess

    from tests.conftest import WATERCOLOUR
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    (tmp_path / "good.js").write_text(GOOD)
    (tmp_path / "bare.js").write_text(BARE)
    replies = [str(tmp_path / name) for name in ("bare.js", "good.js")]
    out = ["--out", str(tmp_path / "last.png")]
    app = build_app(load_settings(render_workers=1))
    try:
        with serving(app) as url:
            done = subprocess.run(
                [WATERCOLOUR, "episode", *replies, "--env-url", url, "--seed", "5", *out],
                capture_output=True,
                text=True,
            )
    finally:
        app.state.renderer.close()
    assert done.returncode == 0, done.stderr
    first, last = json.loads(done.stdout)
    assert (first["status"], first["reward"], first["turn"]) == ("revise", None, 1)
    assert first["critique"].startswith("The gate refused this reply: it draws with p5's own shapes")
    assert (last["status"], last["turn"], last["image"]) == ("scored", 2, str(tmp_path / "last.png"))
    assert last["reward"] > 0.5 and (tmp_path / "last.png").stat().st_size > 10_000


def test_a_picture_that_cannot_be_read_is_said_so_not_a_server_error():
    from watercolour_env.server.critique import critique
    from watercolour_env.server.gate import GateResult
    from watercolour_env.server.sandbox import RenderResult, RenderStatus
    from watercolour_env.terms import Violation

    unread = RenderResult(RenderStatus.OK, b"not a png")
    refused = GateResult(False, [Violation.INVALID_FRAME], "", None, unread)
    assert critique(refused) == "The gate refused this reply: its picture could not be read."
    assert critique(GateResult(True, [], "", None, unread)) == "The picture could not be read."


@pytest.mark.browser
def test_a_broken_colour_is_quoted_back_since_javascript_does_not_name_it(renderer):
    """Issue 37's 64 episodes: most refusals at turn 3 were a colour the revision broke."""
    broken = GOOD.replace('"#', '"#zz', 1)
    assert broken != GOOD
    env = environment(renderer)
    env.reset(seed=5, revisions=1)
    critique = env.step(WatercolourAction(reply=broken)).critique
    assert "JavaScript said: Error: Invalid color string." in critique, critique
    quoted = re.search(r'Not colours: "(#zz[^"]*)"; a colour string is "#" and 3, 4, 6 or 8 hexadecimal', critique)
    assert quoted and quoted.group(1) in broken, critique


def test_only_hash_strings_that_are_not_hexadecimal_are_quoted_three_at_most_sixteen_characters_each():
    from watercolour_env.server.critique import critique
    from watercolour_env.server.gate import GateResult
    from watercolour_env.server.sandbox import RenderResult, RenderStatus
    from watercolour_env.terms import Violation

    left_out = (  # in comments, colours once p5 trims them, a bare "#", a string cut at an escaped quote
        "// a palette: '#1 wash', \"#2 glaze\"\n"
        '/* "#3 detail" */ brush.fill("#fff "); brush.fill("#4f7a3a\\n"); brush.fill(\'#\' + hex);\n'
        'brush.fill("#ab\\"cd");\n'
    )
    quoted = (  # a "/*" or "//" in a string is not a comment
        'let note = "/* not a comment, // nor this"; '
        'brush.fill(\'#abc\'); brush.fill("#AABBCCDD", 9); brush.fill("#e2\x01 0.3", 202);\n'
        "brush.fill(`#8b2530/2`); brush.fill('#8b2530/2'); brush.fill(\"#" + "f" * 30 + '");\n'
        "brush.fill('#c0170x');"
    )
    thrown = RenderResult(RenderStatus.OK, None, js_errors=["Error: Invalid color string"])
    said = critique(GateResult(False, [Violation.SKETCH_ERROR], left_out + quoted, None, thrown))
    assert said.endswith(
        'Not colours: "#e2? 0.3", "#8b2530/2", "#fffffffffffffff"; '
        'a colour string is "#" and 3, 4, 6 or 8 hexadecimal digits.'
    ), said
    assert "Not colours" not in critique(GateResult(False, [Violation.SKETCH_ERROR], left_out, None, thrown))
    other = RenderResult(RenderStatus.OK, None, js_errors=["TypeError: x is undefined"])
    assert "Not colours" not in critique(GateResult(False, [Violation.SKETCH_ERROR], quoted, None, other))

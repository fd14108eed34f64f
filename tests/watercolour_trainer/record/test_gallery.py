"""The gallery page in a real browser: sorting reorders the cards, filters hide them, images load."""

import base64
import subprocess

import pytest

from tests.conftest import WATERCOLOUR, png_of
from watercolour_env.rollout import Rollout
from watercolour_trainer.record.rollouts import RolloutLog

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    """A run of two steps: five paintings and two rejected replies, one of them twice over."""
    folder = tmp_path_factory.mktemp("run")
    log = RolloutLog(folder / "rollouts")
    rows = [
        (1, 0, 0.40, "scored", []),
        (1, 1, 0.10, "scored", []),
        (1, 2, 0.0, "rejected", ["bare_primitive"]),
        (2, 0, 0.90, "scored", []),
        (2, 1, 0.55, "scored", []),
        (2, 2, 0.70, "scored", []),
        (2, 3, 0.0, "rejected", ["syntax_error", "no_brush_paint"]),
    ]
    for step, position, reward, status, violations in rows:
        components = [{"name": "gate", "value": 1.0 if status == "scored" else 0.0, "weight": 0.05, "status": "ok"}]
        rollout = Rollout(
            step,
            0,
            position,
            "a peach hibiscus",
            3,
            "reply",
            "brush.circle(1, 1, 1);",
            reward,
            status,
            violations=violations,
            components=components,
        )
        png = base64.b64encode(png_of("stripes" if reward > 0.5 else "grey")).decode() if status == "scored" else None
        log.add(rollout, png)
    return folder


@pytest.fixture(scope="module")
def page(run_dir, chromium):
    made = subprocess.run(
        [WATERCOLOUR, "gallery", str(run_dir), "--top", "3"], capture_output=True, text=True, timeout=120
    )
    assert made.returncode == 0, made.stderr
    tab = chromium.new_page()
    tab.goto((run_dir / "rollouts" / "gallery.html").as_uri())
    tab.wait_for_load_state("load")
    yield tab
    tab.close()


def visible_rewards(tab) -> list[str]:
    return tab.eval_on_selector_all(
        "#cards .card", "cards => cards.filter(c => !c.hidden).map(c => c.querySelector('.reward').textContent)"
    )


def test_the_cards_start_by_step_best_first_and_every_image_loads(page):
    assert visible_rewards(page) == ["0.400", "0.100", "0.000", "0.900", "0.700", "0.550", "0.000"]
    page.evaluate("() => Promise.all([...document.images].map(i => i.decode()))")
    widths = page.eval_on_selector_all("img", "images => images.map(i => i.naturalWidth)")
    assert widths == [600] * 8  # 3 on the wall, 5 cards with a painting


def test_the_wall_holds_the_best_paintings_in_order(page):
    captions = page.eval_on_selector_all("#wall figcaption", "f => f.map(x => x.textContent)")
    assert captions == ["0.900 · step 2", "0.700 · step 2", "0.550 · step 2"]


def test_sorting_by_reward_reorders_the_cards(page):
    page.select_option("#sort", "reward-desc")
    assert visible_rewards(page) == ["0.900", "0.700", "0.550", "0.400", "0.100", "0.000", "0.000"]
    page.select_option("#sort", "reward-asc")
    assert visible_rewards(page)[:3] == ["0.000", "0.000", "0.100"]
    page.select_option("#sort", "step")


def test_filters_hide_the_cards_that_do_not_match(page):
    page.select_option("#status", "rejected")
    assert visible_rewards(page) == ["0.000", "0.000"]
    page.select_option("#status", "all")
    page.select_option("#violation", "no_brush_paint")
    assert visible_rewards(page) == ["0.000"] and page.text_content("#shown") == "1"
    shown = page.eval_on_selector_all("#cards .card", "cs => cs.find(c => !c.hidden).dataset.violations")
    assert shown == "syntax_error no_brush_paint"
    page.select_option("#violation", "all")
    assert len(visible_rewards(page)) == 7


def test_a_folder_without_a_run_is_named(tmp_path):
    made = subprocess.run([WATERCOLOUR, "gallery", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert made.returncode == 2 and "no rollouts.jsonl" in made.stderr

"""The rating page in a real browser: rate, undo, skip, reload and resume."""

import shutil

import pytest

from tests.conftest import serving
from watercolour_env.curate.rating import rating_app
from watercolour_env.pool import STARTER_POOL, Tier, read_manifest, write_manifest

pytestmark = pytest.mark.browser


@pytest.fixture()
def unrated_pool(tmp_path):
    """Four starter paintings with their ratings cleared."""
    folder = tmp_path / "pool"
    (folder / "images").mkdir(parents=True)
    (folder / "sketches").mkdir()
    rows = read_manifest(STARTER_POOL)[:4]
    for row in rows:
        shutil.copy(STARTER_POOL / row.image, folder / row.image)
        shutil.copy(STARTER_POOL / row.sketch, folder / row.sketch)
        row.tier = None
    write_manifest(folder, rows)
    return folder, [r.id for r in rows]


@pytest.fixture()
def page_url(unrated_pool):
    folder, _ = unrated_pool
    with serving(rating_app(folder, blind=False)) as url:
        yield url + "/"


@pytest.fixture()
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-background-networking"]
        )
        yield chromium
        chromium.close()


def tiers(folder):
    return {r.id: r.tier for r in read_manifest(folder)}


def press(page, key, expect_progress):
    page.keyboard.press(key)
    page.wait_for_function("(p) => document.getElementById('progress').textContent.startsWith(p)", arg=expect_progress)


def shown(page):
    return page.get_attribute("#painting", "data-id")


def test_rate_undo_skip_reload_and_resume(unrated_pool, page_url, browser):
    folder, ids = unrated_pool
    page = browser.new_page()
    page.goto(page_url)
    page.wait_for_function("document.getElementById('progress').textContent.includes('/ 4 rated')")
    assert shown(page) == ids[0]

    press(page, "1", "1 / 4")  # love, saved at once
    assert tiers(folder)[ids[0]] is Tier.LOVE
    press(page, "3", "2 / 4")  # nope
    assert tiers(folder)[ids[1]] is Tier.NOPE
    press(page, "u", "1 / 4")  # undo the nope
    assert tiers(folder)[ids[1]] is None
    assert shown(page) == ids[1]

    page.keyboard.press("s")  # skip ids[1] for now
    page.wait_for_function("(id) => document.getElementById('painting').dataset.id === id", arg=ids[2])
    press(page, "2", "2 / 4")  # okay for ids[2]

    page.reload()  # a new session resumes where the last one stopped
    page.wait_for_function("document.getElementById('progress').textContent.startsWith('2 / 4')")
    assert shown(page) == ids[3]
    press(page, "1", "3 / 4")
    assert shown(page) == ids[1]  # the skipped one comes back at the end
    press(page, "2", "4 / 4")
    assert page.is_visible("#done")
    assert tiers(folder) == {ids[0]: Tier.LOVE, ids[1]: Tier.OKAY, ids[2]: Tier.OKAY, ids[3]: Tier.LOVE}


def test_blind_rating_shows_no_id_or_note_and_takes_a_note(unrated_pool, browser):
    folder, ids = unrated_pool
    rows = read_manifest(folder)
    rows[0].notes = '{"run": "runs/x", "reward": 0.93}'  # provenance that would give the intent away
    write_manifest(folder, rows)
    with serving(rating_app(folder)) as url:
        page = browser.new_page()
        seen = []
        page.on("request", lambda request: seen.append(request.url))
        page.on("dialog", lambda dialog: dialog.accept("too pale at the edges"))
        page.goto(url + "/")
        page.wait_for_function("document.getElementById('progress').textContent.includes('/ 4 rated')")
        assert page.inner_text("#meta") == "painting 1 of 4"
        page.keyboard.press("n")
        page.wait_for_function("document.getElementById('flash').textContent === 'note kept'")
        press(page, "1", "1 / 4")
        assert page.inner_text("#meta") == "painting 2 of 4" and page.inner_text("#flash") == "love"
        text = page.content()
        answers = [page.evaluate("fetch('/api/state').then((r) => r.text())")]
    assert not [i for i in ids if i in text or any(i in u for u in seen) or i in answers[0]]
    assert "0.93" not in text
    rows = {r.id: r for r in read_manifest(folder)}
    assert rows[ids[0]].tier is Tier.LOVE
    assert rows[ids[0]].notes == '{"run": "runs/x", "reward": 0.93}\ntoo pale at the edges'

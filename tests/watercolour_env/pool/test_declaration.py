"""A pool says what it is of (`pool.toml`): its rows, its prompt, its dataset and its server follow."""

import json
import shutil
import subprocess

import pytest
from fastapi.testclient import TestClient

from tests.conftest import WATERCOLOUR
from watercolour_env.curate.hub import push, write_folder
from watercolour_env.curate.render import pool_subject, render_folder
from watercolour_env.errors import ConfigError, RenderError
from watercolour_env.pool import STARTER_POOL, Pool, Tier, read_manifest
from watercolour_env.pool.declaration import PoolDeclaration, parse_declaration, read_declaration, write_declaration
from watercolour_env.pool.loader import Reference
from watercolour_env.prompt import system_prompt
from watercolour_env.server.sandbox import Renderer

JELLYFISH_HINT = "Paint each bell two or three times: a large wash first, then a smaller, more opaque one inside."


def jellyfish_pool(folder, hint=None):
    """The starter's paintings relabelled: a pool whose rows and pool.toml say "a jellyfish"."""
    shutil.copytree(STARTER_POOL, folder)
    rows = [json.loads(line) for line in (folder / "pool.jsonl").read_text().splitlines()]
    (folder / "pool.jsonl").write_text("".join(json.dumps({**r, "subject": "a jellyfish"}) + "\n" for r in rows))
    (folder / "pool.toml").write_text('subject = "a jellyfish"\n' + (f'hint = "{hint}"\n' if hint else ""))
    return folder


def test_a_declaration_reads_subject_and_hint_and_none_is_empty(tmp_path):
    assert read_declaration(tmp_path) == PoolDeclaration()
    (tmp_path / "pool.toml").write_text(f'# a comment\nsubject = "a jellyfish"\nhint = "{JELLYFISH_HINT}"\n')
    assert read_declaration(tmp_path) == PoolDeclaration("a jellyfish", JELLYFISH_HINT)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('subjet = "a jellyfish"\n', "unknown key subjet; a pool declares only subject, hint, oracle"),
        ("subject = 3\n", 'subject, hint, oracle are strings, e.g. subject = "a jellyfish"'),
        ('subject = "a jelly\\nfish"\n', "at most 200 printable characters; character 7 ('\\n') is a control"),
        ('subject = "   "\n', "subject is empty: name it, or delete the line to declare none"),
        (f'hint = "{"x" * 301}"\n', "hint must be one line of 1 to 300 printable characters"),
        ('subject = "a jellyfish\n', "not a TOML file"),
    ],
)
def test_a_bad_declaration_is_refused_naming_the_file(tmp_path, text, says):
    (tmp_path / "pool.toml").write_text(text)
    with pytest.raises(ConfigError, match="^" + str(tmp_path / "pool.toml") + ": ") as refused:
        read_declaration(tmp_path)
    assert says in str(refused.value)


def test_a_byte_order_mark_is_read_and_a_folder_in_its_place_is_refused(tmp_path):
    (tmp_path / "pool.toml").write_bytes(b'\xef\xbb\xbfsubject = "a jellyfish"\r\n')  # as Notepad saves it
    assert read_declaration(tmp_path) == PoolDeclaration("a jellyfish")
    (tmp_path / "pool.toml").unlink()
    (tmp_path / "pool.toml").mkdir()
    with pytest.raises(ConfigError, match="pool.toml: cannot be read as the pool's declaration"):
        read_declaration(tmp_path)


def test_a_written_declaration_reads_back_with_quotes_and_accents(tmp_path):
    declared = PoolDeclaration('a "koi" in a pond, été', "Layer each fin: a wash, then a smaller one \\ inside.")
    write_declaration(tmp_path, declared)
    assert read_declaration(tmp_path) == declared
    assert parse_declaration((tmp_path / "pool.toml").read_bytes(), "x") == declared
    write_declaration(tmp_path, PoolDeclaration())  # an empty one leaves no file: a pull over an old pool
    assert not (tmp_path / "pool.toml").exists()


def reference(id, tier, subject):
    return Reference(id, tier, b"", "", subject, "", 0, "")


def test_a_pools_subject_is_the_declared_one_else_most_loved_else_the_default():
    refs = [
        reference("a", Tier.LOVE, "a koi"),
        reference("b", Tier.LOVE, "a jellyfish"),
        reference("c", Tier.LOVE, "a jellyfish"),
        reference("d", Tier.OKAY, "a koi"),
        reference("e", Tier.NOPE, "a koi"),
    ]
    assert Pool(refs).subject == "a jellyfish"  # two loved of three; koi wins overall but is loved once
    assert Pool(refs, declaration=PoolDeclaration("a moon jellyfish")).subject == "a moon jellyfish"
    assert Pool(refs[:1] + [reference("f", Tier.LOVE, "a jellyfish")] + refs[3:]).subject == "a koi"  # tie: first
    assert Pool([reference("g", Tier.LOVE, ""), refs[3]]).subject == "a peach hibiscus"


def test_the_starter_declares_its_subject_and_a_line_for_each_of_its_subjects():
    pool = Pool.load(str(STARTER_POOL))
    assert pool.subject == "a peach hibiscus"
    assert "petal" not in system_prompt(pool.declaration.hint)  # three subjects: the system prompt names none
    hint = pool.declaration.subject_hint
    assert hint("a peach hibiscus").startswith("Paint each petal two or three times: a large wash first")
    assert "bell" in hint("a jellyfish") and "petal" not in hint("a jellyfish")
    assert "branch" in hint("a songbird on a branch") and hint("a blue whale") is None
    assert sorted(pool.declaration.hints) == sorted(pool.coverage().subjects)  # a line for every subject


def test_a_subjects_line_goes_into_its_user_prompt_only(tmp_path):
    from fastapi.testclient import TestClient

    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    with TestClient(build_app(load_settings(), renderer=object())) as client:
        said = {
            s: client.post("/reset", json={"subject": s}).json()["observation"] for s in ("a jellyfish", "a hibiscus")
        }
    assert said["a jellyfish"]["prompt"].startswith("Paint a jellyfish as a loose watercolour. Paint the bell two")
    assert said["a hibiscus"]["prompt"].startswith("Paint a hibiscus as a loose watercolour. Paint each petal two")
    assert said["a jellyfish"]["system_prompt"] == said["a hibiscus"]["system_prompt"] == system_prompt()


def test_hints_are_a_table_of_lines_written_back_as_read(tmp_path):
    text = '[hints]\n"a koi" = "Paint each fin twice."\n'
    declared = parse_declaration(text.encode(), "pool.toml")
    assert declared.hints == {"a koi": "Paint each fin twice."}
    assert parse_declaration(declared.to_toml().encode(), "again") == declared
    for bad in ('hints = "Paint"\n', '[hints]\n"a koi" = 3\n', '[hints]\n"a koi" = ""\n', '[hints]\n"" = "x"\n'):
        with pytest.raises(ConfigError, match="hints"):
            parse_declaration(bad.encode(), "pool.toml")


def test_a_pool_without_a_hint_gets_a_prompt_with_no_petal_in_it():
    generic = system_prompt()
    assert "petal" not in generic and "- Paint each shape two or three times: a large wash first" in generic
    assert f"- {JELLYFISH_HINT}\n" in system_prompt(JELLYFISH_HINT)


def test_rows_without_a_subject_take_the_declared_one(tmp_path):
    folder = jellyfish_pool(tmp_path / "pool")
    rows = [json.loads(line) for line in (folder / "pool.jsonl").read_text().splitlines()]
    (folder / "pool.jsonl").write_text(
        "".join(json.dumps({k: v for k, v in r.items() if k != "subject"}) + "\n" for r in rows)
    )
    assert {r.subject for r in read_manifest(folder, "a jellyfish")} == {"a jellyfish"}
    assert {r.subject for r in Pool.load(str(folder)).references} == {"a jellyfish"}


def test_render_takes_the_subject_asked_then_the_declared_then_the_rows_and_else_asks(tmp_path):
    new = tmp_path / "new"
    new.mkdir()
    with pytest.raises(ConfigError, match=r"--subject 'a jellyfish'` \(kept in .*pool.toml\)$"):
        pool_subject(new)
    assert pool_subject(new, "a jellyfish") == "a jellyfish"
    assert read_declaration(new) == PoolDeclaration("a jellyfish")  # kept for the next render, sft and push
    assert pool_subject(new) == "a jellyfish"
    assert pool_subject(new, "a koi") == "a koi"  # asked wins for new rows; the declaration stays
    assert read_declaration(new).subject == "a jellyfish"
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "pool.jsonl").write_text(
        '{"id": "a", "image": "i", "sketch": "s", "subject": "a koi"}\n'
        '{"id": "b", "image": "i", "sketch": "s", "subject": "a jellyfish"}\n'
    )
    with pytest.raises(ConfigError, match=r"of .*mixed are of \(its rows name 'a jellyfish', 'a koi'\): `watercolour"):
        pool_subject(mixed)
    old = tmp_path / "old"
    old.mkdir()
    (old / "pool.jsonl").write_text('{"id": "a", "image": "i", "sketch": "s", "subject": "a koi"}\n')
    assert pool_subject(old) == "a koi" and read_declaration(old).subject == "a koi"
    with pytest.raises(ConfigError, match="--subject: subject must be at most 200 printable characters"):
        pool_subject(tmp_path / "new", "a\tkoi")


@pytest.mark.cli
def test_render_refuses_a_subject_none_of_its_paintings_is_of_and_says_what_it_kept(tmp_path):
    # issue 54: `--subject` on a folder whose every sketch is a painting of another subject used
    # to declare it in pool.toml, and the server then refused the pool
    folder = tmp_path / "pool"
    for sub in ("sketches", "images"):
        (folder / sub).mkdir(parents=True)
    rows = ""
    for i in ("bloom-01", "bloom-02"):
        shutil.copy(STARTER_POOL / "sketches" / f"{i}.js", folder / "sketches")
        shutil.copy(STARTER_POOL / "images" / f"{i}.png", folder / "images")
        row = {"id": i, "image": f"images/{i}.png", "sketch": f"sketches/{i}.js", "subject": "a peach hibiscus"}
        rows += json.dumps(row) + "\n"
    (folder / "pool.jsonl").write_text(rows)
    command = [WATERCOLOUR, "pool", "render", str(folder), "--subject", "a jellyfish"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert (
        f"--subject 'a jellyfish' names what new paintings of {folder} are of, and every sketch there is a painting "
        "already: 2 of 'a peach hibiscus' (pool.jsonl). Nothing was written."
    ) in " ".join(done.stderr.split())
    assert not (folder / "pool.toml").exists() and (folder / "pool.jsonl").read_text() == rows
    # a pool that declares it covers jellyfish (subjects.txt) may default to one: it says what it kept
    (folder / "subjects.txt").write_text("a jellyfish\n")
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    kept = "kept 2 paintings of 'a peach hibiscus' as pool.jsonl says (--subject names new paintings only)"
    assert kept in done.stdout
    assert read_declaration(folder).subject == "a jellyfish"
    assert {r.subject for r in read_manifest(folder, subject="")} == {"a peach hibiscus"}


@pytest.mark.cli  # the last render starts Playwright's driver
def test_a_folder_is_checked_before_any_chromium_starts(tmp_path):
    # `pool render` on a machine without Chromium still says what is wrong with the folder
    nowhere = Renderer(workers=1, chromium_path="/nonexistent/chromium", network_namespace="off")
    with pytest.raises(ConfigError, match="no sketches/\\*.js in "):
        render_folder(tmp_path, nowhere)
    (tmp_path / "sketches").mkdir()
    (tmp_path / "sketches" / "koi.js").write_text("function setup() {}\n")
    with pytest.raises(ConfigError, match="say what the paintings of "):
        render_folder(tmp_path, nowhere)
    with pytest.raises(RenderError, match="there is no Chromium at /nonexistent/chromium"):
        render_folder(tmp_path, nowhere, subject="a koi")  # there is work: only then is Chromium needed


def test_a_pushed_pool_carries_its_declaration_and_a_card_naming_its_subject(tmp_path):
    folder = jellyfish_pool(tmp_path / "pool", hint=JELLYFISH_HINT)
    (folder / "README.md").unlink()  # the starter's own card would be uploaded as it is
    files, _ = push(folder, "someone/jellyfish", dry_run=tmp_path / "upload")
    assert sorted(map(str, files)) == ["README.md", "data/train-00000-of-00001.parquet", "pool.toml"]
    card = (tmp_path / "upload" / "README.md").read_text()
    assert "# Watercolour reference pool: a jellyfish\n" in card and "asks for 'a jellyfish'" in card
    pulled = Pool.from_hub(str(tmp_path / "upload"))  # a dry run's folder reads as the dataset would
    assert pulled.declaration == PoolDeclaration("a jellyfish", JELLYFISH_HINT)
    assert {r.subject for r in pulled.references} == {"a jellyfish"}
    write_folder(pulled, tmp_path / "pulled")
    assert read_declaration(tmp_path / "pulled") == PoolDeclaration("a jellyfish", JELLYFISH_HINT)
    (tmp_path / "upload" / "pool.toml").unlink()  # a pool that declares nothing, pulled over the same folder
    write_folder(Pool.from_hub(str(tmp_path / "upload")), tmp_path / "pulled")
    assert not (tmp_path / "pulled" / "pool.toml").exists()


def test_a_hub_declaration_that_cannot_be_fetched_is_an_error_not_an_absence(monkeypatch, tmp_path):
    from huggingface_hub import constants

    from watercolour_env.pool.loader import _hub_file

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)  # unreachable, and nothing cached
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    with pytest.raises(ConfigError, match="^could not read pool.toml of the pool dataset me/jelly@abc: "):
        _hub_file("me/jelly", "pool.toml", "abc", "me/jelly@abc")


def test_a_declared_subject_its_paintings_do_not_cover_refuses_the_server_naming_pool_toml(tmp_path):
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    folder = tmp_path / "pool"
    shutil.copytree(STARTER_POOL, folder)  # paintings of a hibiscus, a jellyfish, a songbird on a branch
    (folder / "pool.toml").write_text('subject = "a blue whale"\n')
    with pytest.raises(ConfigError) as refused:
        build_app(load_settings(pool=str(folder)), renderer=object())
    assert str(refused.value) == (
        f"the pool {folder} declares the subject 'a blue whale' (pool.toml), but its paintings are of "
        '"a hibiscus", "a jellyfish", "a songbird on a branch": correct the subject in its pool.toml, or set '
        "WATERCOLOUR_DEFAULT_SUBJECT to one of those"
    )


def test_sft_prompts_the_warm_start_with_the_hint_the_default_server_serves():
    from tests.conftest import REPO

    corpus, starter = (
        Pool.load(str(folder)).declaration for folder in (REPO / "trainer/corpus/warmstart", STARTER_POOL)
    )
    assert system_prompt(corpus.hint) == system_prompt(starter.hint)
    assert corpus.subject_hint("a hibiscus") == starter.subject_hint("a hibiscus") is not None


def test_a_server_on_a_jellyfish_pool_asks_for_a_jellyfish_without_petals(tmp_path):
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    folder = jellyfish_pool(tmp_path / "pool")
    with TestClient(build_app(load_settings(pool=str(folder)), renderer=object())) as client:
        observation = client.post("/reset", json={}).json()["observation"]
    assert observation["subject"] == "a jellyfish"
    assert observation["prompt"].startswith("Paint a jellyfish as a loose watercolour.")
    assert (
        "petal" not in observation["system_prompt"]
        and "Paint each shape two or three times" in (observation["system_prompt"])
    )


@pytest.mark.cli
def test_a_dry_run_push_says_how_a_real_one_is_pinned(tmp_path):
    import subprocess

    from tests.conftest import WATERCOLOUR

    done = subprocess.run(
        [WATERCOLOUR, "pool", "push", str(STARTER_POOL), "me/pool", "--dry-run", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == (
        "a real push prints the commit to pin, for WATERCOLOUR_POOL or --pool me/pool@COMMIT"
    )


def test_the_subjects_a_pool_declares_travel_with_push_and_pull(tmp_path):
    folder = jellyfish_pool(tmp_path / "pool")
    (folder / "subjects.txt").write_text("\ufeff# beyond single bells\na jellyfish swarm\n\na moon jelly  # kin\n")
    files, _ = push(folder, "someone/jellyfish", dry_run=tmp_path / "upload")
    assert "subjects.txt" in map(str, files)
    pulled = Pool.from_hub(str(tmp_path / "upload"))
    assert pulled.declared_subjects == ["a jellyfish swarm", "a moon jelly"]
    assert pulled.coverage().covers("a moon jelly at dusk") and not pulled.coverage().covers("a hibiscus")
    write_folder(pulled, tmp_path / "pulled")
    assert (tmp_path / "pulled" / "subjects.txt").read_text() == "a jellyfish swarm\na moon jelly\n"
    (tmp_path / "upload" / "subjects.txt").unlink()  # pulled again over the folder, from a pool declaring none
    write_folder(Pool.from_hub(str(tmp_path / "upload")), tmp_path / "pulled")
    assert not (tmp_path / "pulled" / "subjects.txt").exists()


def test_a_hint_for_a_subject_the_pool_has_no_painting_of_is_said(tmp_path, caplog):
    folder = tmp_path / "pool"
    shutil.copytree(STARTER_POOL, folder)
    text = (folder / "pool.toml").read_text()
    (folder / "pool.toml").write_text(text.replace('"a jellyfish" = ', '"a jelly fish" = '))  # misspelt
    with caplog.at_level("WARNING"):
        pool = Pool.load(str(folder))
    assert "[hints] line for 'a jelly fish', which none of its paintings is of" in caplog.text
    assert pool.declaration.subject_hint("a jellyfish") is None  # what the warning is about

import pytest

from watercolour_env.errors import ConfigError
from watercolour_env.pool import STARTER_POOL, Pool
from watercolour_env.pool.subjects import SubjectCoverage, subject_words


def test_subject_words_drop_articles_case_punctuation_and_plurals():
    assert subject_words("A Peach Hibiscus!") == {"peach", "hibiscus"}
    assert subject_words("two hibiscuses, the peaches") == {"two", "hibiscus", "peach"}
    assert subject_words("the lemons") == {"lemon"}
    assert subject_words("a, an, the") == frozenset()


@pytest.mark.parametrize(
    ("asked", "covered"),
    [
        ("a peach hibiscus", True),
        ("hibiscus", True),
        ("three hibiscuses in a vase", True),
        ("a blue whale", False),
        ("a rose", False),
        ("hibiscu", False),
    ],
)
def test_a_subject_is_covered_when_it_holds_every_word_of_one_pool_subject(asked, covered):
    assert SubjectCoverage(["a hibiscus", "a lemon tree"]).covers(asked) is covered


def test_every_word_of_a_pool_subject_is_needed():
    coverage = SubjectCoverage(["a lemon tree"])
    assert coverage.covers("an old lemon tree") and not coverage.covers("a lemon")


def test_the_starter_pool_covers_its_three_subjects_and_not_a_whale():
    coverage = Pool.load(str(STARTER_POOL)).coverage()
    assert coverage.subjects == ["a hibiscus", "a jellyfish", "a songbird on a branch"]
    assert coverage.covers("a peach hibiscus") and coverage.covers("two jellyfish")
    assert coverage.covers("a robin, a songbird on a branch") and not coverage.covers("a robin")
    assert not coverage.covers("a blue whale")


def test_an_asked_subject_is_matched_to_the_covered_one_with_most_words():
    coverage = SubjectCoverage(["a hibiscus", "a hibiscus bush", "a jellyfish"])
    assert coverage.match("a pink hibiscus bush") == "a hibiscus bush"  # both cover it: the longer
    assert coverage.match("a peach hibiscus") == "a hibiscus"
    assert coverage.match("three jellyfishes") == "a jellyfish"
    assert coverage.match("a blue whale") is None


def test_a_pool_may_declare_subjects_beyond_its_paintings(tmp_path):
    import shutil

    folder = tmp_path / "pool"
    shutil.copytree(STARTER_POOL, folder)
    (folder / "subjects.txt").write_text("# what this pool's taste is for\na hibiscus bush\n\nan orchid  # close\n")
    coverage = Pool.load(str(folder)).coverage()
    assert coverage.subjects == ["a hibiscus", "a hibiscus bush", "a jellyfish", "a songbird on a branch", "an orchid"]
    assert coverage.covers("a white orchid")


def test_a_server_whose_default_subject_its_pool_does_not_cover_refuses_to_start(monkeypatch, tmp_path):
    from watercolour_env.server.app import build_app
    from watercolour_env.server.settings import load_settings

    monkeypatch.setenv("WATERCOLOUR_DEFAULT_SUBJECT", "a blue whale")
    with pytest.raises(ConfigError, match=r"DEFAULT_SUBJECT='a blue whale': the embedded scorer judges only"):
        build_app(load_settings(), renderer=object())

"""Which subjects a pool covers: the embedded scorer judges only those (issue 33).

A pool's taste is a taste for its subjects: fitted on hibiscus paintings, the embedded scorer
paid a hibiscus 0.94 when asked for "a blue whale", and an honest whale 0.05. So a reset whose
subject the pool does not cover is refused where the embedded term is weighed.

The subjects a pool covers are its rated paintings' `subject`s, and those it declares in
`subjects.txt` (one per line, `#` comments) beside `pool.jsonl`. A requested subject is covered
when every word of one covered subject is among its words, after lower-casing, dropping
punctuation and the articles a, an and the, and reading a final "es" or "s" as a plural:
"a peach hibiscus" and "two hibiscuses" are covered by "a hibiscus"; "a blue whale" is not,
and "a whale beside a hibiscus" is (the rule reads words, not a scene).

    >>> SubjectCoverage(["a hibiscus"]).covers("A peach Hibiscus")
    True
    >>> SubjectCoverage(["a hibiscus"]).covers("a blue whale")
    False
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

DECLARED = "subjects.txt"
_ARTICLES = frozenset({"a", "an", "the"})


def subject_words(subject: str) -> frozenset[str]:
    """The words a subject is matched by: lower case, no punctuation or articles, singular."""
    words = re.findall(r"[^\W_]+", subject.lower())
    return frozenset(_singular(word) for word in words if word not in _ARTICLES)


def _singular(word: str) -> str:
    for ending in ("ses", "xes", "ches", "shes"):  # hibiscuses, boxes, peaches, bushes
        if word.endswith(ending) and len(word) > len(ending) + 1:
            return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 3:
        return word[:-1]
    return word


class SubjectCoverage:
    """The subjects of a pool, and the test of whether one asked for is among them.

    Args:
        subjects: the covered subjects, as written (e.g. ["a hibiscus"]); empty ones are ignored.
    """

    def __init__(self, subjects: Iterable[str]) -> None:
        self.subjects = sorted({s.strip() for s in subjects if subject_words(s)})
        self._words = [subject_words(s) for s in self.subjects]

    def covers(self, subject: str) -> bool:
        """Whether every word of one covered subject is among the words of `subject`."""
        asked = subject_words(subject)
        return any(words <= asked for words in self._words)

    def match(self, subject: str) -> str | None:
        """The covered subject an asked one is of: the one whose words it has, most words first.

        >>> SubjectCoverage(["a hibiscus", "a songbird on a branch"]).match("a peach hibiscus")
        'a hibiscus'
        """
        asked = subject_words(subject)
        covered = [(len(words), s) for s, words in zip(self.subjects, self._words, strict=True) if words <= asked]
        return max(covered, key=lambda c: c[0])[1] if covered else None

    def describe(self) -> str:
        """The covered subjects for a message, e.g. '"a hibiscus"'."""
        return ", ".join(f'"{s}"' for s in self.subjects) or "none"


def declared_subjects(folder: Path) -> list[str]:
    """The subjects a pool folder declares in `subjects.txt`; none when there is no such file."""
    path = Path(folder) / DECLARED
    if not path.is_file():
        return []
    return parse_subjects(path.read_text(encoding="utf-8-sig"))


def parse_subjects(text: str) -> list[str]:
    """The subjects of a `subjects.txt`'s text: one a line, `#` comments and blank lines dropped."""
    lines = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return [line for line in lines if line]


def write_subjects(folder: Path, subjects: list[str]) -> None:
    """Makes `subjects.txt` of a pool folder declare `subjects`: none removes the file."""
    path = Path(folder) / DECLARED
    if subjects:
        path.write_text("".join(f"{subject}\n" for subject in subjects), encoding="utf-8")
    else:
        path.unlink(missing_ok=True)

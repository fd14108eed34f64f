"""What a pool is of: `pool.toml`, its subject, the prompt's line for that subject and its oracle.

A pool of jellyfish must not be served, fine-tuned or published as a pool of hibiscus (issue 36):
its subject goes into every new row `pool render` writes, into `sft`'s prompts, into the
dataset `pool push` uploads and into the server's default episode. The system prompt's one
subject-specific line (the starter's "Paint each petal two or three times ...") is the pool's
`hint`; a pool that declares none gets `prompt.GENERIC_HINT`, which names no part of any subject.

The `oracle` is the id of one `love` painting kept out of the references: nothing scores against
it, so it is a painting of the subject that the pool's taste has not seen. The server's copy guard
holds it like the references, except in an episode reset with `oracle=True`. A deployed Space's
validation sends it so (`watercolour oracle`, `validation/oracle.sh`) and expects it near the top
of the reward; `watercolour pool oracle` chooses it
(docs/decisions/0006-the-pools-own-oracle.md).

    # pool.toml, beside pool.jsonl
    subject = "a jellyfish"
    hint = "Paint each bell two or three times: a large wash first, then a smaller, more opaque one inside."
    oracle = "jelly-16"

Every key is optional; any other key is refused (a misspelt `subjet` would otherwise be ignored).
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from watercolour_env.errors import ConfigError, InvalidOption
from watercolour_env.options import ResetOptions
from watercolour_env.pool.subjects import SubjectCoverage

DECLARATION = "pool.toml"
KEYS = ("subject", "hint", "oracle", "hints")
ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}")
"""A painting's id as `pool render` names it: a sketch's file name without `.js`."""
MAX_HINT_CHARS = 300
"""A hint is one line of the system prompt; the starter's is 96 characters."""


@dataclass(frozen=True)
class PoolDeclaration:
    """A pool's declared subject, prompt hints and oracle; None (or empty) where the pool declares none.

    Attributes:
        subject: what the environment asks for by default, e.g. "a jellyfish"; it passes the
            bounds of a reset's `subject` (at most 200 printable characters).
        hint: one line of at most `MAX_HINT_CHARS` printable characters that replaces the
            system prompt's generic line about layering washes.
        oracle: the id of the `love` painting held out as the deployment's oracle (`Pool`
            checks that it is one).
        hints: subject -> one line of the same bounds as `hint`, added to the user prompt of an
            episode of that subject (the subject a reset asks for, matched to the pool's as the
            scorer matches it: "a peach hibiscus" takes "a hibiscus"'s). A pool of several
            subjects says here what differs between them; `hint` stays what they share.
    """

    subject: str | None = None
    hint: str | None = None
    oracle: str | None = None
    hints: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.subject is not None:
            try:
                ResetOptions.check(subject=self.subject)
            except InvalidOption as err:
                raise ValueError(str(err)) from err
        for name, line in [("hint", self.hint)] + [(f"hints[{k!r}]", v) for k, v in self.hints.items()]:
            if line is not None and (not line.strip() or not line.isprintable() or len(line) > MAX_HINT_CHARS):
                raise ValueError(f"{name} must be one line of 1 to {MAX_HINT_CHARS} printable characters")
        for subject in self.hints:
            try:
                ResetOptions.check(subject=subject)
            except InvalidOption as err:
                raise ValueError(f"hints: {err}") from err
        if self.oracle is not None and not ID.fullmatch(self.oracle):
            raise ValueError(f"oracle must be a painting's id (letters, digits, - and _), not {self.oracle!r}")

    def to_toml(self) -> str:
        """The declaration as `pool.toml` text (JSON strings are TOML basic strings here)."""
        plain = {key: value for key, value in vars(self).items() if key != "hints"}
        lines = [f"{key} = {json.dumps(value, ensure_ascii=False)}" for key, value in plain.items() if value]
        if self.hints:
            lines += ["", "[hints]"]
            lines += [
                f"{json.dumps(k, ensure_ascii=False)} = {json.dumps(v, ensure_ascii=False)}"
                for k, v in self.hints.items()
            ]
        return "".join(line + "\n" for line in lines)

    def subject_hint(self, subject: str) -> str | None:
        """The `hints` line for an episode of `subject`, through the subject of `hints` it matches; None without.

        >>> PoolDeclaration(hints={"a hibiscus": "Paint each petal twice."}).subject_hint("a peach hibiscus")
        'Paint each petal twice.'
        """
        matched = SubjectCoverage(self.hints).match(subject) if self.hints else None
        return None if matched is None else self.hints.get(matched)


def read_declaration(folder: Path) -> PoolDeclaration:
    """The `pool.toml` of a pool folder; an empty declaration when there is none.

    Raises:
        ConfigError: the file is not TOML, has a key other than subject, hint and oracle, or a
            value out of bounds; the message names the file.
    """
    path = Path(folder) / DECLARATION
    if not path.exists() and not path.is_symlink():
        return PoolDeclaration()
    try:
        text = path.read_bytes()
    except OSError as err:  # a folder, a dangling link, no permission: said, never taken as absent
        raise ConfigError(f"{path}: cannot be read as the pool's declaration: {err}") from err
    return parse_declaration(text, str(path))


def parse_declaration(text: bytes, where: str) -> PoolDeclaration:
    """A `pool.toml`'s content, read as `read_declaration` reads the file `where`."""
    try:
        values = tomllib.loads(text.decode("utf-8-sig"))  # a byte-order mark, as some editors save, is fine
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise ConfigError(f"{where}: not a TOML file: {err}") from err
    unknown = sorted(set(values) - set(KEYS))
    if unknown:
        raise ConfigError(f"{where}: unknown key {', '.join(unknown)}; a pool declares only {', '.join(KEYS)}")
    hints = values.pop("hints", {})
    if not isinstance(hints, dict) or any(not isinstance(v, str) for v in hints.values()):
        raise ConfigError(
            f'{where}: hints is a table of subject = line, e.g. [hints] "a jellyfish" = "Paint each bell ..."'
        )
    if any(not isinstance(v, str) for v in values.values()):
        raise ConfigError(f'{where}: {", ".join(KEYS[:3])} are strings, e.g. subject = "a jellyfish"')
    empty = [key for key, value in values.items() if not value.strip()]
    if empty:
        raise ConfigError(f"{where}: {empty[0]} is empty: name it, or delete the line to declare none")
    try:
        return PoolDeclaration(**values, hints=hints)
    except ValueError as err:
        raise ConfigError(f"{where}: {err}") from err


def write_declaration(folder: Path, declaration: PoolDeclaration) -> None:
    """Makes `pool.toml` of a pool folder say `declaration`: an empty one removes the file."""
    path = Path(folder) / DECLARATION
    if any(vars(declaration).values()):  # an empty hints table counts as none
        partial = path.with_name(DECLARATION + ".partial")  # whole or not at all, even if interrupted
        partial.write_text(declaration.to_toml(), encoding="utf-8")
        partial.replace(path)
    else:
        path.unlink(missing_ok=True)

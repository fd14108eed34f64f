"""The reference pool: hand-rated paintings in tiers love / okay / nope that define the taste.

"What the pool contains is the reward function": the pairwise judge compares a rollout with
references drawn from it, and the embedded scorer is fitted on its tiers. A pool is a folder or
a Hugging Face dataset with one row per painting; both load into the same `Pool`.

Folder layout:
    pool.jsonl        one JSON object per painting: id, tier (love / okay / nope, or null while
                      unrated), image, sketch (paths relative to the folder), subject, author,
                      seed, notes
    pool.toml         optional: its subject, the prompt's hint and its oracle (pool/declaration.py)
    subjects.txt      optional: subjects the pool covers beyond its paintings' (pool/subjects.py)
    images/<id>.png   the 600x600 render
    sketches/<id>.js  the p5.brush source that made it
"""

from __future__ import annotations

import io
import json
import logging
from collections import Counter
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from PIL import Image

from watercolour_env.errors import ConfigError, read_text
from watercolour_env.limits import MAX_SEED
from watercolour_env.pool.declaration import DECLARATION, PoolDeclaration, parse_declaration, read_declaration
from watercolour_env.pool.subjects import DECLARED, SubjectCoverage, declared_subjects, parse_subjects
from watercolour_env.prompt import DEFAULT_SUBJECT
from watercolour_env.terms import TIER_NAMES, Tier

log = logging.getLogger(__name__)

MANIFEST = "pool.jsonl"
STARTER_POOL = Path(__file__).resolve().parent / "starter"
"""The pool the project ships (62 hibiscus paintings, 23 formless sketches and 8 other subjects,
rated love / okay / nope); the default."""


@dataclass(kw_only=True)
class PoolRow:
    """One painting's manifest row; `tier` is None until it is rated. Fields are given by name.

    Example:
        >>> PoolRow.at("koi-01", subject="a koi", seed=7).sketch
        'sketches/koi-01.js'
    """

    id: str
    image: str
    sketch: str
    tier: Tier | None = None
    subject: str = DEFAULT_SUBJECT
    author: str = ""
    seed: int = 0
    notes: str = ""

    @classmethod
    def at(cls, row_id: str, **fields: object) -> PoolRow:
        """A row whose files lie where a pool folder keeps them: `images/<id>.png`, `sketches/<id>.js`.

        Args:
            row_id: the painting's id (its files' stem).
            **fields: any other field, by name (tier, subject, author, seed, notes).
        """
        return cls(id=row_id, image=f"images/{row_id}.png", sketch=f"sketches/{row_id}.js", **fields)

    def to_json(self) -> dict:
        """The row as written to pool.jsonl."""
        row = asdict(self)
        row["tier"] = self.tier.value if self.tier else None
        return row

    @classmethod
    def from_json(cls, row: dict, subject: str = DEFAULT_SUBJECT) -> PoolRow:
        """Parses a pool.jsonl row; `subject` is the pool's, for a row that names none.

        Raises:
            ValueError: an unknown tier or a missing field.
        """
        fields = {k: row[k] for k in ("id", "image", "sketch") if k in row}
        if len(fields) < 3:
            raise ValueError(f"pool row lacks id, image or sketch: {row}")
        tier = row.get("tier")
        return cls(
            **fields,
            tier=Tier(tier) if tier else None,
            subject=row.get("subject") or subject,
            author=row.get("author", ""),
            seed=int(row.get("seed", 0)),
            notes=row.get("notes", ""),
        )


@dataclass(frozen=True)
class Reference:
    """A rated painting of the pool, image in memory."""

    id: str
    tier: Tier
    png: bytes
    sketch: str
    subject: str
    author: str
    seed: int
    notes: str


class Pool:
    """Rated paintings, validated: at least one `love` and one `okay`, every image readable.

    Args:
        references: the rated paintings.
        source: where the pool came from (a folder path or `user/name@revision`), for messages.
        declared_subjects: subjects the pool declares it covers beyond its paintings' own
            (`subjects.txt` of a folder; see `subjects.py`).
        declaration: the pool's `pool.toml` (its subject, prompt hint and oracle; see
            `declaration.py`). Its oracle, a `love` painting, is taken out of `references` and
            kept as `oracle`: no term scores against it (the server's copy guard holds it too).
            `rated` keeps every painting, the oracle included, in pool order (what `pool push`
            uploads and `pool pull` writes).

    Raises:
        ConfigError: no `love` or no `okay` painting, or an oracle that is not a `love`
            painting of the pool.

    Example:
        >>> pool = Pool.load(str(STARTER_POOL))  # doctest: +SKIP
        >>> len(pool.tier(Tier.LOVE)), len(pool.tier(Tier.OKAY))  # doctest: +SKIP
        (19, 27)
    """

    def __init__(
        self,
        references: list[Reference],
        source: str = "",
        declared_subjects: list[str] | None = None,
        declaration: PoolDeclaration | None = None,
    ) -> None:
        self.source = source
        self.declared_subjects = list(declared_subjects or [])
        self.declaration = declaration or PoolDeclaration()
        self.rated = list(references)
        self.oracle = self._held_out(references, self.declaration.oracle)
        self.references = [r for r in references if r is not self.oracle]
        missing = [t.value for t in (Tier.LOVE, Tier.OKAY) if not self.tier(t)]
        if missing == ["love"] and self.oracle is not None:
            raise ConfigError(
                f"the pool {source or '(in memory)'} has one love painting, {self.oracle.id}, and pool.toml holds it "
                "out as the oracle, which leaves the reward none to learn from: rate more love paintings, or delete "
                "the oracle line"
            )
        if missing:
            if source and Path(source).is_dir():
                todo = f"rate its paintings with `watercolour pool rate {source}`"
            else:  # a dataset: into a folder first
                todo = f"`watercolour pool pull {source or 'SPEC'} FOLDER`, then `watercolour pool rate FOLDER`"
            raise ConfigError(f"the pool {source or '(in memory)'} has no {' and no '.join(missing)} painting: {todo}")
        strays = [s for s in self.declaration.hints if not self.coverage().covers(s)]
        if strays:  # a misspelt subject would drop its line silently; a pool cut to fewer subjects keeps it
            said = f"the pool {source or '(in memory)'}: pool.toml has a [hints] line for {strays[0]!r}, which none"
            log.warning(f"{said} of its paintings is of ({self.coverage().describe()}): it reaches no episode")

    def _held_out(self, references: list[Reference], oracle: str | None) -> Reference | None:
        """The painting `pool.toml` names as the oracle, checked to be a rated `love` painting."""
        if oracle is None:
            return None
        named = [r for r in references if r.id == oracle]
        if not named:
            raise ConfigError(
                f"the pool {self.source or '(in memory)'} declares the oracle {oracle!r} (pool.toml), which is no "
                "rated painting of it: name one of its love paintings, or let `watercolour pool oracle FOLDER` choose"
            )
        if named[0].tier is not Tier.LOVE:
            raise ConfigError(
                f"the pool {self.source or '(in memory)'} declares the oracle {oracle!r} (pool.toml), rated "
                f"{named[0].tier.value}: the oracle must be a love painting"
            )
        if not 0 <= named[0].seed <= MAX_SEED:  # the oracle's episode is reset with it
            raise ConfigError(
                f"the pool {self.source or '(in memory)'}: its oracle {oracle!r} has the seed {named[0].seed}, outside "
                f"[0, {MAX_SEED}]; correct its row"
            )
        return named[0]

    def tier(self, tier: Tier) -> list[Reference]:
        """The references of one tier, in pool order."""
        return [r for r in self.references if r.tier is tier]

    @property
    def subject(self) -> str:
        """What the pool asks for by default: its declared subject, else its loved paintings'.

        Without a `pool.toml` subject, the subject most of the `love` paintings carry (the first
        in pool order on a tie); the project's default ("a peach hibiscus") for a pool whose
        paintings name none.
        """
        if self.declaration.subject:
            return self.declaration.subject
        loved = [r.subject for r in self.tier(Tier.LOVE) if r.subject]
        return max(loved, key=loved.count) if loved else DEFAULT_SUBJECT

    def coverage(self) -> SubjectCoverage:
        """The subjects this pool covers: its paintings' and those it declares."""
        return SubjectCoverage([r.subject for r in self.references] + self.declared_subjects)

    def counts(self) -> dict[str, int]:
        """Paintings per tier, e.g. {"love": 15, "okay": 20, "nope": 15}."""
        return {t.value: len(self.tier(t)) for t in Tier}

    @classmethod
    def load(cls, spec: str) -> Pool:
        """A pool from a folder path, or from a Hugging Face dataset `user/name[@revision]`.

        Raises:
            ConfigError: the pool cannot be read or fails validation.
        """
        path = Path(spec).expanduser()
        if path.exists():
            return cls.from_folder(path)
        if spec.count("/") == 1 and not spec.startswith((".", "/")):
            repo, _, revision = spec.partition("@")
            return cls.from_hub(repo, revision or None)
        raise ConfigError(f"no pool at {spec!r}: give a folder or a Hugging Face dataset id user/name[@revision]")

    @classmethod
    def from_folder(cls, folder: Path, hold_out: bool = True) -> Pool:
        """Reads `pool.jsonl`, the images and the sketches of a folder; unrated rows are left out.

        `hold_out=False` ignores the oracle `pool.toml` declares (every rated painting is then a
        reference), for the command that chooses the oracle anew.

        Raises:
            ConfigError: a missing manifest, an unreadable image or sketch, or failed validation.
        """
        folder = Path(folder)
        declaration = read_declaration(folder)
        if not hold_out:
            declaration = replace(declaration, oracle=None)
        rows = read_manifest(folder, declaration.subject or DEFAULT_SUBJECT)
        references = []
        for row in rows:
            if row.tier is None:
                continue
            try:
                png = (folder / row.image).read_bytes()
                check_image(png)
                sketch = (folder / row.sketch).read_text(encoding="utf-8")
            except (OSError, ValueError) as err:
                raise ConfigError(f"pool {folder}: painting {row.id}: {err}") from err
            references.append(Reference(row.id, row.tier, png, sketch, row.subject, row.author, row.seed, row.notes))
        return cls(references, source=str(folder), declared_subjects=declared_subjects(folder), declaration=declaration)

    @classmethod
    def from_rows(
        cls,
        rows: list[dict],
        source: str,
        declaration: PoolDeclaration | None = None,
        declared_subjects: list[str] | None = None,
    ) -> Pool:
        """A pool from dataset rows with an `image` (PIL image or PNG bytes) and the manifest fields."""
        declaration = declaration or PoolDeclaration()
        references = []
        for row in rows:
            if row.get("tier") is None or row.get("tier") == "":
                continue
            image = row["image"]
            if isinstance(image, Image.Image):
                buffer = io.BytesIO()
                image.save(buffer, format="PNG")
                png = buffer.getvalue()
            else:
                png = image["bytes"] if isinstance(image, dict) else bytes(image)
            try:
                check_image(png)
            except ValueError as err:
                raise ConfigError(f"pool {source}: painting {row.get('id')}: {err}") from err
            tier = row["tier"]
            references.append(
                Reference(
                    str(row["id"]),
                    Tier(TIER_NAMES[tier] if isinstance(tier, int) else tier),
                    png,
                    row.get("sketch", ""),
                    row.get("subject") or declaration.subject or DEFAULT_SUBJECT,
                    row.get("author", ""),
                    int(row.get("seed", 0)),
                    row.get("notes", ""),
                )
            )
        twice = [i for i, n in Counter(r.id for r in references).items() if n > 1]
        if twice:  # a folder's manifest refuses them by line
            raise ConfigError(f"the pool {source} has two paintings with the id {twice[0]!r}")
        return cls(references, source=source, declared_subjects=declared_subjects, declaration=declaration)

    @classmethod
    def from_hub(cls, repo_id: str, revision: str | None = None) -> Pool:
        """A pool from a Hugging Face dataset (split `train`), pinned by revision when given.

        The dataset's `pool.toml` and `subjects.txt`, when it has them, are read at the same
        revision. `repo_id` may also be a folder that `pool push --dry-run` wrote.

        Raises:
            ConfigError: `datasets` is missing or the dataset cannot be loaded.
        """
        try:
            import datasets
        except ImportError as err:
            raise ConfigError("loading a pool from the Hub needs the `datasets` package") from err
        try:
            dataset = datasets.load_dataset(repo_id, revision=revision, split="train")
            # the PNG bytes as uploaded, not a decoded and re-encoded image
            dataset = dataset.cast_column("image", datasets.Image(decode=False))
        except Exception as err:  # noqa: BLE001 (network, auth, missing repo: all a configuration problem here)
            raise ConfigError(f"could not load the pool dataset {repo_id}@{revision or 'main'}: {err}") from err
        source = f"{repo_id}@{revision or 'main'}"
        declared = _hub_file(repo_id, DECLARATION, revision, source)
        subjects = _hub_file(repo_id, DECLARED, revision, source)
        try:
            covered = [] if subjects is None else parse_subjects(subjects.decode("utf-8-sig"))
        except UnicodeDecodeError as err:
            raise ConfigError(f"{source}:{DECLARED} is not UTF-8 text: {err}") from err
        return cls.from_rows(
            list(dataset),
            source=source,
            declaration=parse_declaration(declared, f"{source}:{DECLARATION}") if declared else PoolDeclaration(),
            declared_subjects=covered,
        )


def _hub_file(repo_id: str, name: str, revision: str | None, source: str) -> bytes | None:
    """A file of a dataset (or of a dry run's folder) beside its data; None when it has none."""
    if Path(repo_id).is_dir():
        path = Path(repo_id) / name
        return path.read_bytes() if path.is_file() else None
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import EntryNotFoundError, LocalEntryNotFoundError

    try:
        path = hf_hub_download(repo_id, name, repo_type="dataset", revision=revision)
    except LocalEntryNotFoundError as err:  # offline or unreachable: not known to be absent
        raise ConfigError(f"could not read {name} of the pool dataset {source}: {err}") from err
    except EntryNotFoundError:  # the dataset has none
        return None
    except Exception as err:  # noqa: BLE001 (network, auth: a configuration problem here)
        raise ConfigError(f"could not read {name} of the pool dataset {source}: {err}") from err
    return Path(path).read_bytes()


def read_manifest(folder: Path, subject: str = DEFAULT_SUBJECT) -> list[PoolRow]:
    """The rows of `folder/pool.jsonl`; a row without a subject gets `subject`, the pool's.

    Raises:
        ConfigError: no manifest, one that is not text, a malformed row or an id seen twice (with
            its line number).
    """
    path = Path(folder) / MANIFEST
    if Path(folder).is_file():
        raise ConfigError(f"{folder} is a file: a pool is a folder of pool.jsonl, images/ and sketches/")
    if not path.is_file():
        raise ConfigError(f"{path} is missing: render the pool first (`watercolour pool render {folder}`)")
    rows, lines = [], {}
    for number, line in enumerate(read_text(path, "a pool.jsonl of JSON rows").splitlines(), start=1):
        if line.strip():
            try:
                rows.append(PoolRow.from_json(json.loads(line), subject))
            except (ValueError, TypeError) as err:
                raise ConfigError(f"{path}:{number}: {err}") from err
            if rows[-1].id in lines:
                raise ConfigError(f"{path}:{number}: id {rows[-1].id!r} is on line {lines[rows[-1].id]} already")
            lines[rows[-1].id] = number
    return rows


def write_manifest(folder: Path, rows: list[PoolRow]) -> None:
    """Writes `pool.jsonl` atomically (a crash leaves the old file or the new one, never half)."""
    path = Path(folder) / MANIFEST
    tmp = path.with_suffix(".jsonl.tmp")
    tmp.write_text("".join(json.dumps(r.to_json()) + "\n" for r in rows), encoding="utf-8")
    tmp.replace(path)


def check_image(png: bytes) -> None:
    """Raises ValueError unless `png` is a readable PNG image."""
    try:
        with Image.open(io.BytesIO(png)) as image:
            if image.format != "PNG":
                raise ValueError(f"not a PNG image but {image.format}")
            image.verify()
    except ValueError:
        raise
    except Exception as err:  # noqa: BLE001 (PIL raises many types for a broken file)
        raise ValueError(f"unreadable image: {err}") from err

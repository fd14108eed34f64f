"""A pool to and from a Hugging Face dataset, with its card.

`--dry-run` writes exactly what would be uploaded (a Parquet shard, README.md and the pool's
`pool.toml`) to a local folder instead.
"""

from __future__ import annotations

import logging
from pathlib import Path

from watercolour_env.errors import ConfigError
from watercolour_env.pool import Pool, PoolRow, write_manifest
from watercolour_env.pool.declaration import DECLARATION, write_declaration
from watercolour_env.pool.subjects import DECLARED, write_subjects
from watercolour_env.terms import TIER_NAMES

log = logging.getLogger(__name__)

SHARD = "data/train-00000-of-00001.parquet"


def pool_dataset(pool: Pool):  # noqa: ANN201 (datasets is imported lazily)
    """The pool as a `datasets.Dataset`: id, tier, image (PNG), sketch, subject, author, seed, notes."""
    import datasets

    features = datasets.Features(
        {
            "id": datasets.Value("string"),
            "tier": datasets.ClassLabel(names=list(TIER_NAMES)),
            "image": datasets.Image(),
            "sketch": datasets.Value("string"),
            "subject": datasets.Value("string"),
            "author": datasets.Value("string"),
            "seed": datasets.Value("int64"),
            "notes": datasets.Value("string"),
        }
    )
    rows = [
        {
            "id": r.id,
            "tier": r.tier.value,
            "image": {"bytes": r.png, "path": f"{r.id}.png"},
            "sketch": r.sketch,
            "subject": r.subject,
            "author": r.author,
            "seed": r.seed,
            "notes": r.notes,
        }
        for r in pool.rated
    ]
    return datasets.Dataset.from_list(rows, features=features)


def dataset_card(pool: Pool, folder: Path | None) -> str:
    """The pool's own card (README.md of its folder) or a short generated one."""
    if folder is not None and (folder / "README.md").is_file():
        return (folder / "README.md").read_text(encoding="utf-8")
    counts = ", ".join(f"{n} {tier}" for tier, n in pool.counts().items())
    if pool.oracle is not None:
        counts += f", and {pool.oracle.id}, a love painting held out as the deployment's oracle (pool.toml)"
    return (
        "---\nlicense: apache-2.0\ntags: [watercolour, p5.brush, reference-pool]\n---\n\n"
        f"# Watercolour reference pool: {pool.subject}\n\n"
        f"Hand-rated paintings of {pool.subject} ({counts}) for the watercolour environment. "
        f"An episode asks for {pool.subject!r} unless reset names another subject.\n"
    )


def push(
    folder: Path, repo_id: str, dry_run: Path | None = None, private: bool = False
) -> tuple[list[Path], str | None]:
    """Uploads a pool folder as a dataset with its card, or writes the upload to `dry_run`.

    A `pool.toml` or `subjects.txt` the folder no longer has is removed from the dataset (and from
    a dry run's folder), so a pool pinned at the new revision does not read an old declaration.

    Returns:
        The files written (dry run) or uploaded, as paths relative to the dataset root, and the
        revision (commit id) the upload made, to pin as `repo_id@revision`; None in a dry run.

    Raises:
        ConfigError: the folder is not a valid pool, or `repo_id` is not an id the Hub accepts.
    """
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    try:
        validate_repo_id(repo_id)
    except HFValidationError as err:
        raise ConfigError(f"{repo_id!r} is not a Hub dataset id (user/name): {err}") from err
    pool = Pool.from_folder(folder)
    dataset = pool_dataset(pool)
    card = dataset_card(pool, folder)
    files = {"README.md": card.encode()}
    declaration = pool.declaration.to_toml()
    if declaration:
        files[DECLARATION] = declaration.encode()
    if pool.declared_subjects:
        files[DECLARED] = "".join(f"{subject}\n" for subject in pool.declared_subjects).encode()
    stale = [name for name in (DECLARATION, DECLARED) if name not in files]  # a pool that no longer declares them
    if dry_run is not None:
        (dry_run / "data").mkdir(parents=True, exist_ok=True)
        dataset.to_parquet(str(dry_run / SHARD))
        for name, content in files.items():
            (dry_run / name).write_bytes(content)
        for name in stale:
            (dry_run / name).unlink(missing_ok=True)
        return [Path(SHARD), *map(Path, files)], None
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi

    api = HfApi()
    dataset.push_to_hub(repo_id, private=private)
    operations = [CommitOperationAdd(path_in_repo=name, path_or_fileobj=content) for name, content in files.items()]
    operations += [
        CommitOperationDelete(path_in_repo=name)
        for name in stale
        if api.file_exists(repo_id, name, repo_type="dataset")
    ]
    commit = api.create_commit(
        repo_id, operations, commit_message="The pool's card and declaration", repo_type="dataset"
    )
    return [Path(SHARD), *map(Path, files)], commit.oid


def write_folder(pool: Pool, folder: Path) -> None:
    """Writes a pool (from anywhere, e.g. the Hub) as a pool folder."""
    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "sketches").mkdir(exist_ok=True)
    rows = []
    for r in pool.rated:
        (folder / "images" / f"{r.id}.png").write_bytes(r.png)
        (folder / "sketches" / f"{r.id}.js").write_text(r.sketch, encoding="utf-8")
        rows.append(PoolRow.at(r.id, tier=r.tier, subject=r.subject, author=r.author, seed=r.seed, notes=r.notes))
    write_manifest(folder, rows)
    write_declaration(folder, pool.declaration)
    write_subjects(folder, pool.declared_subjects)

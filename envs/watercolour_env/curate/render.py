"""Tools to build a pool: render a folder of sketches, and see it at a glance on contact sheets."""

from __future__ import annotations

import hashlib
import io
import json
import logging
import statistics
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

from PIL import Image, ImageDraw
from tqdm import tqdm

from watercolour_env.errors import ConfigError
from watercolour_env.pool import PoolRow, Tier, read_manifest, write_manifest
from watercolour_env.pool.declaration import DECLARATION, PoolDeclaration, read_declaration, write_declaration
from watercolour_env.pool.loader import MANIFEST
from watercolour_env.pool.subjects import SubjectCoverage, declared_subjects
from watercolour_env.server.gate import DEFAULT_PAINT_FLOOR, GateResult, check_render, check_source, sandbox_detail
from watercolour_env.server.sandbox import Renderer, RenderResult, RenderStatus, paint_fraction
from watercolour_env.terms import Violation

log = logging.getLogger(__name__)

THUMB_PX = 200
SHEET_COLUMNS = 6


@dataclass
class RenderSummary:
    """What `render_folder` did: ids rendered, skipped as up to date, and failed with a reason."""

    rendered: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)


def pool_subject(folder: Path, asked: str | None = None) -> str:
    """What a pool folder's new paintings are of: `asked`, else its `pool.toml`'s, else its rows'.

    The rows' subject counts only when every row of `pool.jsonl` names the same one. A subject
    found here and not yet declared is written to `pool.toml`, so the next render, the loader,
    `sft` and `pool push` all read it from there.

    `asked` names what new paintings are of; rows already in `pool.jsonl` keep theirs. So when
    every sketch is a row already and none of them is of `asked` (nor `subjects.txt` names it), it
    is refused, and nothing written: declared, it would make a pool the server refuses to serve
    ("declares the subject ..., but its paintings are of ...", issue 54).

    Raises:
        ConfigError: no subject can be told (a new folder rendered without `--subject`), the one
            given is out of a reset's bounds, or it is of no painting the folder will hold.
    """
    folder = Path(folder)
    declared = read_declaration(folder)
    subject = asked or declared.subject
    if subject is None and (folder / MANIFEST).is_file():
        named = {row.subject for row in read_manifest(folder, subject="")}
        subject = named.pop() if len(named) == 1 else None
    else:
        named = set()
    if asked and (folder / MANIFEST).is_file():
        _refuse_a_subject_of_no_painting(folder, asked)
    if not subject:
        rows = f" (its rows name {', '.join(repr(n) for n in sorted(named))})" if len(named) > 1 else ""
        raise ConfigError(
            f"say what the paintings of {folder} are of{rows}: "
            f"`watercolour pool render {folder} --subject 'a jellyfish'` (kept in {folder / DECLARATION})"
        )
    try:
        if declared.subject is None:
            write_declaration(folder, replace(declared, subject=subject))
        else:
            PoolDeclaration(subject)
    except ValueError as err:
        raise ConfigError(f"--subject: {err}") from err
    return subject


def _refuse_a_subject_of_no_painting(folder: Path, asked: str) -> None:
    """Raises ConfigError when every sketch of `folder` is a row already and none is of `asked`."""
    rows = read_manifest(folder, subject="")
    new = [p for p in (folder / "sketches").glob("*.js") if p.stem not in {r.id for r in rows}]
    of = Counter(r.subject for r in rows)
    if new or not rows or SubjectCoverage([*of, *declared_subjects(folder)]).covers(asked):
        return
    kept = ", ".join(f"{n} of {s!r}" for s, n in of.most_common())
    raise ConfigError(
        f"--subject {asked!r} names what new paintings of {folder} are of, and every sketch there is a painting "
        f"already: {kept} ({MANIFEST}). Nothing was written. To say they are of {asked!r}, change the rows' "
        f'"subject" in {folder / MANIFEST}; to add paintings of {asked!r}, put their sketches in '
        f"{folder / 'sketches'} first"
    )


def kept_subjects(folder: Path, asked: str) -> dict[str, int]:
    """Paintings per subject among the rows of `folder` that are not of `asked` (after a render)."""
    if not (folder / MANIFEST).is_file():
        return {}
    of = Counter(r.subject for r in read_manifest(folder, subject=""))
    return {s: n for s, n in of.most_common() if not SubjectCoverage([s]).covers(asked)}


def render_folder(
    folder: Path,
    renderer: Renderer,
    seed: int = 0,
    paint_floor: float = DEFAULT_PAINT_FLOOR,
    subject: str | None = None,
) -> RenderSummary:
    """Renders every `sketches/*.js` of a pool folder into `images/`, updating `pool.jsonl`.

    A sketch is judged by the environment's own gate (source checks, then the render's): one the
    gate rejects (blank, an error, paint that is not the ten brush methods) is named in `failed`
    and never becomes a painting to rate, since the policy could not have painted it.

    Resumable: a sketch rendered before with the same source and seed is skipped (`RENDERED`),
    and the manifest keeps every existing row's tier and notes. Renders run in parallel on the renderer's workers.

    The folder and the subject are checked before the renderer starts, and a folder with nothing
    new to render never starts it: no Chromium is needed to be told what is wrong with a folder.

    Args:
        folder: the pool folder (with a `sketches/` subfolder).
        renderer: a started or startable renderer.
        seed: render seed for new rows (existing rows keep theirs).
        paint_floor: paint fraction under which a render counts as blank (the gate's floor).
        subject: what new rows are of; the pool's when None (`pool_subject`).

    Raises:
        ConfigError: the folder has no `sketches/*.js`, or no subject can be told.
        RenderError: there are sketches to render and Chromium cannot be started.
    """
    folder = Path(folder)
    sketches = sorted((folder / "sketches").glob("*.js"))
    if not sketches:
        raise ConfigError(f"no sketches/*.js in {folder}: put the pool's sketches there first")
    subject = pool_subject(folder, subject)
    (folder / "images").mkdir(exist_ok=True)
    rows = {r.id: r for r in read_manifest(folder, subject)} if (folder / MANIFEST).exists() else {}
    summary = RenderSummary()
    record = folder / "images" / RENDERED
    rendered: dict[str, str] = json.loads(record.read_text()) if record.is_file() else {}
    todo = []
    for path in sketches:
        image = folder / "images" / f"{path.stem}.png"
        same = rendered.get(path.stem) == _fingerprint(path, rows[path.stem].seed) if path.stem in rows else False
        newer = path.stem not in rendered and image.exists() and image.stat().st_mtime >= path.stat().st_mtime
        if image.exists() and path.stem in rows and (same or newer):
            summary.skipped.append(path.stem)
        else:
            todo.append(path)

    if todo:
        renderer.start()

    def render_one(path: Path) -> tuple[Path, GateResult | None]:
        row_seed = rows[path.stem].seed if path.stem in rows else seed
        try:
            source = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            return path, None  # not text: named among the failed
        gate = check_source(source)
        if gate.passed:
            gate = check_render(gate, renderer.render(gate.sketch or "", seed=row_seed), paint_floor)
        return path, gate

    with ThreadPoolExecutor(max_workers=renderer.workers) as pool:
        for path, gate in tqdm(pool.map(render_one, todo), total=len(todo), desc="rendering", unit="sketch"):
            if gate is None:
                summary.failed[path.stem] = "not UTF-8 text"
                continue
            result = gate.render
            if not gate.passed or result is None or result.png is None:
                summary.failed[path.stem] = _why_failed(gate)
                continue
            (folder / "images" / f"{path.stem}.png").write_bytes(result.png)
            row = rows.get(path.stem) or PoolRow.at(path.stem, subject=subject, seed=seed)
            rows[path.stem] = row
            summary.rendered.append(path.stem)
            write_manifest(folder, [rows[k] for k in sorted(rows)])
            rendered[path.stem] = _fingerprint(path, row.seed)
            record.write_text(json.dumps(rendered, indent=0, sort_keys=True))
    if not todo:
        write_manifest(folder, [rows[k] for k in sorted(rows)])
    return summary


RENDERED = ".rendered.json"
"""`images/.rendered.json`: each painting's `_fingerprint` when it was rendered. A sketch whose
source and seed are unchanged is not rendered again, whatever its file's time says (a copy or a
checkout touches it); one without a fingerprint falls back to "the PNG is newer than the sketch"."""


def _fingerprint(path: Path, seed: int) -> str:
    """sha256 of a sketch file's bytes and its render seed."""
    return hashlib.sha256(path.read_bytes() + f"\0{seed}".encode()).hexdigest()


def _why_failed(gate: GateResult) -> str:
    """One line: "blank canvas (paint fraction 0.0001)", "render_timeout: ...", "gate: bare primitive, ..."."""
    render: RenderResult | None = gate.render
    if gate.infra_failure and render is not None:
        return f"{render.status.value}: {render.detail or '; '.join(render.js_errors)}"
    if Violation.BLANK_CANVAS in gate.violations and render is not None:
        return f"blank canvas (paint fraction {render.paint_fraction:.4f})"
    if render is not None and render.status in (RenderStatus.SKETCH_ERROR, RenderStatus.TIMEOUT):
        return f"{render.status.value}: {render.detail or '; '.join(render.js_errors)}"
    names = ", ".join(v.value.replace("_", " ") for v in gate.violations)
    blocked = sandbox_detail(render) if render is not None else ""
    return f"the gate rejects it: {names}" + (f"; {blocked}" if blocked else "")


def contact_sheets(folder: Path) -> dict[str, object]:
    """Writes `sheets/<tier>.png` (and `sheets/unrated.png`, `sheets/oracle.png`) and `sheets/summary.json`.

    The painting `pool.toml` holds out as the oracle is counted and shown apart from its tier, as
    the loader keeps it out of the references.

    Returns:
        The summary: paintings per tier, "unrated" (and "oracle" when pool.toml declares one)
        and the paint-fraction distribution (min, median, max) per group.
    """
    folder = Path(folder)
    rows = read_manifest(folder)
    oracle = read_declaration(folder).oracle
    (folder / "sheets").mkdir(exist_ok=True)
    summary: dict[str, object] = {"counts": {}, "paint_fraction": {}}
    groups = {t.value: [r for r in rows if r.tier is t and r.id != oracle] for t in Tier}
    groups["unrated"] = [r for r in rows if r.tier is None and r.id != oracle]
    if oracle is not None:
        groups["oracle"] = [r for r in rows if r.id == oracle]
    for name, group in groups.items():
        summary["counts"][name] = len(group)  # type: ignore[index]
        if not group:
            (folder / "sheets" / f"{name}.png").unlink(missing_ok=True)
            continue
        fractions = []
        thumbs = []
        for row in group:
            png = (folder / row.image).read_bytes()
            fractions.append(paint_fraction(png))
            thumbs.append((row.id, Image.open(io.BytesIO(png)).convert("RGB").resize((THUMB_PX, THUMB_PX))))
        summary["paint_fraction"][name] = {  # type: ignore[index]
            "min": round(min(fractions), 4),
            "median": round(statistics.median(fractions), 4),
            "max": round(max(fractions), 4),
        }
        sheet(thumbs, f"{name} ({len(group)})").save(folder / "sheets" / f"{name}.png")
    (folder / "sheets" / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def sheet(thumbs: list[tuple[str, Image.Image]], title: str) -> Image.Image:
    """A grid of labelled thumbnails under a title."""
    label_px, title_px, pad = 16, 28, 8
    cols = min(SHEET_COLUMNS, len(thumbs))
    rows = (len(thumbs) + cols - 1) // cols
    cell_w, cell_h = THUMB_PX + pad, THUMB_PX + label_px + pad
    sheet = Image.new("RGB", (cols * cell_w + pad, title_px + rows * cell_h + pad), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    draw.text((pad, 8), title, fill=(0, 0, 0))
    for i, (name, thumb) in enumerate(thumbs):
        x, y = pad + (i % cols) * cell_w, title_px + (i // cols) * cell_h
        sheet.paste(thumb, (x, y))
        draw.text((x, y + THUMB_PX + 2), name[:32], fill=(60, 60, 60))
    return sheet

"""A run's paintings rebuilt from its sketches, and the picture of its thirds.

Renders are deterministic (the sketch and the episode seed fix the painting), so a run's record
needs no PNGs: `watercolour gallery RUN --render` paints what is missing again, into the
`paintings/` folder beside `rollouts.jsonl`, under the trainer's own names. Which rasteriser made
it is printed: a run scored on SwiftShader (the lent H200) and rebuilt on Mesa (this machine)
differs by a mean of 0.15 levels of 255 (docs/LOG.md, 2026-12-04 fourth session), not byte for byte.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PIL import Image, ImageDraw
from tqdm.auto import tqdm

log = logging.getLogger(__name__)

TILE_PX = 240
"""Side of one painting in the picture of the thirds."""
ROWS = ("best", "median", "worst")


def painting_name(row: dict) -> str:
    """The trainer's file name for a rollout's painting, e.g. "paintings/step0003-g01-p05.png"."""
    return f"paintings/step{row['step']:04d}-g{row['group']:02d}-p{row['position']:02d}.png"


def turn_name(row: dict, turn: int) -> str:
    """The file name of turn `turn` (1-based) of an episode with revisions, e.g. "paintings/step0003-g01-p05-t1.png".

    The last turn's painting is the rollout's own (`painting_name`); earlier ones get this name.
    """
    return painting_name(row).removesuffix(".png") + f"-t{turn}.png"


def earlier_turns(row: dict) -> list[tuple[int, dict]]:
    """(turn number, turn) of every painting of an episode with revisions but its last; [] without."""
    turns = row.get("turns") or []
    return list(enumerate(turns[:-1], start=1))


def with_paintings(rows: list[dict], folder: Path) -> list[dict]:
    """The rows, each `image` set to its painting when that file is in `folder` (None otherwise).

    With revisions, each earlier turn's `image` is set the same way (`turn_name`).
    """
    out = []
    for row in rows:
        row = row | {"image": painting_name(row) if (folder / painting_name(row)).is_file() else None}
        if row.get("turns"):
            turns = [dict(t) for t in row["turns"]]
            for n, turn in enumerate(turns[:-1], start=1):
                turn["image"] = turn_name(row, n) if (folder / turn_name(row, n)).is_file() else None
            row["turns"] = turns
        out.append(row)
    return out


def render_missing(rows: list[dict], folder: Path, workers: int = 2) -> tuple[int, str]:
    """Renders every scored rollout whose painting is not in `folder`; returns (how many, the renderer).

    With revisions, an episode's earlier paintings that passed the gate are rendered too (`turn_name`).

    Each is rendered with its episode seed by a `Renderer` made from the server's settings
    (`WATERCOLOUR_CHROMIUM_PATH` and the rest). A sketch that no longer renders is logged and skipped.

    Raises:
        ConfigError: a setting is wrong (through `load_settings`).
    """
    from watercolour_env.server.sandbox import Renderer, RenderStatus
    from watercolour_env.server.settings import load_settings

    todo = [(r, r["sketch"], painting_name(r)) for r in rows if r.get("status") == "scored" and r.get("sketch")]
    for row in rows:  # an episode's earlier paintings that passed the gate
        passed = [(n, t) for n, t in earlier_turns(row) if t.get("sketch") and not t.get("violations")]
        todo += [(row, t["sketch"], turn_name(row, n)) for n, t in passed]
    todo = [(r, sketch, name) for r, sketch, name in todo if not (folder / name).is_file()]
    if not todo:
        return 0, ""
    settings = load_settings()
    (folder / "paintings").mkdir(parents=True, exist_ok=True)
    with Renderer.from_settings(settings, workers=workers) as renderer:

        def one(job: tuple[dict, str, str]) -> str:
            row, sketch, name = job
            result = renderer.render(sketch, seed=row["seed"])
            if result.status is RenderStatus.OK and result.png:
                (folder / name).write_bytes(result.png)
            else:
                log.warning("%s did not render again: %s", name, result.status.value)
            return result.renderer

        with ThreadPoolExecutor(workers) as pool:
            renderers = list(tqdm(pool.map(one, todo), total=len(todo), desc="rendering", unit="painting"))
    return len(todo), renderers[-1] if renderers else ""


def thirds_picture(rows: list[dict], folder: Path, parts: list[list[int]], out: Path) -> Path | None:
    """Writes a 3x3 picture: columns the first, middle and last thirds, rows their best, median and worst.

    Chosen by reward among each third's scored rollouts (the median is the lower middle one);
    those whose painting is not in `folder` are rendered there first (`render_missing`). Each tile
    is captioned with its reward and step. None when no third has a scored rollout.
    """
    columns = []
    for part in parts:
        scored = sorted(
            (r for r in rows if r["step"] in part and r.get("status") == "scored" and r.get("sketch")),
            key=lambda r: -r["reward"],
        )
        columns.append([scored[0], scored[(len(scored) - 1) // 2], scored[-1]] if scored else [])
    if not any(columns):
        return None
    render_missing([row for column in columns for row in column], folder)
    caption = 28
    picture = Image.new("RGB", (3 * TILE_PX, 3 * (TILE_PX + caption) + caption), (255, 255, 255))
    draw = ImageDraw.Draw(picture)
    for c, (name, column) in enumerate(zip(("first third", "middle third", "last third"), columns, strict=True)):
        # the third's own best, median and worst painting (the table's best and median are per-step means)
        steps = parts[c]
        draw.text((c * TILE_PX + 8, 8), f"{name}: steps {steps[0]} to {steps[-1]}" if steps else name, fill=(0, 0, 0))
        for r, row in enumerate(column):
            top = caption + r * (TILE_PX + caption)
            if (folder / painting_name(row)).is_file():
                tile = Image.open(folder / painting_name(row)).convert("RGB")
                picture.paste(tile.resize((TILE_PX, TILE_PX), Image.Resampling.LANCZOS), (c * TILE_PX, top))
            draw.text(
                (c * TILE_PX + 8, top + TILE_PX + 6),
                f"{ROWS[r]}: {row['reward']:.3f} (step {row['step']})",
                fill=(60, 60, 60),
            )
    picture.save(out)
    return out

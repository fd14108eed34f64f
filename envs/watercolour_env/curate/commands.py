"""`watercolour pool ...`: build, rate, publish and split a reference pool.

Mounted on the environment's command line by `watercolour_env.cli`; these commands sit above the
server (they render through its sandbox and score with its reward) and nothing below imports them.
"""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import typer

from watercolour_env.curate.split import split_command
from watercolour_env.limits import MAX_SEED
from watercolour_env.pool import STARTER_POOL

pool_app = typer.Typer(help="Build a reference pool: render sketches, see the tiers at a glance.", no_args_is_help=True)


@pool_app.callback()
def _pool() -> None:
    from watercolour_env.errors import require_extra

    require_extra("server")


@pool_app.command("render")
def pool_render(
    folder: Path = typer.Argument(..., exists=True, file_okay=False, help="Pool folder with sketches/*.js."),
    workers: int = typer.Option(None, min=1, max=64, help="Parallel renders, 1-64; the CPU count when omitted."),
    seed: int = typer.Option(0, min=0, max=MAX_SEED, help="Render seed of new paintings, in [0, 2**32)."),
    subject: str = typer.Option(
        None,
        help="What the paintings are of, e.g. 'a jellyfish'; kept in FOLDER/pool.toml. Its pool.toml's when omitted.",
    ),
) -> None:
    """Render every sketch of a pool folder (parallel, resumable) and update pool.jsonl.

    New rows carry the pool's subject (--subject, or pool.toml's); rows already there keep theirs,
    and the command says so. A --subject no painting will be of is refused (exit 2), writing
    nothing. A sketch the environment's gate rejects is left out of the pool and named; then the
    exit code is 1.
    """
    from watercolour_env.curate.render import render_folder
    from watercolour_env.server.sandbox import Renderer
    from watercolour_env.server.settings import load_settings

    settings = load_settings()
    # not started here: render_folder checks the folder first, and starts Chromium only for work
    with closing(Renderer.from_settings(settings, **({"workers": workers} if workers else {}))) as renderer:
        summary = render_folder(folder, renderer, seed=seed, subject=subject)
    typer.echo(f"rendered {len(summary.rendered)}, up to date {len(summary.skipped)}, failed {len(summary.failed)}")
    if subject:
        from watercolour_env.curate.render import kept_subjects

        for other, n in kept_subjects(folder, subject).items():
            typer.echo(f"kept {n} paintings of {other!r} as pool.jsonl says (--subject names new paintings only)")
    for name, reason in summary.failed.items():
        typer.echo(f"  {name}: {reason}")
    if summary.failed:
        typer.echo(
            f"error: {len(summary.failed)} sketches were left out of the pool (above); fix or remove them", err=True
        )
        raise typer.Exit(1)


@pool_app.command("add")
def pool_add(
    run_dir: Path = typer.Argument(None, exists=True, file_okay=False, help="A run's output_dir (or rollouts/)."),
    into: Path = typer.Option(..., "--into", file_okay=False, help="The pool folder; created when missing."),
    min_reward: float = typer.Option(0.0, min=0.0, max=1.0, help="Least reward a painting needs."),
    off_subject: int = typer.Option(
        None, min=1, max=27, help="Instead of a run: N paintings of other things than the pool's subject, to rate nope."
    ),
) -> None:
    """Add a run's scored paintings, or off-subject ones, to a pool unrated (then: watercolour pool rate POOL)."""
    from watercolour_env.curate.collect import add_off_subject, add_rollouts

    if (run_dir is None) == (off_subject is None):
        typer.echo("error: give a run's folder or --off-subject N, one of the two", err=True)
        raise typer.Exit(2)
    summary = add_rollouts(run_dir, into, min_reward) if run_dir else add_off_subject(into, off_subject)
    left_out = ", ".join(f"{n} {why}" for why, n in sorted(summary.left_out.items())) or "none"
    typer.echo(
        f"added {len(summary.added)} unrated paintings to {into}, already there {len(summary.present)}, "
        f"left out: {left_out}"
    )
    if summary.added:
        typer.echo(f"rate them: watercolour pool rate {into}")


@pool_app.command("rate")
def pool_rate(
    folder: Path = typer.Argument(..., exists=True, file_okay=False, help="A rendered pool folder."),
    port: int = typer.Option(8765, min=1, max=65535, help="Port on 127.0.0.1."),
    show_ids: bool = typer.Option(False, help="Show file ids and notes (the page is blind by default)."),
) -> None:
    """Rate a pool in the browser: 1 love, 2 okay, 3 nope, u undo, s skip, n note; saved on every key."""
    import uvicorn

    from watercolour_env.curate.rating import rating_app
    from watercolour_env.server.app import refuse_a_taken_address

    refuse_a_taken_address("127.0.0.1", port, port_flag="--port")
    rating = rating_app(folder, blind=not show_ids)  # a pool that does not load is refused before the URL
    typer.echo(f"Open http://127.0.0.1:{port}/ to rate {folder}; Ctrl+C to stop (ratings are already saved).")
    uvicorn.run(rating, host="127.0.0.1", port=port, log_level="warning")


def _endpoint_token(base_url: str, api_key_env: str, who: tuple[str, str]) -> str | None:
    """The token in `api_key_env`; refuses at once when the Hugging Face router would need one and it is unset.

    `who` names the caller and its verb for the refusal, e.g. ("the judge", "needs").
    """
    import os

    from watercolour_env.errors import ConfigError

    token = os.environ.get(api_key_env)
    if not token and "huggingface.co" in base_url:
        raise ConfigError(
            f"{who[0]} at {base_url} {who[1]} a token: set {api_key_env} (or name one with --api-key-env)"
        )
    return token


@pool_app.command("generate")
def pool_generate(
    out: Path = typer.Argument(..., file_okay=False, help="Output folder (an unrated pool)."),
    model: list[str] = typer.Option(..., "--model", help="Painter model; repeat for several."),
    base_url: str = typer.Option("https://router.huggingface.co/v1", help="OpenAI-compatible endpoint."),
    api_key_env: str = typer.Option("HF_TOKEN", help="Environment variable holding the endpoint's token."),
    critic_model: str = typer.Option(None, help="Vision model that critiques each render; off when omitted."),
    rounds: int = typer.Option(1, min=1, help="Refinement rounds per sketch (needs --critic-model)."),
    per_model: int = typer.Option(4, min=1, help="Sketches per painter model."),
    subject: str = typer.Option(
        None, help="What to paint; kept in OUT/pool.toml the first time, read from it after (as pool render)."
    ),
) -> None:
    """Generate candidate sketches with chat models, refine them with a critic, render and gate them.

    The painters are prompted as the environment prompts a policy for OUT's pool: its subject
    and the hint of its pool.toml.
    """
    from openai import OpenAI

    from watercolour_env.curate.generate import Generator
    from watercolour_env.curate.render import pool_subject
    from watercolour_env.server.sandbox import Renderer
    from watercolour_env.server.settings import load_settings

    token = _endpoint_token(base_url, api_key_env, ("the painter models", "need"))
    out.mkdir(parents=True, exist_ok=True)
    subject = pool_subject(out, subject)
    settings = load_settings()
    client = OpenAI(base_url=base_url, api_key=token or "none", max_retries=3, timeout=300)
    with Renderer.from_settings(settings) as renderer:
        candidates = Generator(client, renderer, out, critic_model=critic_model).run(model, subject, per_model, rounds)
    passed = sum(c.passed for c in candidates)
    typer.echo(
        f"{len(candidates)} candidates, {passed} passed the gate -> {out} (rate them: watercolour pool rate {out})"
    )


@pool_app.command("calibrate")
def pool_calibrate(
    rollouts: Path = typer.Argument(..., exists=True, file_okay=False, help="A run's rollouts folder."),
    pool: str = typer.Option(str(STARTER_POOL), help="The pool: a folder or user/name@revision."),
    judge_model: str = typer.Option("Qwen/Qwen3-VL-30B-A3B-Instruct", help="Vision-language judge."),
    base_url: str = typer.Option("https://router.huggingface.co/v1", help="OpenAI-compatible endpoint."),
    api_key_env: str = typer.Option("HF_TOKEN", help="Environment variable holding the endpoint's token."),
    limit: int = typer.Option(16, min=1, help="Rollout paintings to use, the most recent."),
) -> None:
    """How often a policy's rollouts beat each reference under the judge (too easy? too hard?).

    Exits 2 without a token for the Hugging Face router, 3 when the judge resolved no comparison.
    """
    from openai import OpenAI

    from watercolour_env.curate.calibrate import calibrate, rollout_paintings, write_report
    from watercolour_env.errors import ConfigError
    from watercolour_env.pool import Pool
    from watercolour_env.server.reward.pairwise import PairwiseJudge

    token = _endpoint_token(base_url, api_key_env, ("the judge", "needs"))
    paintings = rollout_paintings(rollouts, limit)
    if not paintings:
        raise ConfigError(f"no paintings in {rollouts / 'paintings'}: give a run's rollouts folder")
    client = OpenAI(base_url=base_url, api_key=token or "none", max_retries=3, timeout=120)
    results = calibrate(Pool.load(pool), paintings, PairwiseJudge(client, judge_model))
    for r in results:
        rate = "unavailable" if r.rollout_win_rate is None else f"{r.rollout_win_rate:.2f}"
        typer.echo(f"{r.id:<28} {r.tier:<5} rollouts win {rate} ({r.resolved}/{r.comparisons} resolved)")
    write_report(results, rollouts / "calibration.json")
    typer.echo(f"report: {rollouts / 'calibration.json'}")
    if results and not any(r.resolved for r in results):
        typer.echo(
            f"error: the judge {judge_model} at {base_url} resolved no comparison; check the endpoint, "
            "the model and its token",
            err=True,
        )
        raise typer.Exit(3)


@pool_app.command("oracle")
def pool_oracle(
    folder: Path = typer.Argument(..., exists=True, file_okay=False, help="A rated pool folder."),
    painting: str = typer.Option(None, "--id", help="Hold out this love painting instead of the best."),
) -> None:
    """Choose the love painting to hold out as the Space's oracle and write it into pool.toml.

    Judges each love painting as its episode would be, by the copy guard and the reward built on
    the rest of the pool (as WATERCOLOUR_* settings configure the server), and holds out the best
    that is no copy, or --id; an oracle line already in pool.toml is replaced. Exits 1 when the
    one held out scores under 0.9, the floor a Space's oracle must reach, or when every love
    painting is a copy of another (nothing written); 3 when a scorer gave it no verdict (nothing
    written).
    """
    from watercolour_env.audit.oracle import ORACLE_FLOOR
    from watercolour_env.curate.oracle import declare_oracle, held_out_rewards
    from watercolour_env.errors import ConfigError
    from watercolour_env.pool import Pool, Tier
    from watercolour_env.server.settings import load_settings

    pool = Pool.from_folder(folder, hold_out=False)
    if painting is not None and painting not in {r.id for r in pool.rated if r.tier is Tier.LOVE}:
        raise ConfigError(f"--id {painting}: no love painting of {folder} has that id")
    settings = load_settings(pool=str(folder))
    if not settings.copy_guard:
        typer.echo(
            "warning: WATERCOLOUR_COPY_GUARD=false here, so no painting is judged a copy; a deployment with the guard "
            "on may score the oracle chosen now 0",
            err=True,
        )
    results = held_out_rewards(pool, settings)
    for held in results:
        shown = "unscored" if held.reward is None else f"{held.reward:.3f}"
        typer.echo(f"{held.id:<28} {shown}{f'  {held.copy_of}' if held.copy_of else ''}")
    chosen = next((h for h in results if h.id == painting or (painting is None and h.copy_of is None)), None)
    if chosen is None or chosen.copy_of is not None:
        typer.echo(
            f"error: {'every love painting' if chosen is None else painting} of {folder} is a copy of another to the "
            "copy guard (one template, other numbers), so held out it scores 0; write one more love painting "
            "in code of its own, render and rate it, then `watercolour pool oracle FOLDER --id ID` (docs/pool.md)",
            err=True,
        )
        raise typer.Exit(1)
    if chosen.reward is None:
        typer.echo(
            f"error: a scorer gave {chosen.id} no verdict, so nothing was written; check the scorers this "
            "reward weighs (WATERCOLOUR_* settings; `watercolour -v serve` logs them) and run it again",
            err=True,
        )
        raise typer.Exit(3)
    declare_oracle(folder, chosen.id)
    typer.echo(
        f"oracle = {chosen.id!r} ({chosen.reward:.3f} held out) -> {folder / 'pool.toml'}; it is no longer a reference"
    )
    if chosen.reward < ORACLE_FLOOR:
        typer.echo(
            f"warning: {chosen.id} scores {chosen.reward:.3f} held out, under the {ORACLE_FLOOR} a Space's oracle must "
            "reach: the pool's taste does not yet reach beyond its own paintings; rate more (docs/pool.md, how many)",
            err=True,
        )
        raise typer.Exit(1)


@pool_app.command("push")
def pool_push(
    folder: Path = typer.Argument(..., exists=True, file_okay=False, help="A rated pool folder."),
    repo_id: str = typer.Argument(..., help="Dataset id user/name on the Hugging Face Hub."),
    dry_run: Path = typer.Option(None, help="Write what would be uploaded to this folder instead."),
    private: bool = typer.Option(False, help="Create the dataset private."),
) -> None:
    """Upload a pool as a Hugging Face dataset with its card (token from HF_TOKEN or the cache)."""
    from watercolour_env.curate.hub import push

    files, revision = push(folder, repo_id, dry_run=dry_run, private=private)
    where = dry_run if dry_run is not None else f"https://huggingface.co/datasets/{repo_id}"
    typer.echo(f"{'wrote' if dry_run else 'uploaded'} {', '.join(map(str, files))} -> {where}")
    if revision:
        typer.echo(f"pin it: WATERCOLOUR_POOL={repo_id}@{revision}, or deploy it: --pool {repo_id}@{revision}")
    else:
        typer.echo(f"a real push prints the commit to pin, for WATERCOLOUR_POOL or --pool {repo_id}@COMMIT")


@pool_app.command("pull")
def pool_pull(
    spec: str = typer.Argument(
        ..., help="A Hub dataset user/name, or user/name@revision to pin one; or a folder `pool push --dry-run` wrote."
    ),
    folder: Path = typer.Argument(..., file_okay=False, help="Where to write the pool folder."),
) -> None:
    """Download a pool dataset into a pool folder (images, sketches, pool.jsonl) to edit or rate again."""
    from watercolour_env.curate.hub import write_folder
    from watercolour_env.pool import Pool

    repo, _, revision = spec.partition("@")
    pool = Pool.from_hub(repo, revision or None)
    write_folder(pool, folder)
    typer.echo(f"{pool.counts()} -> {folder}")


@pool_app.command("sheet")
def pool_sheet(
    folder: Path = typer.Argument(..., exists=True, file_okay=False, help="A rendered pool folder."),
) -> None:
    """Write a contact sheet per tier and summary statistics under FOLDER/sheets/."""
    from watercolour_env.curate.render import contact_sheets

    summary = contact_sheets(folder)
    typer.echo(json.dumps(summary, indent=2))
    typer.echo(f"sheets: {folder / 'sheets'}")


pool_app.command("split")(split_command)

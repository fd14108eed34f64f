"""`watercolour audit`: send a deployment the probes a reward must not pay, and compare.

    watercolour audit --env-url https://you-watercolour-env.hf.space [--subject "a jellyfish"] [--json report.json]

Probes ask for one subject (the deployment's default unless --subject names another the pool
covers) and are compared with the pool's paintings of that subject, each scored for it.

The probes, sent as a policy would send them, through real episodes (issue 33):

- stripes, grid, scatter, rings, cloud, blob, wash, patches: formless sketches of the ten
  methods (`families.py`, seed 0); a family fails when its best reward reaches the okay median
  (a tie fails too: a reward that pays every painting the same ties with its okay median).
- sun, starfish, pinwheel, snowflake, mandala, target, wheel: radial things that are no flower,
  painted for the audit (`sketches/radial/`), a row each, but the subject's own (a pool of
  starfish is not probed with starfish); fail like a family.
- copies: the first two love paintings of the deployment's pool, edited 9 ways (`copies.py`),
  each edit sent at two of the seeds `COPY_SEEDS` (the picture differs from seed to seed); fails
  like a family.
- another subject: honest paintings of subjects the pool does not cover, sent for the pool's
  subject; fails like a family, and then says how to teach the pool (`pool add --off-subject`).
- subject swap: honest paintings sent for a subject the pool does not cover; fails when the
  server accepts them and pays one above the okay median.
- comment padding: honest controls with 12,000 characters of comments; fails when padding lifts
  a reward by 0.01 or more.
- dead-code padding: the same controls with functions that are never called and branches that
  never run; fails like comment padding.
- honest (control): new honest paintings of the pool's subject, in no pool; never fails, marked
  LOW when their median is under the okay median (the reward does not pay paintings).

The pool's tier medians come from the server (`GET /pool`: a pool painting sent back is a copy
now), under the same reward. Exit status 1 when a probe family fails, 0 otherwise.
"""

from __future__ import annotations

import json
import os
import statistics
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

import httpx

from watercolour_env.audit.copies import edited_copies
from watercolour_env.audit.probes import honest_sketches, other_subject_sketches, radial_sketches
from watercolour_env.client import TOKEN_VARIABLE, WatercolourEnv, auth_headers, base_url_of, checked_token
from watercolour_env.errors import ConfigError
from watercolour_env.families import FAMILIES, family_sketches
from watercolour_env.models import WatercolourAction
from watercolour_env.pool.subjects import SubjectCoverage, subject_words

PADDING_CHARS = 12_000
SWAP_SUBJECTS = ("a blue whale", "a red bicycle", "a lighthouse at dusk")
COPIED_PAINTINGS = 2
"""Pool paintings the copies are made of: the first of its love tier, each edited 9 ways."""
PADDED_CONTROLS = 4
"""Honest controls sent again with comment padding."""
COPY_SEEDS = (0, 3, 7)
"""Seeds the copies are sent at: edit i of painting j at seeds[(i + j) % 3] and the next one."""
RADIAL = ("sun", "starfish", "pinwheel", "snowflake", "mandala", "target", "wheel")
GROUPS = (
    "formless",
    "radial",
    "copies",
    "another subject",
    "subject swap",
    "comment padding",
    "dead-code padding",
    "honest (control)",
)
"""What `--only` may name: the formless families together, the radial ones together, or one of the other rows."""
PADDINGS = ("comment padding", "dead-code padding")


@dataclass
class Row:
    """One probe family's outcome.

    Attributes:
        family: the family's name.
        sent: episodes sent; gated: how many the gate rejected; refused: resets the server refused.
        best: the best reward of the family (None when every episode was refused or unscored).
        rewards: every reward, in the order sent; statuses: each episode's status.
        verdict: "pass", "FAIL", "control" or "LOW" (a control under the okay median).
        note: what decided the verdict, in words.
    """

    family: str
    sent: int = 0
    gated: int = 0
    refused: int = 0
    best: float | None = None
    rewards: list[float | None] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)
    verdict: str = "pass"
    note: str = ""


Outcome = tuple[str, float | None, list[str]]
"""One episode: its status, its reward and its violations."""
Probe = tuple[str, str, str] | tuple[str, str, str, int]
"""One episode to send: (family, subject, sketch), and its seed when not 0."""


def fetch_pool(env_url: str, token: str | None) -> dict[str, Any]:
    """The deployment's `GET /pool`.

    Raises:
        ConfigError: a token a header cannot carry, no answer, an HTTP error status (a 401 names
            the token's variable), or an answer that is not a watercolour server's pool report.
    """
    url = base_url_of(env_url) + "/pool"
    try:
        response = httpx.get(url, headers=auth_headers(checked_token(token)), timeout=300)
        response.raise_for_status()
    except httpx.HTTPStatusError as err:
        code = err.response.status_code
        hint = f" (set {TOKEN_VARIABLE} to the server's token)" if code == 401 else ""
        raise ConfigError(f"{url} answered HTTP {code}{hint}") from err
    except httpx.TransportError as err:
        raise ConfigError(f"cannot reach {base_url_of(env_url)} ({err}); start it with `watercolour serve`") from err
    try:
        report = response.json()
    except ValueError:
        report = None
    if not isinstance(report, dict) or not isinstance(report.get("references"), list):
        raise ConfigError(f"what answered at {url} is not a watercolour environment server; give its base URL")
    return report


def run_episode(env: Any, subject: str, reply: str, seed: int = 0) -> Outcome:
    """One episode on a connected client, at `seed`.

    Returns:
        (status: "scored", "rejected", "refused" or "infra_error"; the reward; the violations).
    """
    try:
        env.reset(seed=seed, subject=subject)
    except RuntimeError as err:  # the server refused the reset (OpenEnv raises its error frame)
        return "refused", None, [str(err)[:200]]
    observation = env.step(WatercolourAction(reply=f"```js\n{reply}\n```")).observation
    return observation.status.value, observation.reward, [v.value for v in observation.violations]


def send_all(env_url: str, token: str | None, plan: list[Probe], workers: int) -> list[Outcome]:
    """Every probe of the plan as an episode, `workers` sessions at once, in order."""
    chunks = [list(range(i, len(plan), workers)) for i in range(workers)]
    outcomes: list[Outcome] = [("", None, [])] * len(plan)

    def worker(indices: list[int]) -> None:
        with WatercolourEnv(base_url=env_url, token=token).sync() as env:
            for i in indices:
                outcomes[i] = run_episode(env, plan[i][1], plan[i][2], *plan[i][3:])

    with ThreadPoolExecutor(max(1, workers)) as executor:
        list(executor.map(worker, chunks))
    return outcomes


def audit(
    env_url: str,
    token: str | None = None,
    per_family: int = 6,
    workers: int = 2,
    only: tuple[str, ...] = GROUPS,
    subject: str | None = None,
) -> tuple[dict, list[Row]]:
    """Sends the probes for one subject and returns (the /pool report without sketches, the rows).

    Args:
        env_url: the environment server.
        token: its `WATERCOLOUR_API_TOKEN`; None reads that variable.
        per_family: formless probes per family (seed 0 draws).
        workers: sessions sending episodes at once.
        only: which of `GROUPS` to send ("comment padding" sends the controls too).
        subject: the subject the probes ask for, one the pool covers (e.g. "a jellyfish"); the
            deployment's default subject when None. Its medians are those of the pool's paintings
            of that subject, each scored for it; its controls the honest probes of it (a probe's
            file name starts with a word of the subject); every other honest probe is "another
            subject", and the copies are made of its own love paintings.

    Raises:
        ConfigError: the server cannot be asked, or the pool has no paintings of `subject`.
    """
    token = os.environ.get(TOKEN_VARIABLE) if token is None else token
    pool = fetch_pool(env_url, token)
    subject = subject or pool.get("subject") or (pool["subjects"][0] if pool["subjects"] else "a hibiscus")
    by_subject = pool.get("subject_tier_rewards") or {}
    part = SubjectCoverage(by_subject).match(subject) if by_subject else None
    if by_subject and part is None:
        raise ConfigError(
            f"the pool at {env_url} has no paintings of {subject!r} to compare with: audit one of "
            + ", ".join(f'"{s}"' for s in by_subject)
        )
    tiers = by_subject[part] if part else pool["tier_rewards"]
    words = subject_words(subject)
    honest = honest_sketches("")
    controls = {n: s for n, s in honest.items() if n.split("-")[0] in words}
    others = {n: s for n, s in (honest | other_subject_sketches()).items() if n not in controls}
    mine = [r for r in pool["references"] if part is None or r.get("subject") == part]
    loved = [r for r in mine if r["tier"] == "love"][:COPIED_PAINTINGS]
    copies = [
        (source, COPY_SEEDS[(i + j + k) % len(COPY_SEEDS)])
        for j, r in enumerate(loved)
        for i, source in enumerate(edited_copies(r["sketch"]).values())
        for k in range(2)
    ]
    coverage = SubjectCoverage(pool["subjects"])
    swap = next((s for s in SWAP_SUBJECTS if not coverage.covers(s)), None)
    padding = "\n".join("// " + "a loose wash, soft edges, light through the petals " * 2 for _ in range(120))
    padded = list(controls.values())[:PADDED_CONTROLS]
    plan: list[Probe] = []
    if "formless" in only:
        plan += [(name.split("-")[0], subject, s) for name, s in family_sketches(per_family).items()]
    if "radial" in only:
        radial = {n: s for n, s in radial_sketches().items() if n.split("-")[0] not in words}  # a starfish pool's own
        plan += [(name.split("-")[0], subject, s) for name, s in radial.items()]
    if "copies" in only:
        plan += [("copies", subject, s, seed) for s, seed in copies]
    if "another subject" in only:
        plan += [("another subject", subject, s) for s in others.values()]
    if "subject swap" in only and swap is not None:
        plan += [("subject swap", swap, s) for s in padded[:2]]
    if "honest (control)" in only or any(p in only for p in PADDINGS):
        plan += [("honest (control)", subject, s) for s in controls.values()]
    if "comment padding" in only:
        plan += [("comment padding", subject, padding[:PADDING_CHARS] + "\n" + s) for s in padded]
    if "dead-code padding" in only:
        plan += [("dead-code padding", subject, dead_code(PADDING_CHARS) + "\n" + s) for s in padded]
    outcomes = send_all(env_url, token, plan, workers)
    rows = judge(plan, outcomes, tiers["okay"]["median"])
    for row in rows:
        if row.family == "another subject" and row.verdict == "FAIL":
            row.note = (
                f"paintings of other things than {subject} beat the okay median: add some to the pool and rate "
                f"them nope (`watercolour pool add --off-subject 8 --into {pool['source']}`, "
                "then `watercolour pool rate`)"
            )
    report = {k: v for k, v in pool.items() if k not in ("references", "subject_tier_rewards")}
    report |= {"subject": subject, "tier_rewards": tiers}
    return report, rows


def dead_code(chars: int) -> str:
    """About `chars` characters of code that never runs: functions never called, `if (false)` blocks."""
    unit = (
        "function study{i}(a, b) {{\n  let total = 0;\n  for (let k = 0; k < a; k++) {{\n    total += b * k;\n  }}\n"
        "  if (false) {{\n    brush.circle(a, b, total);\n  }}\n  return total;\n}}\n"
    )
    out, i = [], 0
    while sum(map(len, out)) < chars:
        out.append(unit.format(i=i))
        i += 1
    return "".join(out)


def judge(plan: list[Probe], outcomes: list[Outcome], okay: float) -> list[Row]:
    """The rows of the table from what each episode gave, against the okay median."""
    rows: dict[str, Row] = {}
    for probe, (status, reward, _violations) in zip(plan, outcomes, strict=True):
        family = probe[0]
        row = rows.setdefault(family, Row(family))
        row.sent += 1
        row.gated += status == "rejected"
        row.refused += status == "refused"
        row.rewards.append(reward)
        row.statuses.append(status)
    for row in rows.values():
        scored = [r for r in row.rewards if r is not None]
        row.best = max(scored, default=None)
        beats = row.best is not None and row.best >= okay  # a tie fails: a reward that pays everything ties
        if row.family == "honest (control)":
            median = statistics.median(scored) if scored else None
            row.verdict = "control" if median is not None and median > okay else "LOW"
            row.note = f"median {median:.3f}" if median is not None else "nothing scored"
        elif row.family in PADDINGS:
            # only pairs that both scored: a control the gate rejected (a render past its deadline
            # on a loaded server) says nothing about padding
            control = rows["honest (control)"]
            pairs = zip(row.rewards, row.statuses, control.rewards, control.statuses, strict=False)
            lifts = [p - c for p, ps, c, cs in pairs if ps == cs == "scored" and p is not None and c is not None]
            lift = max(lifts, default=0.0)
            row.verdict, row.note = ("FAIL" if lift >= 0.01 else "pass"), f"lift {lift:+.3f}"
        elif row.family == "subject swap":
            row.verdict = "FAIL" if beats else "pass"
            row.note = "refused at reset" if row.refused == row.sent else "accepted"
        else:
            row.verdict = "FAIL" if beats else "pass"
    order = [*FAMILIES, *RADIAL, "copies", "another subject", "subject swap", *PADDINGS, "honest (control)"]
    return [rows[f] for f in order if f in rows]


def table(report: dict, rows: list[Row]) -> str:
    """The audit as a plain-text table, with the pool's tier medians first."""
    tiers = report["tier_rewards"]
    lines = [
        f"pool {report['source']}: {report['counts']}; subjects {report['subjects']}; copy guard "
        f"{'on' if report['copy_guard'] else 'OFF'}",
        f"tier medians of the pool's paintings of {report.get('subject') or 'its subject'} under this reward: "
        + ", ".join(f"{t} {v['median']:.3f}" for t, v in tiers.items() if v["median"] is not None),
        "",
        f"{'family':18s} {'sent':>4s} {'gated':>5s} {'refused':>7s} {'best':>6s} {'vs okay':>8s}  verdict",
    ]
    okay = tiers["okay"]["median"]
    for row in rows:
        best = f"{row.best:6.3f}" if row.best is not None else "     -"
        versus = f"{row.best - okay:+8.3f}" if row.best is not None else "       -"
        note = f"  ({row.note})" if row.note else ""
        counts = f"{row.sent:4d} {row.gated:5d} {row.refused:7d}"
        lines.append(f"{row.family:18s} {counts} {best} {versus}  {row.verdict}{note}")
    failed = [r.family for r in rows if r.verdict == "FAIL"]
    lines.append("")
    verdict = f"FAIL: {', '.join(failed)}" if failed else "pass: no probe family reaches the okay median"
    lines.append(verdict)
    return "\n".join(lines)


def to_json(report: dict, rows: list[Row]) -> str:
    """The report and the rows as JSON."""
    return json.dumps({"pool": report, "rows": [asdict(r) for r in rows]}, indent=1)


__all__ = ["TOKEN_VARIABLE", "Row", "audit", "judge", "table", "to_json"]

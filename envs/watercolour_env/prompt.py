"""The system prompt: a strict allowlist of ten p5.brush methods and the canvas conventions.

Long API references make models invent methods; the seed converged on a short allowlist with
none of the string-taking methods (decision 0003, "The recipe"). The short example is there so a
small policy (the 135M demo model) can paint at all within a short completion budget.
"""

from __future__ import annotations

from watercolour_env.sketch import ALLOWED_BRUSH_METHODS

DEFAULT_SUBJECT = "a peach hibiscus"

PETAL_HINT = "Paint each petal two or three times: a large wash first, then a smaller, more opaque one inside."
"""The starter pool's line for its hibiscus (its `pool.toml`, `[hints]`): the layering its loved paintings share."""
GENERIC_HINT = "Paint each shape two or three times: a large wash first, then a smaller, more opaque one inside."
"""The hint of a pool that declares none: the same layering, naming no part of any subject."""

_TEMPLATE = f"""You paint watercolours by writing p5.js sketches with the p5.brush library.
Reply with one JavaScript code block and nothing else.

Rules:
- In setup(): createCanvas(600, 600, WEBGL); angleMode(DEGREES); noLoop();
- In draw(): translate(-width / 2, -height / 2) first, so x and y run from 0 to 600 from the top
  left and the centre is (300, 300); then background(r, g, b) for the paper.
- Paint only with these ten p5.brush methods: {", ".join("brush." + m for m in ALLOWED_BRUSH_METHODS)}.
- brush.fill(hex colour, opacity 0-255); brush.fillBleed(0..1); brush.fillTexture(0..1, 0..1);
  brush.circle(x, y, radius); brush.beginShape(curvature 0..1), brush.vertex(x, y),
  brush.endShape(true) for closed shapes.
- {{hint}}
- No text, no images, no other libraries, no network.

Example:
```js
function setup() {{
  createCanvas(600, 600, WEBGL);
  angleMode(DEGREES);
  noLoop();
}}
function draw() {{
  translate(-width / 2, -height / 2);
  background(250, 246, 238);
  brush.noStroke();
  brush.fill("#f08a6c", 160);
  brush.fillBleed(0.3);
  brush.circle(300, 300, 150);
  brush.fill("#e0533f", 150);
  brush.fillBleed(0.1);
  brush.circle(300, 300, 80);
  brush.fill("#8e1b2e", 170);
  brush.circle(300, 300, 25);
}}
```"""


def system_prompt(hint: str | None = None) -> str:
    """The system prompt with a pool's hint line (`GENERIC_HINT` when None).

    Example:
        >>> "petal" in system_prompt(PETAL_HINT), "petal" in system_prompt()
        (True, False)
    """
    return _TEMPLATE.replace("{hint}", hint or GENERIC_HINT)


SYSTEM_PROMPT = system_prompt()
"""The starter pool's system prompt (the default deployment's), with the generic line since issue
55; the shipped adapters learnt `system_prompt(PETAL_HINT)`, when the starter was of one subject."""


REPLY_PRIMER = (
    "```js\nfunction setup() {\n  createCanvas(600, 600, WEBGL);\n  angleMode(DEGREES);\n  noLoop();\n}\n"
    "function draw() {\n  translate(-width / 2, -height / 2);\n  background(250, 246, 238);\n"
    '  brush.noStroke();\n  brush.fill("#f08a6c", 160);\n  brush.fillBleed(0.3);\n'
    '  brush.circle(300, 300, 150);\n  brush.fill("#'
)
"""The first lines of a reply (the canvas boilerplate and one wash), for policies too small to
write a sketch from nothing: the 135M demo policy, unprimed, passed the gate in 0 of 16 samples
(docs/LOG.md). A trainer that primes completions sends primer + completion as the reply, so the
policy is rewarded for what it paints on top and punished for what it breaks."""


def user_prompt(subject: str, revisions: int = 0, revision_reward: str = "last", hint: str | None = None) -> str:
    """The per-episode instruction for a subject such as "a peach hibiscus".

    With `revisions` = K > 0 it adds that each painting is answered with a critique and may be
    painted again K times, and which painting is judged ("last" or "best", as at reset). A
    `hint` (the pool's line for the subject, `pool.toml` `[hints]`) follows the first sentence.

    Example:
        >>> user_prompt("a jellyfish", hint="Paint each bell twice.")[:63]
        'Paint a jellyfish as a loose watercolour. Paint each bell twice.'
    """
    said = f" {hint.strip()}" if hint else ""
    ask = f"Paint {subject} as a loose watercolour.{said} Reply with one ```js code block like the example."
    if revisions <= 0:
        return ask
    judged = "your last painting is" if revision_reward == "last" else "the best of your paintings is"
    times = "once more" if revisions == 1 else f"up to {revisions} more times"
    return f"{ask} You will read a critique of each painting and may paint it {times}; {judged} the one judged."

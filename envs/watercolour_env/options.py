"""The options of `reset`, checked in one place: by the client before sending, by the server on arrival.

Kept apart from `models` (which builds on OpenEnv's types, and so imports OpenEnv's server
package and Gradio, about 3 s) so that a pool's declaration and the command line check a subject
without that import.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from watercolour_env.errors import InvalidOption
from watercolour_env.limits import MAX_REFERENCES, MAX_REVISIONS, MAX_SEED, MAX_SUBJECT_CHARS


class ResetOptions(BaseModel):
    """The options of `reset`, checked in one place: by the client before sending, by the server on arrival.

    None means the deployment's choice (a random seed, a fresh id, the default subject, its
    weights and reference count).

    Example:
        >>> ResetOptions.check(seed=7, subject="a peach hibiscus").seed
        7
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    seed: int | None = Field(None, ge=0, le=MAX_SEED, description="Render seed; give a GRPO group one seed.")
    episode_id: str | None = Field(None, max_length=255, description="An id to report (OpenEnv's HTTP limit).")
    subject: str | None = Field(None, max_length=MAX_SUBJECT_CHARS, description="What to paint; a few words.")
    return_image: bool = Field(False, description="Whether the step's observation carries the PNG.")
    weights: dict[str, Any] | str | None = Field(
        None, description="This episode's reward weights by component, summing to 1, or a preset name."
    )
    references: int | None = Field(
        None, ge=1, le=MAX_REFERENCES, description="How many pool references the judge compares with."
    )
    revisions: int = Field(
        0, ge=0, le=MAX_REVISIONS, description="Revisions after the first painting, each answered with a critique."
    )
    revision_reward: Literal["last", "best"] = Field(
        "last", description="With revisions: the episode's reward is the last painting's, or the best one's."
    )
    oracle: bool = Field(
        False,
        description="The episode sends the pool's oracle: the copy guard, which holds it like the pool, lets "
        "that one painting through (`watercolour oracle`, a Space's validation).",
    )

    @field_validator("subject")
    @classmethod
    def _words(cls, subject: str | None) -> str | None:
        if subject is not None and (not subject.strip() or not subject.isprintable()):
            raise ValueError("blank or not printable")
        return subject

    @classmethod
    def check(cls, **options: Any) -> ResetOptions:  # noqa: ANN401
        """The options, validated.

        Raises:
            InvalidOption: the first of them out of range or of the wrong type, or an unknown one,
                in one line that names it and its range.
        """
        try:
            return cls(**options)
        except ValidationError as err:
            raise InvalidOption(cls._problem(err, options)) from None

    @classmethod
    def _problem(cls, err: ValidationError, options: dict[str, Any]) -> str:
        bad = {str(e["loc"][0]) for e in err.errors() if e["loc"]}
        unknown = sorted(bad - set(cls.model_fields))
        name = next((n for n in ("episode_id", *unknown[:1], *cls.model_fields) if n in bad), "")
        value = options.get(name)
        given = _shown(value)
        if name in unknown:
            names = ", ".join(_shown(n)[1:-1] for n in unknown[:3]) + (", ..." if len(unknown) > 3 else "")
            return f"unknown reset option(s) {names}; reset takes {', '.join(cls.model_fields)}"
        if name == "subject" and isinstance(value, str) and value.strip():
            if not value.isprintable():
                where = next(i for i, ch in enumerate(value) if not ch.isprintable())
                return (
                    f"subject must be at most {MAX_SUBJECT_CHARS} printable characters; character {where} "
                    f"({ascii(value[where])}) is a control or invisible one"
                )
            return f"subject must be at most {MAX_SUBJECT_CHARS} printable characters ({len(value)} given)"
        return {
            "episode_id": "episode_id must be a string of at most 255 characters (OpenEnv's HTTP limit) or null",
            "seed": f"seed must be an integer in [0, {MAX_SEED}] or null, not {given}",
            "subject": f"subject must be a non-empty string or null, not {given}",
            "return_image": f"return_image must be true or false, not {given}",
            "weights": f"weights must be an object of weights by component or a preset name, not {given}",
            "references": f"references must be an integer in [1, {MAX_REFERENCES}] or null, not {given}",
            "revisions": f"revisions must be an integer in [0, {MAX_REVISIONS}], not {given}",
            "revision_reward": f'revision_reward must be "last" or "best", not {given}',
            "oracle": f"oracle must be true or false, not {given}",
        }[name]


def _shown(value: object) -> str:
    """`value` quoted for a one-line message, never raising itself.

    At most 40 characters, escaped when not printable, its type named when JSON has no such type
    (a NumPy integer); a value `str` refuses (an int of 5,000 digits) is named by its type.
    """
    try:
        text = str(value)[:40]
    except Exception:  # noqa: BLE001 - whatever str() raises, the message still names the option
        text = f"a {type(value).__name__} too long to show"
    quoted = repr(text) if text.isprintable() else f"'{ascii(text)[1:-1]}'"
    plain = value is None or type(value) in (bool, int, float, str, list, dict)
    return quoted + ("" if plain else f" (a {type(value).__name__})")

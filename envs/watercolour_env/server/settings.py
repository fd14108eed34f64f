"""The one place that reads the environment: `WATERCOLOUR_*` variables, validated at start-up.

The settings are the server's own fields (`ServerSettings`) plus, for every registered reward
term, its weight `WATERCOLOUR_WEIGHT_<NAME>` and its options `WATERCOLOUR_<NAME>_<FIELD>` (see
`watercolour_env.server.reward.term`). `Settings` is that class for the terms registered at
import; `settings_class()` composes it again after a term is registered.
"""

from __future__ import annotations

import contextvars
import functools
import math
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, PrivateAttr, SecretStr, ValidationError, create_model, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    SettingsError,
)

from watercolour_env.errors import ConfigError
from watercolour_env.limits import (
    DEFAULT_EPISODE_DEADLINE_S,
    DEFAULT_MAX_REPLY_BYTES,
    DEFAULT_MAX_REVISIONS,
    DEFAULT_RENDER_DEADLINE_S,
    MAX_RENDER_DEADLINE_S,
    MAX_REVISIONS,
)
from watercolour_env.pool import STARTER_POOL
from watercolour_env.server.derived import default_cache_dir
from watercolour_env.server.gate import DEFAULT_PAINT_FLOOR
from watercolour_env.server.reward import GATE_DEFAULT_WEIGHT, TERMS
from watercolour_env.server.reward.rubric import PRESETS, RubricWeights, preset
from watercolour_env.server.reward.term import Term

MAX_RENDER_WORKERS = 64
"""The most Chromium pages one server renders with at once (`WATERCOLOUR_RENDER_WORKERS`)."""


def usable_cpus(cgroup: Path = Path("/sys/fs/cgroup")) -> int:
    """CPUs this process may use: its affinity, capped by a cgroup CPU quota, >= 1.

    `os.cpu_count()` counts the host's CPUs, which a container or a `taskset` may not use. The
    quota is cgroup v2's `cpu.max` ("200000 100000" = 2 CPUs, "max ..." = none) or v1's
    `cpu/cpu.cfs_quota_us` over `cpu.cfs_period_us` (-1 = none), rounded up.
    """
    count = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    quota = None
    try:
        if (cgroup / "cpu.max").is_file():
            limit, period = (cgroup / "cpu.max").read_text().split()[:2]
            quota = None if limit == "max" else int(limit) / int(period)
        elif (cgroup / "cpu" / "cpu.cfs_quota_us").is_file():
            limit = int((cgroup / "cpu" / "cpu.cfs_quota_us").read_text())
            period = int((cgroup / "cpu" / "cpu.cfs_period_us").read_text())
            quota = None if limit < 0 else limit / period
    except (OSError, ValueError, ZeroDivisionError):
        quota = None  # unreadable: the affinity alone
    return max(1, min(count, math.ceil(quota)) if quota else count)


def default_render_workers() -> int:
    """One render worker per usable CPU, at most `MAX_RENDER_WORKERS`: a large host still starts."""
    return min(MAX_RENDER_WORKERS, usable_cpus())


_GIVEN_ENVIRON: contextvars.ContextVar[Mapping[str, str] | None] = contextvars.ContextVar("environ", default=None)


class _GivenEnvironment(EnvSettingsSource):
    """pydantic-settings' own environment source, reading a mapping instead of `os.environ`."""

    def __init__(self, settings_cls: type[BaseSettings], environ: Mapping[str, str]) -> None:
        self._given = {name.lower(): value for name, value in environ.items()}  # names as case-insensitive
        super().__init__(settings_cls)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return self._given


class ServerSettings(BaseSettings):
    """The server's own settings; every field is also `WATERCOLOUR_<FIELD>` in the environment.

    Load them with `load_settings`, which also reads each registered term's weight and options.

    Raises:
        ConfigError: through `load_settings`, when a value is out of range.
    """

    model_config = SettingsConfigDict(env_prefix="WATERCOLOUR_", extra="ignore")

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """The process's environment, or the variables `load_settings` was given in its stead."""
        given = _GIVEN_ENVIRON.get()
        if given is None:
            return init_settings, env_settings, dotenv_settings, file_secret_settings
        return init_settings, _GivenEnvironment(settings_cls, given)

    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    render_workers: int = Field(default_factory=default_render_workers, ge=1, le=MAX_RENDER_WORKERS)
    render_browsers: int = Field(1, ge=1, le=MAX_RENDER_WORKERS)  # the workers split over (sandbox/browsers.py)
    render_deadline_s: float = Field(DEFAULT_RENDER_DEADLINE_S, gt=0, le=MAX_RENDER_DEADLINE_S)
    episode_deadline_s: float = Field(DEFAULT_EPISODE_DEADLINE_S, gt=0, le=3600)  # a whole step, queue included
    render_max_queue: int = Field(64, ge=0)
    chromium_path: str = "/usr/bin/chromium"
    render_network_namespace: Literal["auto", "on", "off"] = "auto"  # see server/sandbox/netns.py
    max_concurrent_envs: int = Field(64, ge=1)
    # OpenEnv's reaper closes a session idle this long; see docs/environment.md for why 900 s
    session_timeout_s: float = Field(900.0, ge=1)
    default_subject: str | None = None  # the pool's subject when unset (Pool.subject)
    paint_floor: float = Field(DEFAULT_PAINT_FLOOR, ge=0, le=1)
    fail_reward: float = Field(0.0, ge=0, le=1)
    pool: str = str(STARTER_POOL)
    cache_dir: str = Field(default_factory=default_cache_dir)  # see server/derived.py; "off" keeps nothing
    strict_allowlist: bool = True
    copy_guard: bool = True  # a reply that copies a painting of the pool fails the gate (server/copies.py)
    weight_gate: float = Field(GATE_DEFAULT_WEIGHT, ge=0, le=1)
    preset: str | None = None  # one of rubric.PRESETS; sets every weight
    max_reply_bytes: int = Field(DEFAULT_MAX_REPLY_BYTES, ge=1024, le=4 * 2**20)
    max_revisions: int = Field(DEFAULT_MAX_REVISIONS, ge=0, le=MAX_REVISIONS)  # the most a reset may ask for
    api_token: SecretStr | None = None  # required on the websocket and compute routes when set (server/auth.py)

    _options: dict[str, BaseModel] = PrivateAttr(default_factory=dict)

    @model_validator(mode="after")
    def _token_is_usable(self) -> ServerSettings:
        if self.api_token is None:
            return self
        token = self.api_token.get_secret_value()
        if not token.strip() or token != token.strip() or not token.isprintable():
            raise ValueError(
                "WATERCOLOUR_API_TOKEN is set but empty or has spaces or control characters; unset it or set a token"
            )
        return self

    @model_validator(mode="after")
    def _a_page_a_browser(self) -> ServerSettings:
        if self.render_browsers > self.render_workers:
            raise ValueError(
                f"WATERCOLOUR_RENDER_BROWSERS={self.render_browsers} exceeds WATERCOLOUR_RENDER_WORKERS="
                f"{self.render_workers}: each browser needs a page; set fewer browsers or more workers"
            )
        return self

    @model_validator(mode="after")
    def _deadlines_nest(self) -> ServerSettings:
        # a render cut by the episode's deadline is the infrastructure's failure, and a session
        # reaped mid-step loses its answer: each bound must hold the one inside it
        if self.episode_deadline_s <= self.render_deadline_s:
            raise ValueError(
                f"WATERCOLOUR_EPISODE_DEADLINE_S={self.episode_deadline_s:g} must exceed "
                f"WATERCOLOUR_RENDER_DEADLINE_S={self.render_deadline_s:g} (a step is a render and more)"
            )
        if self.session_timeout_s <= self.episode_deadline_s:
            raise ValueError(
                f"WATERCOLOUR_SESSION_TIMEOUT_S={self.session_timeout_s:g} must exceed "
                f"WATERCOLOUR_EPISODE_DEADLINE_S={self.episode_deadline_s:g}, or a slow step's session is reaped"
            )
        return self

    @model_validator(mode="after")
    def _preset_sets_the_weights(self) -> ServerSettings:
        if self.preset is None:
            return self
        if self.preset not in PRESETS:
            raise ValueError(f"WATERCOLOUR_PRESET={self.preset!r} is not one of {', '.join(PRESETS)}")
        explicit = sorted(f"WATERCOLOUR_{f.upper()}" for f in self._weight_fields() if f in self.model_fields_set)
        if explicit:
            raise ValueError(f"WATERCOLOUR_PRESET sets every weight; unset {', '.join(explicit)} or the preset")
        for name, value in preset(self.preset).items():
            object.__setattr__(self, f"weight_{name}", value)
        return self

    @model_validator(mode="after")
    def _terms_accept_their_options(self) -> ServerSettings:
        for name, term in TERMS.items():
            fields = term.Options.model_fields
            try:
                options = term.Options.model_validate(
                    {info.alias or field: getattr(self, setting_name(term, field)) for field, info in fields.items()}
                )
            except ValidationError as err:
                raise ValueError("; ".join(e["msg"] for e in err.errors())) from None
            source = f"WATERCOLOUR_PRESET={self.preset}" if self.preset else f"WATERCOLOUR_WEIGHT_{name.upper()}"
            problem = term.check(options, getattr(self, f"weight_{name}"), source)
            if problem:
                raise ValueError(problem)
            self._options[name] = options
        return self

    @model_validator(mode="after")
    def _weights_sum_to_one(self) -> ServerSettings:
        fields = self._weight_fields()
        total = sum(getattr(self, f) for f in fields)
        if abs(total - 1.0) > 1e-6:
            now = ", ".join(
                f"WATERCOLOUR_{f.upper()}={getattr(self, f):g}" + ("" if f in self.model_fields_set else " (default)")
                for f in fields
            )
            raise ValueError(
                f"reward weights sum to {total:g}, not 1 ({now}): make them sum to 1, or set WATERCOLOUR_PRESET"
            )
        return self

    def _weight_fields(self) -> list[str]:
        return ["weight_gate", *(f"weight_{name}" for name in TERMS)]

    def weights(self) -> RubricWeights:
        """The rubric weights these settings describe."""
        return RubricWeights(**{f.removeprefix("weight_"): getattr(self, f) for f in self._weight_fields()})

    def term_options(self) -> dict[str, BaseModel]:
        """Each registered term's validated `Options`, by name."""
        return dict(self._options)


def setting_name(term: type[Term], field: str) -> str:
    """The settings field (`WATERCOLOUR_<upper>`) of one option of a term: its alias, else `<term>_<field>`."""
    return term.Options.model_fields[field].alias or f"{term.name}_{field}"


@functools.cache
def _compose(terms: tuple[type[Term], ...]) -> type[ServerSettings]:
    fields: dict[str, tuple[object, FieldInfo]] = {}
    for term in terms:
        fields[f"weight_{term.name}"] = (float, Field(term.default_weight, ge=0, le=1))
        for field, info in term.Options.model_fields.items():
            plain = FieldInfo.merge_field_infos(
                info, alias=None, validation_alias=None, serialization_alias=None, alias_priority=None
            )
            fields[setting_name(term, field)] = (info.annotation, plain)
    clash = sorted(set(fields) & set(ServerSettings.model_fields))
    if clash:
        raise ConfigError(f"reward term settings {clash} clash with the server's own")
    return create_model("Settings", __base__=ServerSettings, __module__=__name__, **fields)  # type: ignore[call-overload]


def settings_class() -> type[ServerSettings]:
    """The settings class for the terms registered now (composed once per set of terms)."""
    return _compose(tuple(TERMS.values()))


Settings = settings_class()
"""The settings for the registered terms; `Settings.model_fields` lists every `WATERCOLOUR_*` name."""


def load_settings(environ: Mapping[str, str] | None = None, /, **overrides: object) -> ServerSettings:
    """Reads and validates the settings once, at start-up.

    Args:
        environ: the variables to read instead of this process's (`watercolour deploy` checks the
            ones a Space will have, without touching its own environment); `os.environ` when None.
        **overrides: field values that win over any variable (the tests' small renderers).

    Raises:
        ConfigError: a variable is malformed, misspelt or out of range; the message names it.
    """
    import difflib

    variables = os.environ if environ is None else environ
    cls = settings_class()
    known = {f"WATERCOLOUR_{name.upper()}" for name in cls.model_fields}
    for variable in sorted(v for v in variables if v.upper().startswith("WATERCOLOR_")):
        meant = "WATERCOLOUR_" + variable[len("WATERCOLOR_") :].upper()
        hint = f"did you mean {meant}?" if meant in known else "docs/environment.md lists the settings"
        raise ConfigError(f"unknown setting {variable}: the settings are spelt WATERCOLOUR_*; {hint}")
    for variable in sorted(v for v in variables if v.upper().startswith("WATERCOLOUR_") and v.upper() not in known):
        close = difflib.get_close_matches(variable.upper(), known, n=1)
        hint = f"; did you mean {close[0]}?" if close else "; docs/environment.md lists the settings"
        raise ConfigError(f"unknown setting {variable}{hint}")
    given = _GIVEN_ENVIRON.set(None if environ is None else dict(environ))
    try:
        return cls(**overrides)  # type: ignore[arg-type]
    except SettingsError as err:  # a JSON field's value that is not JSON
        field = re.search(r'field "(\w+)"', str(err))
        name = f"WATERCOLOUR_{field.group(1).upper()}" if field else "a WATERCOLOUR_* JSON setting"
        raise ConfigError(f"invalid WATERCOLOUR_* setting: {name} is not JSON ({err.__cause__ or err})") from err
    except ValidationError as err:
        reasons = [
            (f"WATERCOLOUR_{str(e['loc'][0]).upper()}: " if e["loc"] else "") + e["msg"].removeprefix("Value error, ")
            for e in err.errors()
        ]  # one line, so a refusal reads as every other: "error: invalid WATERCOLOUR_* setting: ..."
        raise ConfigError("invalid WATERCOLOUR_* setting: " + "; ".join(reasons)) from err
    finally:
        _GIVEN_ENVIRON.reset(given)

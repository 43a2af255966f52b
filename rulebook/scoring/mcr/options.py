"""MCR variant switches as options: ``--option fan_57b_points=5`` (CLI) and
``"options": {"fan_57b_points": 5}`` (API, ``score(..., options=...)``).

Each option is a field of :class:`~rulebook.scoring.mcr.config.MCRConfig`, under the
same name. Options are given as HKOS and Red take theirs: a list of strings ``NAME`` or
``NAME=VALUE`` (a bare ``NAME`` switches a yes/no option on), or a mapping
``{NAME: VALUE}``. An unknown option or a value the option does not take is a
``bad_context`` error, so a typo never silently scores a different variant.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from ..errors import NotationError
from .config import DEFAULT_CONFIG, MCRConfig


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One switch: its name (an :class:`MCRConfig` field) and the values it takes.

    ``values`` is ``None`` for a yes/no option, else the allowed numbers.
    """

    name: str
    values: tuple[int, ...] | None = None

    @property
    def is_flag(self) -> bool:
        return self.values is None


#: The switches, in the order the calculator shows them. The defaults are MCRConfig's.
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("fan_57b_points", (5, 6)),
    OptionSpec("fan_48_points", (6, 8)),
    OptionSpec("wait_fans_in_knitted_straight"),
    OptionSpec("waits_include_fifth_copy"),
    OptionSpec("all_green_excludes_half_flush"),
    OptionSpec("all_terminals_excludes_double_pung"),
    OptionSpec("concealed_fans_exclude_fully_concealed"),
    OptionSpec("minimum_points", tuple(range(89))),
)
OPTIONS_BY_NAME: dict[str, OptionSpec] = {o.name: o for o in OPTIONS}

_TRUE = frozenset({"", "1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def _items(raw: object) -> list[tuple[str, object]]:
    if isinstance(raw, Mapping):
        return [(k, v) if isinstance(k, str) else ("", v) for k, v in raw.items()]
    if isinstance(raw, str) or not isinstance(raw, Iterable):
        raise NotationError("options_not_a_list")
    items: list[tuple[str, object]] = []
    for item in raw:
        if not isinstance(item, str):
            raise NotationError("option_not_a_string")
        name, sep, text = item.partition("=")
        items.append((name.strip(), text.strip() if sep else True))
    return items


def _flag_value(spec: OptionSpec, value: object) -> bool:
    if value is True or value is False:
        return value
    if isinstance(value, str) and value.lower() in _TRUE:
        return True
    if isinstance(value, str) and value.lower() in _FALSE:
        return False
    if type(value) is int and value in (0, 1):
        return bool(value)
    raise NotationError("option_not_a_flag", name=spec.name, value=value)


def _number_value(spec: OptionSpec, value: object) -> int:
    assert spec.values is not None
    number: int | None = None
    if type(value) is int:
        number = value
    elif isinstance(value, str) and value.strip().lstrip("-").isdigit():
        number = int(value)
    allowed = (
        " or ".join(map(str, spec.values)) if len(spec.values) <= 4
        else f"{spec.values[0]}-{spec.values[-1]}"
    )
    if number is None:
        raise NotationError(
            "option_needs_a_number", name=spec.name, allowed=allowed, example=spec.values[0]
        )
    if number not in spec.values:
        raise NotationError(
            "option_value_not_allowed", name=spec.name, allowed=allowed, value=number
        )
    return number


def parse_options(raw: object) -> dict[str, int | bool]:
    """``["fan_57b_points=5", "waits_include_fifth_copy"]`` ->
    ``{"fan_57b_points": 5, "waits_include_fifth_copy": True}``.

    Raises :class:`NotationError` (``bad_context``) naming the option at fault.
    """
    out: dict[str, int | bool] = {}
    if raw is None:
        return out
    for name, value in _items(raw):
        spec = OPTIONS_BY_NAME.get(name)
        if spec is None:
            known = ", ".join(o.name for o in OPTIONS)
            raise NotationError("unknown_option", name=name, known=known)
        if name in out:
            raise NotationError("option_given_twice", name=name)
        out[name] = _flag_value(spec, value) if spec.is_flag else _number_value(spec, value)
    return out


def config_from_options(raw: object, base: MCRConfig = DEFAULT_CONFIG) -> MCRConfig:
    """The configuration ``base`` with the options ``raw`` applied (``base`` itself when
    no option changes anything, so the default configuration keeps its fast path)."""
    options = parse_options(raw)
    changed = {k: v for k, v in options.items() if getattr(base, k) != v}
    if not changed:
        return base
    return replace(base, **changed)  # type: ignore[arg-type]


__all__ = ["OPTIONS", "OPTIONS_BY_NAME", "OptionSpec", "config_from_options", "parse_options"]

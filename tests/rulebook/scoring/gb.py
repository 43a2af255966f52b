"""Bridge to PyMahjongGB (test-only): our hand + context -> its call, its fans -> our ids."""

from __future__ import annotations

from typing import Any

from rulebook.scoring.hand import Hand, make_context

NAME_TO_ID = {
    "all five": "31",
    "all fives": "31",
    "two dragons pungs": "54",
    "concealed kong and melded kong": "57B",
    "two melded kongs": "57A",
    "robbing the kong": "47",
    "self drawn": "80",
    "self-drawn": "80",
}


def _norm(name: str) -> str:
    return name.lower().replace("-", " ").strip()


def build_name_map() -> dict[str, str]:
    from rulebook.scoring.mcr.table import FANS

    out = {_norm(f.key): f.id for f in FANS.values()}
    out.update({_norm(k): v for k, v in NAME_TO_ID.items()})
    return out


NAMES = build_name_map()


def gb_tile(t: int) -> str:
    if t < 27:
        return "WBT"[t // 9] + str(t % 9 + 1)
    if t < 31:
        return "F" + str(t - 26)
    return "J" + str(t - 30)


def gb_fans(hand: Hand, context: dict[str, Any]) -> dict[str, int] | None:
    """PyMahjongGB's fans as {our id: points * count}; None when it refuses the hand."""
    import MahjongGB

    ctx = make_context(**context)
    pack = []
    for m in hand.melds:
        if m.kind == "chow":
            pack.append(("CHI", gb_tile(m.tile + 1), m.claimed or 1))
        elif m.kind == "pung":
            pack.append(("PENG", gb_tile(m.tile), m.claimed or 1))
        else:
            pack.append(("GANG", gb_tile(m.tile), 0 if m.concealed else (m.claimed or 1)))
    try:
        res = MahjongGB.MahjongFanCalculator(
            pack=tuple(pack),
            hand=tuple(gb_tile(t) for t in hand.concealed),
            winTile=gb_tile(hand.win_tile),
            flowerCount=ctx.flowers,
            isSelfDrawn=ctx.self_drawn,
            is4thTile=ctx.last_of_kind,
            isAboutKong=ctx.kong_replacement or ctx.robbing_kong,
            isWallLast=ctx.last_tile,
            seatWind="ESWN".index(ctx.seat),
            prevalentWind="ESWN".index(ctx.prevalent),
            verbose=True,
        )
    except TypeError:
        return None
    out: dict[str, int] = {}
    for points, count, _cn, en in res:
        fid = NAMES[_norm(en)]
        out[fid] = out.get(fid, 0) + points * count
    return out


# --- classification of disagreements ---------------------------------------------------

def chinese_config() -> Any:
    """Our engine with every known rule difference switched to the Chinese calculator's."""
    from rulebook.scoring.mcr.config import MCRConfig

    return MCRConfig(
        fan_57b_points=5,
        fan_48_points=6,
        all_green_excludes_half_flush=True,
        concealed_fans_exclude_fully_concealed=True,
        waits_include_fifth_copy=True,
        all_terminals_excludes_double_pung=True,
    )


SWITCHES = {
    # switch name -> (value in the Chinese calculator)
    "fan_57b_points": 5,
    "fan_48_points": 6,
    "all_green_excludes_half_flush": True,
    "concealed_fans_exclude_fully_concealed": True,
    "waits_include_fifth_copy": True,
    "all_terminals_excludes_double_pung": True,
}

# 1-point fans among which the seed lets the player choose ("либо ..., либо ...")
FREE_CHOICE = frozenset({"69", "70", "71", "72", "77", "78", "79"})


def fan_points(ev: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in ev.fans:
        out[f.id] = out.get(f.id, 0) + f.points * f.count
    return out


def classify(hand: Hand, context: dict[str, Any], theirs: dict[str, int]) -> list[str] | None:
    """Why our score differs from PyMahjongGB's; ``None`` when it cannot be explained.

    Returns the names of the rule switches (documented in docs/scoring/mcr-differences.md)
    that turn our result into theirs, plus "equal_value_choice" when, after that, both
    scores are equal and differ only by an equal-value free choice (3.9.1.5 (4)).
    """
    from dataclasses import replace

    from rulebook.scoring.mcr.config import DEFAULT_CONFIG
    from rulebook.scoring.mcr.evaluate import evaluate

    ctx = make_context(**context)
    default = evaluate(hand, ctx)
    assert default is not None
    alternatives: list[dict[str, int]] = []
    compat = evaluate(hand, ctx, chinese_config(), alternatives)
    assert compat is not None
    ours = fan_points(compat)
    reasons = [
        name for name, value in SWITCHES.items()
        if fan_points(evaluate(hand, ctx, replace(DEFAULT_CONFIG, **{name: value})))  # type: ignore[arg-type]
        != fan_points(default)
    ]
    if ours == theirs:
        return reasons
    if sum(ours.values()) != sum(theirs.values()):
        return None
    no_extra = {k: v for k, v in theirs.items() if k not in ("43", "81")}
    if any(alt == no_extra for alt in alternatives):
        return [*reasons, "equal_value_choice"]
    diff = set(ours.items()) ^ set(theirs.items())
    if all(fid in FREE_CHOICE for fid, _ in diff):
        return [*reasons, "equal_value_choice"]
    return None

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

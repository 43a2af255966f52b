"""Arrangements of winning hands and the waits of hands of thirteen."""

import random

import pytest

from rulebook.scoring.arrange import (
    HONORS_KNITTED,
    KNITTED_STRAIGHT,
    SEVEN_PAIRS,
    STANDARD,
    THIRTEEN_ORPHANS,
    arrangements,
    is_complete,
    waits_of,
)
from rulebook.scoring.hand import parse_hand
from rulebook.scoring.tiles import format_tiles, parse_tiles


def forms(text: str) -> list[str]:
    return sorted({a.form for a in arrangements(parse_hand(text))})


def shapes(text: str) -> set[tuple[tuple[str, int], ...]]:
    return {tuple((s.kind, s.tile) for s in a.sets) for a in arrangements(parse_hand(text))}


def test_standard_hand_with_melds() -> None:
    arr = arrangements(parse_hand("[EEEE][FFFF,1]123m456p5s5s"))
    assert len(arr) == 1
    a = arr[0]
    assert a.form == STANDARD
    assert [(s.kind, s.tile, s.concealed, s.meld) for s in a.sets] == [
        ("kong", 27, True, 0),
        ("kong", 32, False, 1),
        ("chow", 0, True, -1),
        ("chow", 12, True, -1),
        ("pair", 22, True, -1),
    ]
    assert a.win_set is not None and a.win_set.kind == "pair"


def test_all_splits_of_pure_tiles() -> None:
    got = shapes("1112223334445m5m")
    assert got == {
        (("pung", 0), ("pung", 1), ("pung", 2), ("pung", 3), ("pair", 4)),
        (("chow", 1), ("chow", 1), ("chow", 1), ("pung", 0), ("pair", 4)),
        (("chow", 1), ("chow", 2), ("chow", 2), ("pung", 0), ("pair", 1)),
        (("chow", 0), ("chow", 0), ("chow", 0), ("pung", 3), ("pair", 4)),
    }


def test_winning_tile_placements_are_separate_arrangements() -> None:
    # 5m can complete the pung 555m or the chow 345m
    arr = arrangements(parse_hand("[EEE,1][FFF,1]34555m66p5m"))
    assert {a.win_set.kind for a in arr if a.win_set} == {"pung", "chow"}


def test_seven_pairs_and_its_standard_reading() -> None:
    assert forms("1122335566778m8m") == [SEVEN_PAIRS, STANDARD]
    # four equal tiles are two pairs
    assert forms("1111m2233p4455sEE") == [SEVEN_PAIRS]


def test_thirteen_orphans() -> None:
    arr = arrangements(parse_hand("19m19p19sESWNCFPP"))
    assert [a.form for a in arr] == [THIRTEEN_ORPHANS]
    assert sum(1 for s in arr[0].sets if s.kind == "pair") == 1


def test_honours_and_knitted_tiles() -> None:
    assert forms("147m258p369sESWNC") == [HONORS_KNITTED]
    assert forms("147m25p369sESWNCF") == [HONORS_KNITTED]
    assert forms("147m258p369sESWNN") == []  # a pair is not allowed


def test_knitted_straight_with_set_and_pair() -> None:
    assert forms("147m258p369s123sEE") == [KNITTED_STRAIGHT]
    arr = arrangements(parse_hand("[123m,2]147p258s369m11m"))
    assert [a.form for a in arr] == [KNITTED_STRAIGHT]
    assert [s.kind for s in arr[0].sets] == ["chow", "knitted", "knitted", "knitted", "pair"]
    assert forms("[123m,2][456m,2]147p258s36m") == []  # needs at most one meld


def test_not_complete() -> None:
    assert arrangements(parse_hand("123m456p789s1134s9s")) == []
    assert not is_complete(parse_hand("123m456p789s1134s9s"))


def test_nine_gates_waits_on_all_nine() -> None:
    waits = waits_of((), parse_tiles("1112345678999m"))
    assert format_tiles(waits) == "123456789m"


def test_a_tile_held_four_times_is_no_wait() -> None:
    hand = parse_hand("[1111m]23m456p789s11s4m")
    assert format_tiles(waits_of(hand.melds, hand.concealed)) == "4m"


def test_waits_of_special_hands() -> None:
    assert format_tiles(waits_of((), parse_tiles("19m19p19sESWNCFP"))) == "19m19p19sESWNCFP"
    assert format_tiles(waits_of((), parse_tiles("19m19p19sESWNCFF"))) == "P"
    assert format_tiles(waits_of((), parse_tiles("147m258p36sESWNC"))) == "9sFP"
    assert format_tiles(waits_of((), parse_tiles("1122335566778m"))) == "58m"


@pytest.mark.parametrize("seed", range(3))
def test_is_complete_agrees_with_arrangements(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(400):
        wall = [t for t in range(34) for _ in range(4)]
        rng.shuffle(wall)
        tiles = sorted(wall[:14])
        # bias towards winning shapes: half the time build from sets
        if rng.random() < 0.5:
            tiles = []
            counts = [0] * 34
            while len(tiles) < 12:
                t = rng.randrange(34)
                if rng.random() < 0.5 and t < 27 and t % 9 <= 6:
                    group = [t, t + 1, t + 2]
                else:
                    group = [t] * 3
                if all(counts[g] + group.count(g) <= 4 for g in group):
                    tiles += group
                    for g in group:
                        counts[g] += 1
            p = rng.randrange(34)
            if counts[p] <= 2:
                tiles += [p, p]
            else:
                continue
        text = format_tiles(tiles[:-1]) + format_tiles([tiles[-1]])
        hand = parse_hand(text)
        assert is_complete(hand) == bool(arrangements(hand)), text


def test_has_other_wait_agrees_with_waits_of() -> None:
    from rulebook.scoring.arrange import has_other_wait
    from rulebook.scoring.generate import random_hands

    for g in random_hands(1500, seed=11):
        h = g.hand
        expected = len(waits_of(h.melds, h.concealed)) > 1
        assert has_other_wait(h.melds, h.concealed, h.win_tile) == expected, g.text


def _splits_by_search(counts: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """The splits of one suit by the depth-first search, in the order it finds them."""
    from rulebook.scoring.suits import _PAIR, _suit_rec

    unique: dict[tuple[int, ...], int] = {}
    for split in _suit_rec(list(counts), 0, False):
        key = tuple(sorted(split))
        unique.setdefault(key, 1 if key and key[-1] >= _PAIR else 0)
    return tuple(unique.items())


def _vectors(max_count: int, max_tiles: int, prefix: tuple[int, ...] = ()):  # type: ignore[no-untyped-def]
    if len(prefix) == 9:
        yield prefix
        return
    room = max_tiles - sum(prefix)
    for c in range(min(max_count, room) + 1):
        yield from _vectors(max_count, max_tiles, (*prefix, c))


def test_split_table_built_at_import_matches_the_search() -> None:
    """The splits found at import (``_SPLITS``) are those of the search, in its order,
    for every nine-count vector a hand can hold (counts up to four, up to 14 tiles)."""
    from rulebook.scoring.suits import _suit_offsets

    checked = 0
    for counts in _vectors(4, 14):
        assert _suit_offsets.__wrapped__(counts) == _splits_by_search(counts), counts
        checked += 1
    assert checked == 405_350


def test_suit_tables_accept_bytes_and_list_counts() -> None:
    """Counts may come as a list or a bytearray; both give the same arrangements."""
    from rulebook.scoring.arrange import _standard_codes, concealed_counts

    hand = parse_hand("[123m,1]123456p99sEEE")
    as_bytes = concealed_counts(hand)
    assert isinstance(as_bytes, bytearray)
    assert _standard_codes(list(as_bytes)) == _standard_codes(as_bytes) != []

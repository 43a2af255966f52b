"""The pure rules of drop-outs and substitutes: who plays a session, who is ranked where,
that a substitute is never rated, and a redraw that counts the sessions kept."""

from __future__ import annotations

import datetime
from fractions import Fraction

from ratings.rules.method import MethodConfig, Outcome, rate_period
from rulebook.scoring.standings import Standing
from tournaments.rules.seating_draw import draw_sessions
from tournaments.rules.session_players import allowed_players, expected_players
from tournaments.rules.withdrawn_ranking import BELOW, UNRANKED, place


def _s(player: int, tp: int, gp: int, sessions: int = 6) -> Standing:
    return Standing(0, player, Fraction(tp), gp, 0, sessions)


RANKING = [_s(9, 14, 80, 3), _s(1, 12, 40), _s(2, 12, 40), _s(3, 10, 0), _s(8, 2, -90, 3)]


def test_withdrawn_below_the_finishers_substitutes_unranked():
    placed = place(RANKING, substitutes={8}, withdrawn={9: 4}, rule=BELOW)
    assert [(p.standing.player, p.rank) for p in placed] == [
        (1, 1), (2, 1), (3, 3), (9, 4), (8, None)]


def test_withdrawn_unranked():
    placed = place(RANKING, substitutes={8}, withdrawn={9: 4}, rule=UNRANKED)
    assert [(p.standing.player, p.rank) for p in placed] == [
        (1, 1), (2, 1), (3, 3), (9, None), (8, None)]


def test_who_plays_a_session():
    registered, withdrawn, subs = [1, 2, 3, 8, 9], {9: 4}, {8}
    assert expected_players(3, registered=registered, withdrawn=withdrawn,
                            substitutes=subs) == {1, 2, 3, 9}
    assert expected_players(4, registered=registered, withdrawn=withdrawn,
                            substitutes=subs) == {1, 2, 3}
    assert allowed_players(4, registered=registered, withdrawn=withdrawn) == {1, 2, 3, 8}


def test_a_substitute_is_an_opponent_and_never_rated():
    day = datetime.date(2026, 5, 3)
    outcome = Outcome(1, day, 1, 1, ((1, 30), (2, 10), (3, -10), (8, -30)),
                      unrated=frozenset({8}))
    changes = rate_period(24316, [outcome], {}, MethodConfig())
    assert [c.player for c in changes] == [1, 2, 3]
    assert all(c.games == 3 for c in changes)
    # the same player, rated in another tournament of the same month
    other = Outcome(2, day, 1, 1, ((8, 30), (4, 10), (5, -10), (6, -30)))
    changes = rate_period(24316, [outcome, other], {}, MethodConfig())
    assert {c.player: c.games for c in changes}[8] == 3


def test_redraw_from_a_session_seats_each_session_with_its_players():
    players = list(range(1, 13))
    before = [[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]]
    later = [p for p in players if p != 1] + [13]
    seating = draw_sessions([players, later, later], seed=3, before=before)
    assert len(seating.sessions) == 3
    assert sorted(p for t in seating.sessions[0] for p in t) == players
    for session in seating.sessions[1:]:
        assert sorted(p for t in session for p in t) == sorted(later)

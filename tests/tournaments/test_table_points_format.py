"""Issue 28: table points read the same on every page and in the PDF: whole numbers whole,
shares with up to two decimals ("0.5" and "9.5", never "0.50" beside "9.5"), localised."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from django.test import Client
from django.utils import translation

from tournaments.templatetags.tournament_numbers import table_points


def test_one_format_localised():
    with translation.override("en"):
        assert [table_points(v) for v in (Fraction(1, 2), Fraction(19, 2), Fraction(7, 3),
                                          Fraction(9), Decimal("9.50"), 0.5, None)] == \
            ["0.5", "9.5", "2.33", "9", "9.5", "0.5", ""]
    with translation.override("ru"):
        assert table_points(Fraction(19, 2)) == "9,5"
    with translation.override("fr"):
        assert table_points(Fraction(1, 2)) == "0,5"


@pytest.mark.django_db
def test_standings_page_has_no_two_decimal_halves(make_tournament):
    from tests.tournaments.fixtures import session_payload
    from tournaments import services
    from tournaments.rules.results_files import parse_results_json

    t = make_tournament("accredited", players=8)
    services.seating_draw(tournament=t, user=t.organizer, seed=1)
    # two tied second at every table share 2 + 1 table points: 1.5 each
    payload = {"sessions": [session_payload(t, 1, points=(30, 0, 0, -30))]}
    parsed, problems = parse_results_json(payload)
    assert not problems
    services.results_record(tournament=t, user=t.organizer, sessions=parsed)
    page = Client().get(f"/en/tournaments/{t.pk}/standings/").content.decode()
    assert ">1.5<" in page or "1.5 /" in page
    assert "1.50" not in page
    ru = Client().get(f"/ru/tournaments/{t.pk}/standings/").content.decode()
    assert "1,5" in ru and "1,50" not in ru

"""Issue 38, item 8: what cannot be undone asks first. The organizer's "Withdraw" on the
entries page (it releases the place, moves the waiting list and mails) and the "x" of a
hand line on the table's page open a disclosure whose "Yes, ..." button does it; no
script."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

import pytest

from federation import selectors as federation_selectors
from tournaments import services
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def _details_around(html: str, marker: str) -> str:
    """The <details> element that holds ``marker``."""
    at = html.index(marker)
    start = html.rindex("<details", 0, at)
    assert html.index("</details>", start) > at
    return html[start:html.index("</details>", start)]


def test_the_organizers_withdraw_asks_first(make_tournament, make_user, client, organizer):
    today = federation_selectors.today()
    t = make_tournament("accredited", start_date=today + timedelta(days=60),
                        end_date=today + timedelta(days=61), max_players=2,
                        fee_member=Decimal("20.00"), fee_other=Decimal("30.00"),
                        currency="EUR")
    entry = services.entry_create(tournament=t, user=make_user(), first_name="Anna",
                                  last_name="Kowalska", country="PL")
    client.force_login(organizer)
    html = client.get(f"/en/tournaments/{t.pk}/entries/").content.decode()
    block = _details_around(html, f'data-testid="withdraw-{entry.pk}"')
    assert "<summary>Withdraw</summary>" in block
    assert "moves up" in block and "cannot be undone" in block
    assert re.search(r'value="withdraw"[^>]*>Yes, withdraw this entry<', block)
    # the other actions' form has no withdraw button of its own any more
    assert html.count('value="withdraw"') == 1
    answer = client.post(f"/en/tournaments/{t.pk}/entries/{entry.pk}/",
                         {"action": "withdraw"})
    assert answer.status_code == 302
    assert Entry.objects.get(pk=entry.pk).status == "withdrawn"


def test_the_x_of_a_hand_line_asks_first(make_tournament, organizer, client):
    t = make_tournament("accredited", players=8)
    services.seating_draw(tournament=t, user=organizer, seed=1)
    (entry, _other) = services.table_entries_open(tournament=t, session=1, user=organizer)
    services.table_entry_line_add(entry=entry, line={"kind": "draw", "id": "d1"})
    html = client.get(f"/en/tournaments/table/{entry.token}/").content.decode()
    block = _details_around(html, 'data-testid="remove-1"')
    assert 'aria-label="Remove line 1"' in block and "Yes, remove line 1" in block
    assert 'name="line" value="d1"' in block

"""Draft news written for editors when a tournament is accredited and when its results are
confirmed (the podium); the tournaments app only sends its signals (docs/decisions/0530)."""

from __future__ import annotations

import pytest
from wagtail.models import Locale

from content.models import NewsIndexPage, NewsPage
from tournaments import services
from tournaments.selectors import tournament_standings

pytestmark = pytest.mark.django_db


def drafts() -> list[NewsPage]:
    return list(NewsPage.objects.order_by("pk"))


def test_accreditation_and_confirmed_results_each_write_one_draft(site_content, make_tournament,
                                                                  organizer, officer,
                                                                  client) -> None:
    tournament = make_tournament("accredited", players=12, name="Amsterdam Open")
    [accredited] = drafts()
    assert not accredited.live and accredited.has_unpublished_changes
    assert accredited.locale == Locale.objects.get(language_code="ru")
    assert accredited.get_parent().specific_class is NewsIndexPage
    assert accredited.tag == "tournaments" and "Amsterdam Open" in accredited.title
    assert [b.block_type for b in accredited.body] == ["paragraph", "link"]
    assert accredited.body[1].value["target"] == str(tournament.pk)
    assert client.get("/ru/news/").content.decode().count("Amsterdam Open") == 0  # a draft

    from tests.tournaments.fixtures import record_all_sessions

    record_all_sessions(tournament, organizer)
    tournament = services.tournament_confirm(tournament=tournament, user=organizer)
    results = drafts()[1]
    podium = [row for row in tournament_standings(tournament) if row.rank <= 3]
    assert len(podium) >= 3
    assert not results.live and "Amsterdam Open" in results.title
    for row in podium:
        assert f"{row.rank}. {row.name}" in results.summary
    player_links = [b.value["target"] for b in results.body if b.block_type == "link"
                    and b.value["kind"] == "player"]
    assert player_links == [str(row.player) for row in podium]
    # once published by an editor, the post is news like any other
    results.save_revision().publish()
    assert "Amsterdam Open" in client.get("/ru/news/").content.decode()


def test_no_news_index_no_draft_and_the_tournament_is_still_accredited(make_tournament) -> None:
    for index in NewsIndexPage.objects.all():  # every test's site has them: not this one
        index.delete()
    tournament = make_tournament("accredited", players=12)
    assert tournament.state == "accredited"
    assert NewsPage.objects.count() == 0

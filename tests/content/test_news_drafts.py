"""Draft news written for editors when a tournament is accredited and when its results are
confirmed (the podium); the tournaments app only sends its signals (docs/decisions/0530)."""

from __future__ import annotations

import pytest
from wagtail.models import Locale

from content.models import NewsIndexPage, NewsPage
from tournaments import services
from tournaments.selectors import tournament_standings

pytestmark = pytest.mark.django_db


LANGUAGES = ["ru", "en", "zh-hans", "fr", "nl"]


def drafts(language: str = "ru") -> list[NewsPage]:
    return list(NewsPage.objects.filter(locale__language_code=language).order_by("pk"))


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


def test_issue_38_the_drafts_are_written_in_every_site_language(site_content, make_tournament,
                                                                 organizer) -> None:
    """Issue 38 (5): the drafts were written in Russian only, so /en/news/ had no results."""
    tournament = make_tournament("accredited", players=12, name="Amsterdam Open")
    posts = {page.locale.language_code: page
             for page in NewsPage.objects.select_related("locale")}
    assert sorted(posts) == sorted(LANGUAGES)
    assert posts["en"].title == "Amsterdam Open is accredited"
    assert len({page.title for page in posts.values()}) == 5  # each in its own words
    assert "is accredited by the federation" in posts["en"].summary
    assert "Нидерланды" in posts["ru"].summary and "Netherlands" in posts["en"].summary
    assert len({page.translation_key for page in posts.values()}) == 1  # one post, translated
    for language, page in posts.items():
        assert page.get_parent().specific.locale.language_code == language
        assert not page.live and page.slug == f"tournament-{tournament.pk}-accredited"
    # a second accreditation signal (re-sent) writes nothing more
    from content.services import news_draft_for_accreditation

    assert news_draft_for_accreditation(tournament=tournament) == []
    assert NewsPage.objects.count() == 5


def _editor(make_user):
    """An editor as the roles give it (the demo's editor@example.org): the "Editors" group."""
    user = make_user("Editors", email="editor@example.org")
    user.is_staff = False
    user.save()
    return user


def test_issue_38_an_editor_finds_the_drafts_on_the_dashboard_and_publishes_one(
        site_content, make_tournament, make_user, client) -> None:
    """Issue 38 (5): an editor could only "Submit to moderators" and the drafts were not on
    the dashboard; an editor now publishes, and /en/news/ shows the post."""
    make_tournament("accredited", players=12, name="Amsterdam Open")
    editor = _editor(make_user)
    from wagtail.users.models import UserProfile

    UserProfile.get_for_user(editor).__class__.objects.filter(user=editor).update(
        preferred_language="en")
    client.force_login(editor)
    home = client.get("/admin/").content.decode()
    assert "News drafts from tournaments" in home
    draft = NewsPage.objects.get(locale__language_code="en")
    assert f'href="/admin/pages/{draft.pk}/edit/">Amsterdam Open is accredited</a>' in home
    assert "Amsterdam Open" not in client.get("/en/news/").content.decode()

    from wagtail.permission_policies.pages import PagePermissionPolicy

    assert PagePermissionPolicy().user_has_permission(editor, "publish")
    assert draft.permissions_for_user(editor).can_publish()
    edit = client.get(f"/admin/pages/{draft.pk}/edit/").content.decode()
    assert 'name="action-publish"' in edit
    draft.save_revision(user=editor).publish(user=editor)
    assert "Amsterdam Open is accredited" in client.get("/en/news/").content.decode()
    # the published post leaves the dashboard's list; the other languages still wait
    from content.wagtail_hooks import news_draft_tasks

    [task] = news_draft_tasks(editor)
    assert task.count == 4


def test_issue_38_who_does_not_publish_pages_sees_no_drafts(site_content, make_tournament,
                                                           organizer) -> None:
    from content.wagtail_hooks import news_draft_tasks

    make_tournament("accredited", players=12)
    assert news_draft_tasks(organizer) == []
    from tournaments.models import Tournament

    assert Tournament.objects.count() == 1


def test_the_dashboard_lines_take_two_queries_however_many_drafts(
        site_content, make_tournament, make_user, django_assert_max_num_queries) -> None:
    from content.wagtail_hooks import news_draft_tasks

    editor = _editor(make_user)
    make_tournament("accredited", players=12)
    with django_assert_max_num_queries(6):
        assert len(news_draft_tasks(editor)) == 1
    for _ in range(3):
        make_tournament("accredited", players=12)
    with django_assert_max_num_queries(6):
        assert len(news_draft_tasks(editor)) == 4

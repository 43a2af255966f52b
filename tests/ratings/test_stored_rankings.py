"""Issue 43 (decision 0821): the EMA ranking and the club ranking are stored and change
when a tournament is confirmed or corrected, when players are merged and when a club's
members change; the pages read them, not every result."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from federation import services as federation_services
from federation.models import Club, Member, MembershipType
from ratings.models import EmaBaseRank, StoredRanking
from ratings.rules import ema
from ratings.selectors import ema_ranking
from tests.factories import UserFactory
from tests.tournaments.confirmed_results import confirmed_tournament, players
from tournaments.models import TableResult, Tournament
from tournaments.rules.results_files import SeatEntry, SessionEntry, TableEntry
from tournaments.services import identity, tournament_confirm, tournament_correct

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()


@pytest.fixture(autouse=True)
def _small_tournaments(settings):
    settings.TOURNAMENT_MIN_PLAYERS = 4


def stored_ema(ruleset: str = "mcr") -> list[tuple[int, int, Decimal]]:
    stored = StoredRanking.objects.get(kind="ema", ruleset=ruleset)
    return list(stored.ema_rows.order_by("rank", "player_id")
                .values_list("rank", "player_id", "score"))


def computed_ema(ruleset: str = "mcr") -> list[tuple[int, int, Decimal]]:
    return [(r.rank, r.score.player, ema.rounded(r.score.score))
            for r in ema_ranking(ruleset, TODAY)]


def mers_confirmed(people, days_ago: int, seed: int, capture) -> Tournament:
    t = confirmed_tournament(people, TODAY - timedelta(days=days_ago), seed=seed,
                             state=Tournament.State.RESULTS_SUBMITTED)
    Tournament.objects.filter(pk=t.pk).update(mers=True, mers_weight=Decimal("1"))
    t.refresh_from_db()
    with capture(execute=True):
        tournament_confirm(tournament=t, user=t.organizer)
    return t


def negate_every_session(t: Tournament) -> list[SessionEntry]:
    sessions = []
    for session in range(1, t.sessions + 1):
        tables = []
        rows = TableResult.objects.filter(tournament=t, session=session)
        for table in sorted(set(rows.values_list("table", flat=True))):
            by_wind = {r.seat: r for r in rows.filter(table=table)}
            tables.append(TableEntry(table=table, seats=tuple(
                SeatEntry(player=by_wind[w].player_id, game_points=-by_wind[w].game_points)
                for w in "ESWN")))
        sessions.append(SessionEntry(session=session, tables=tuple(tables)))
    return sessions


def test_ema_ranking_stored_changes_on_confirm_correction_and_merge(
        client, django_capture_on_commit_callbacks):
    people = players(8)
    newcomer = players(1, prefix="Newcomer")[0]
    first = mers_confirmed(people, 60, 1, django_capture_on_commit_callbacks)
    assert EmaBaseRank.objects.filter(tournament=first).count() == 8  # stored at confirmation
    assert client.get("/en/ratings/ema/").status_code == 200
    assert stored_ema() == []  # one result each: nobody listed yet
    # a second tournament: stored again through the task queue once committed
    second = mers_confirmed([*people[:7], newcomer], 30, 2, django_capture_on_commit_callbacks)
    after_confirm = stored_ema()
    assert len(after_confirm) == 7 and after_confirm == computed_ema()
    page = client.get("/en/ratings/ema/").content.decode()
    assert "7 players listed" in page

    officer = UserFactory(is_staff=True, is_superuser=True)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_correct(tournament=second, user=officer,
                           sessions=negate_every_session(second), reason="signs reversed")
    after_correction = stored_ema()
    assert after_correction != after_confirm and after_correction == computed_ema()

    # the newcomer was the eighth player in the first tournament under another record
    with django_capture_on_commit_callbacks(execute=True):
        identity.player_merge(player=people[7], into=newcomer, user=officer)
    after_merge = stored_ema()
    assert newcomer.pk in {p for _r, p, _s in after_merge}
    assert len(after_merge) == 8 and after_merge == computed_ema()


def _listed_member(club: Club, name: str) -> Member:
    honorary, _ = MembershipType.objects.get_or_create(kind="honorary",
                                                       defaults={"is_free": True})
    return Member.objects.create(
        user=UserFactory(), name_native=name, name_latin=name, membership_type=honorary,
        application=Member.Application.APPROVED, joined_on=TODAY, club=club,
        public_consent=True)


def _club_of_the_first_four(people) -> Club:
    """A club whose listed members are the first four players."""
    tulips = Club.objects.create(name="Tulip Tiles", city="Amsterdam")
    for player in people[:4]:
        player.member = _listed_member(tulips, player.name_latin)
        player.save()
    return tulips


def test_club_ranking_stored_changes_with_results_and_members(
        client, settings, django_capture_on_commit_callbacks):
    settings.CLUB_RANKING_PLAYERS = 1
    settings.RATINGS_PROVISIONAL_RD = 1000  # every rating counts in the club ranking
    people = players(8)
    tulips = _club_of_the_first_four(people)
    mers_confirmed(people, 60, 1, django_capture_on_commit_callbacks)
    page = client.get("/en/clubs/").content.decode()
    stored = StoredRanking.objects.get(kind="club", ruleset="mcr")
    [row] = stored.club_rows.all()
    assert row.club_id == tulips.pk and row.players == 4
    assert "Tulip Tiles" in page[page.index('id="club-ranking"'):]
    # a second tournament moves the ratings: the stored ranking follows
    mers_confirmed(people, 30, 2, django_capture_on_commit_callbacks)
    [again] = StoredRanking.objects.get(kind="club", ruleset="mcr").club_rows.all()
    assert again.counted != row.counted or again.mean != row.mean
    # a member leaving the public list leaves the ranking (the membership service tells)
    with django_capture_on_commit_callbacks(execute=True):
        for player in people[:4]:
            federation_services.member_update_contact(
                member=player.member, changed_by=None, public_consent=False)
    assert not StoredRanking.objects.get(kind="club", ruleset="mcr").club_rows.exists()


def _count(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


def test_ema_and_club_pages_read_the_stored_rankings_at_1x_and_10x(
        client, django_capture_on_commit_callbacks):
    small = players(4)
    mers_confirmed(small, 60, 1, django_capture_on_commit_callbacks)
    mers_confirmed(small, 30, 2, django_capture_on_commit_callbacks)
    client.get("/en/ratings/ema/"), client.get("/en/clubs/")  # stored
    ema_small, club_small = _count(client, "/en/ratings/ema/"), _count(client, "/en/clubs/")
    api_small = _count(client, "/api/v1/rankings/ema")
    many = players(40, prefix="More")
    for seed in (3, 4):
        mers_confirmed(many, 20 - seed, seed, django_capture_on_commit_callbacks)
    assert len(StoredRanking.objects.get(kind="ema", ruleset="mcr").ema_rows.all()) == 44
    assert _count(client, "/en/ratings/ema/") == ema_small
    assert _count(client, "/en/clubs/") == club_small
    assert _count(client, "/api/v1/rankings/ema") == api_small


def test_confirming_queues_the_rerate_and_the_organizer_sees_it(
        client, settings, django_capture_on_commit_callbacks):
    """Decision 0822: the re-rate runs on the task queue after the commit; until it has
    run, the organizer's page says the ratings are being updated."""
    from ratings.models import RatingEntry
    from ratings.services import ratings_recompute

    settings.RATINGS_RERATE_ON_QUEUE = True
    people = players(8)
    early = confirmed_tournament(people, TODAY - timedelta(days=90), seed=1)
    ratings_recompute(ruleset="mcr")
    before = set(RatingEntry.objects.values_list("player_id", "period", "rating"))
    late = confirmed_tournament(people, TODAY - timedelta(days=20), seed=2,
                                state=Tournament.State.RESULTS_SUBMITTED)
    # the confirmation commits without the re-rate (the queue is not run here)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        tournament_confirm(tournament=late, user=late.organizer)
    late.refresh_from_db()
    assert late.rerate_queued_at is not None and queued
    assert set(RatingEntry.objects.values_list("player_id", "period", "rating")) == before
    client.force_login(late.organizer)
    page = client.get(f"/en/tournaments/{late.pk}/manage/").content.decode()
    assert 'data-testid="rerate-queued"' in page and "ratings are being updated" in page
    ru = client.get(f"/ru/tournaments/{late.pk}/manage/").content.decode()
    assert "Рейтинги пересчитываются" in ru
    for callback in queued:  # the worker runs the job
        callback()
    late.refresh_from_db()
    assert late.rerate_queued_at is None
    month = late.end_date.strftime("%Y-%m")
    assert RatingEntry.objects.filter(period=month).count() == 8
    # only the changed months were written again: the earlier month's rows are untouched
    early_month = early.end_date.strftime("%Y-%m")
    assert {r for r in before if r[1] == early_month} == set(
        RatingEntry.objects.filter(period=early_month).values_list("player_id", "period",
                                                                   "rating"))
    assert 'data-testid="rerate-queued"' not in client.get(
        f"/en/tournaments/{late.pk}/manage/").content.decode()


def test_the_officers_mers_decision_after_the_results_changes_the_stored_ranking(
        make_tournament, officer):
    """The EMA sometimes certifies late: the officer's MERS flag on a confirmed tournament
    drops the stored EMA ranking of its rules (the next reader stores it anew, the
    tournament counted), and withdrawing the flag does the same."""
    from ratings.rankings import rankings_store
    from tournaments import services

    t = make_tournament("results confirmed", players=12)
    stored = StoredRanking.objects.filter(kind=StoredRanking.Kind.EMA, ruleset=t.ruleset)
    rankings_store(rulesets=[t.ruleset])
    assert stored.exists()
    services.tournament_mers_set(tournament=t, user=officer, mers=True, mers_weight=Decimal(1),
                                 reason="as the EMA gave it")
    assert not stored.exists()
    rankings_store(rulesets=[t.ruleset])
    assert stored.exists()
    services.tournament_mers_set(tournament=t, user=officer, mers=False, mers_weight=None)
    assert not stored.exists()


def test_a_merge_rerates_on_the_queue_and_the_merge_page_says_so(
        client, settings, django_capture_on_commit_callbacks):
    """Decision 0825: a merge (and its undo) commits without re-rating; the merge page says
    the ratings are being updated; once the queued job has run, the ratings are those of a
    full recompute and the stored rankings have changed."""
    from django.contrib.auth.models import Permission

    from ratings.models import RatingEntry
    from ratings.services import ratings_recompute
    from tournaments.models import PlayerMerge

    def ratings() -> set[tuple[int, str, float, int]]:
        return set(RatingEntry.objects.filter(ruleset="mcr").values_list(
            "player_id", "period", "rating", "games"))

    settings.RATINGS_RERATE_ON_QUEUE = True
    people = players(8)
    newcomer = players(1, prefix="Newcomer")[0]
    older = confirmed_tournament(players(8, prefix="Older"), TODAY - timedelta(days=400),
                                 seed=9)  # before either player: its month is not re-rated
    mers_confirmed(people, 90, 1, django_capture_on_commit_callbacks)
    mers_confirmed([*people[:7], newcomer], 30, 2, django_capture_on_commit_callbacks)
    ratings_recompute(ruleset="mcr")
    before, ema_before = ratings(), stored_ema()
    older_month = {r for r in before if r[1] == older.end_date.strftime("%Y-%m")}
    assert older_month and ema_before == computed_ema()

    officer = UserFactory(is_staff=True)
    officer.user_permissions.add(Permission.objects.get(codename="change_player"),
                                 Permission.objects.get(codename="access_admin"))
    from wagtail.users.models import UserProfile

    profile = UserProfile.get_for_user(officer)
    profile.preferred_language = "en"  # the admin's words below are English
    profile.save()
    client.force_login(officer)
    # the membership officer merges the eighth player of the first tournament into the
    # newcomer through the admin's page
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = client.post("/admin/players/merge/preview/",
                               {"player": people[7].pk, "into": newcomer.pk}, follow=True)
    assert response.status_code == 200 and queued
    merge = PlayerMerge.objects.get()
    page = response.content.decode()
    assert "The ratings are being updated" in page
    assert f'data-testid="rerating-{merge.pk}"' in page
    assert ratings() == before  # nothing re-rated in the request
    assert not StoredRanking.objects.filter(ruleset="mcr").exists()  # dropped at once
    for callback in queued:  # the worker runs the job
        callback()
    after = ratings()
    ratings_recompute(ruleset="mcr")  # what a full recompute gives
    assert after == ratings() and after != before
    assert {r for r in after if r[1] == older.end_date.strftime("%Y-%m")} == older_month
    assert people[7].pk not in {r[0] for r in after}
    ema_after = stored_ema()
    assert ema_after != ema_before and ema_after == computed_ema()
    assert newcomer.pk in {p for _r, p, _s in ema_after}
    assert f'data-testid="rerating-{merge.pk}"' not in client.get(
        "/admin/players/merge/").content.decode()

    # the undo: the same way back
    with django_capture_on_commit_callbacks(execute=False) as queued:
        client.post(f"/admin/players/merges/{merge.pk}/undo/")
    assert f'data-testid="rerating-{merge.pk}"' in client.get(
        "/admin/players/merge/").content.decode()
    for callback in queued:
        callback()
    assert ratings() == before and stored_ema() == ema_before


def test_stored_rankings_are_kept_with_a_note_until_the_queued_job_stores_them(
        client, settings, django_capture_on_commit_callbacks):
    """Decision 0828: a confirmation marks the stored rankings "being updated" instead of
    dropping them, so that no reader computes a ranking of the whole federation in a
    request; the pages and the API keep the rows stored before, say so, and read only the
    stored rows; the queued job stores them again and the note goes."""
    settings.RANKINGS_KEPT_WHILE_UPDATING = True
    settings.CLUB_RANKING_PLAYERS = 1
    settings.RATINGS_PROVISIONAL_RD = 1000
    people = players(8)
    _club_of_the_first_four(people)
    # 40 days apart: the third tournament's month is a new list, which has ended
    mers_confirmed(people, 120, 1, django_capture_on_commit_callbacks)
    mers_confirmed(people, 80, 2, django_capture_on_commit_callbacks)
    before_ema = stored_ema()
    before_club = list(StoredRanking.objects.get(kind="club", ruleset="mcr").club_rows
                       .values_list("club_id", "mean"))
    assert len(before_ema) == 8
    ema_queries = _count(client, "/en/ratings/ema/")
    club_queries = _count(client, "/en/clubs/")
    assert 'data-testid="ranking-updating"' not in client.get("/en/ratings/ema/").content.decode()

    third = confirmed_tournament(people, TODAY - timedelta(days=40), seed=3,
                                 state=Tournament.State.RESULTS_SUBMITTED)
    Tournament.objects.filter(pk=third.pk).update(mers=True, mers_weight=Decimal("1"))
    third.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=False) as queued:
        tournament_confirm(tournament=third, user=third.organizer)
    assert queued  # the jobs wait for the worker
    marked = StoredRanking.objects.filter(updating_since__isnull=False)
    assert set(marked.values_list("kind", flat=True)) == {"ema", "club"}
    assert stored_ema() == before_ema != computed_ema()  # the rows stored before are kept
    page = client.get("/en/ratings/ema/").content.decode()
    assert 'data-testid="ranking-updating"' in page and "8 players listed" in page
    ru = client.get("/ru/clubs/").content.decode()
    assert 'data-testid="ranking-updating"' in ru and "Tulip Tiles" in ru
    assert "This ranking is being updated" not in ru and "Рейтинг пересчитывается" in ru
    assert client.get("/api/v1/rankings/ema").json()["updating"] is True
    # nothing is computed in the request: the same queries as with a fresh ranking
    assert _count(client, "/en/ratings/ema/") == ema_queries
    assert _count(client, "/en/clubs/") == club_queries

    for job in queued:  # the worker runs the jobs
        job()
    assert not StoredRanking.objects.filter(updating_since__isnull=False).exists()
    assert stored_ema() == computed_ema() != before_ema
    assert list(StoredRanking.objects.get(kind="club", ruleset="mcr").club_rows
                .values_list("club_id", "mean")) != before_club
    assert 'data-testid="ranking-updating"' not in client.get("/en/ratings/ema/").content.decode()
    assert client.get("/api/v1/rankings/ema").json()["updating"] is False


def test_a_ranking_stored_by_a_job_that_began_before_a_later_change_stays_marked(
        settings, django_capture_on_commit_callbacks):
    """The job clears the mark only of a change it has seen: a change after the job began
    keeps the note until its own job has run."""
    from ratings.rankings import ema_ranking_store

    settings.RANKINGS_KEPT_WHILE_UPDATING = True
    people = players(8)
    mers_confirmed(people, 60, 1, django_capture_on_commit_callbacks)
    later = timezone.now() + timedelta(minutes=1)  # a change the job has not seen
    StoredRanking.objects.filter(kind="ema").update(updating_since=later)
    ema_ranking_store(ruleset="mcr")
    assert StoredRanking.objects.get(kind="ema").updating_since == later
    StoredRanking.objects.filter(kind="ema").update(updating_since=timezone.now()
                                                    - timedelta(seconds=1))
    ema_ranking_store(ruleset="mcr")
    assert StoredRanking.objects.get(kind="ema").updating_since is None

"""The admin's home page shows each volunteer what waits for them, and only that."""

from __future__ import annotations

import re
from datetime import date
from html import unescape

import pytest
from django.contrib.auth.models import Group, Permission
from django.utils import timezone

from federation.models import DuesInvoice
from ratings.services import rating_period_publish, ratings_recompute
from tests.tournaments.confirmed_results import confirmed_tournament, players
from tournaments import services as tournament_services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def admin_in_english(user) -> None:
    """The admin speaks the user's Wagtail profile language (the site's default otherwise)."""
    from wagtail.users.models import UserProfile

    profile = UserProfile.get_for_user(user)
    profile.preferred_language = "en"
    profile.save()


def tasks(client) -> dict[str, tuple[int, str, str]]:
    """label -> (count, link, detail) of every line of the dashboard's task panels."""
    html = client.get("/admin/").content.decode()
    assert "gravatar.com" not in html  # no staff e-mail hash goes to a third party
    lines = re.findall(
        r'<tr class="dashboard-task[^"]*">\s*<td class="title">\s*<a href="([^"]+)">([^<]+)</a>'
        r'\s*(?:<div class="w-help-text">([^<]*)</div>)?\s*</td>\s*'
        r'<td class="dashboard-task-count"><strong>(\d+)</strong>', html)
    return {unescape(label): (int(count), unescape(href), unescape(detail))
            for href, label, detail, count in lines}


@pytest.fixture
def officer(make_user):
    tournament_services.roles_setup()
    user = make_user(is_staff=True, language="en")
    user.groups.add(Group.objects.get(name=tournament_services.ROLE_OFFICER))
    return user


def test_the_treasurer_sees_the_open_invoices_and_what_is_owed(
        client, treasurer, year_2025, make_member, pay_cash) -> None:
    partly, paid, unpaid = make_member(), make_member(), make_member()
    pay_cash(partly.invoices.get(), "50", date(2025, 2, 1))
    pay_cash(paid.invoices.get(), "120", date(2025, 2, 1))
    make_member(approved=False)  # an application: not the treasurer's task
    admin_in_english(treasurer)
    client.force_login(treasurer)
    lines = tasks(client)
    # the mail queue (decision 0901) is the treasurer's too: nothing waiting here
    assert set(lines) == {"Open invoices", "Mails waiting to be sent again"}
    assert lines["Mails waiting to be sent again"][0] == 0
    count, link, detail = lines["Open invoices"]
    assert count == 2 and link == "/admin/invoices/"
    assert "190.00 EUR" in detail  # 70 + 120
    overdue = DuesInvoice.objects.filter(
        member__in=[partly, unpaid], due_on__lt=timezone.localdate()).count()
    assert detail.endswith(f"past their due date: {overdue}")
    assert client.get(link).status_code == 200


def test_the_membership_officer_sees_the_applications(client, membership_officer, year_2025,
                                                      make_member) -> None:
    make_member(approved=False)
    make_member(approved=False)
    make_member()
    admin_in_english(membership_officer)
    client.force_login(membership_officer)
    lines = tasks(client)
    assert set(lines) == {"Membership applications to review", "Mails waiting to be sent again"}
    count, link, _ = lines["Membership applications to review"]
    assert count == 2 and client.get(link).status_code == 200


def test_the_accreditation_officer_sees_tournaments_and_lists_to_publish(client,
                                                                         officer) -> None:
    people = players(8)
    confirmed_tournament(people, date(2025, 5, 10), sessions=4, seed=1)
    confirmed_tournament(people, date(2025, 5, 10), sessions=4, seed=2,
                         state=Tournament.State.SUBMITTED, name="Summer Cup")
    ratings_recompute()
    admin_in_english(officer)
    client.force_login(officer)
    lines = tasks(client)
    assert set(lines) == {"Tournaments awaiting accreditation",
                          "Past months' rating lists to publish"}
    count, link, _ = lines["Tournaments awaiting accreditation"]
    assert count == 1 and link == "/admin/tournament_admin/?state=submitted"
    assert "Summer Cup" in client.get(link).content.decode()
    count, link, detail = lines["Past months' rating lists to publish"]
    assert (count, detail) == (1, "May 2025")
    assert link.endswith("/ratings/?period=2025-05")
    from wagtail.users.models import UserProfile

    UserProfile.objects.filter(user=officer).update(preferred_language="ru")
    assert tasks(client)["Неопубликованные рейтинг-листы прошлых месяцев"][2] == "Май 2025 г."
    rating_period_publish(period="2025-05", user=officer)
    assert tasks(client)["Неопубликованные рейтинг-листы прошлых месяцев"][0] == 0


def test_an_editor_without_these_duties_sees_no_task_panel(client, make_user) -> None:
    editor = make_user(is_staff=True)
    editor.user_permissions.add(Permission.objects.get(codename="access_admin"))
    admin_in_english(editor)
    client.force_login(editor)
    assert tasks(client) == {}
    html = client.get("/admin/").content.decode()
    assert "Membership: waiting" not in html and "Tournaments and ratings: waiting" not in html

"""Issue 24: players enter tournaments themselves and pay the entry fee (services, API,
permissions, mails, the waiting list, refunds, cash, unpaid places released)."""

from __future__ import annotations

import itertools
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core import mail
from payments import PaymentStatus

from federation import online_payments
from federation import selectors as federation_selectors
from federation.models import DuesInvoice, Member, MembershipType, Payment
from tests.tournaments.fixtures import token_client
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Entry, Registration

pytestmark = pytest.mark.django_db

_numbers = itertools.count(9000)


def today():
    return federation_selectors.today()


@pytest.fixture
def make_member_of(db):
    """An honorary member (always active) for a user."""

    def make(user, language="en"):
        honorary, _ = MembershipType.objects.get_or_create(
            kind="honorary", defaults={"is_free": True})
        return Member.objects.create(
            user=user, name_native="Anna Kowalska", name_latin="Anna Kowalska",
            membership_type=honorary, application=Member.Application.APPROVED,
            membership_number=next(_numbers), joined_on=today(), language=language,
            email=user.email,
        )

    return make


@pytest.fixture
def open_tournament(make_tournament):
    def make(**data):
        values = {
            "start_date": today() + timedelta(days=60),
            "end_date": today() + timedelta(days=61),
            "max_players": 2, "fee_member": Decimal("20.00"), "fee_other": Decimal("30.00"),
            "currency": "EUR", **data,
        }
        return make_tournament("accredited", **values)

    return make


def enter(tournament, user, **extra):
    data = {"first_name": "Anna", "last_name": "Kowalska", "country": "PL", **extra}
    return services.entry_create(tournament=tournament, user=user, **data)


def test_guest_enters_and_gets_an_invoice_in_their_language(
    open_tournament, make_user, django_capture_on_commit_callbacks
):
    t = open_tournament()
    guest = make_user(email="guest@example.org", language="fr")
    with django_capture_on_commit_callbacks(execute=True):
        entry = enter(t, guest)
    assert entry.status == "entered" and entry.fee == Decimal("30.00")
    invoice = DuesInvoice.objects.get(pk=entry.invoice_id)
    assert invoice.user == guest and invoice.member is None and invoice.membership_year is None
    assert invoice.amount == Decimal("30.00") and invoice.currency == "EUR"
    assert invoice.purpose == t.name and invoice.billed_name == "Anna Kowalska"
    [message] = mail.outbox
    assert message.to == ["guest@example.org"]
    assert invoice.number in message.body and t.name in message.subject
    assert "Votre inscription" in message.subject  # French


def test_member_pays_the_member_price(open_tournament, make_user, make_member_of):
    t = open_tournament()
    user = make_user()
    member = make_member_of(user)
    entry = enter(t, user)
    assert entry.fee == Decimal("20.00") and entry.member == member


def test_free_tournament_has_no_invoice_and_counts_as_paid(open_tournament, make_user):
    from tournaments import selectors

    t = open_tournament(fee_member=None, fee_other=None)
    entry = enter(t, make_user())
    assert entry.invoice is None and selectors.entry_is_paid(entry)


def test_members_only_refuses_a_guest(open_tournament, make_user, make_member_of):
    t = open_tournament(entries_open="members")
    with pytest.raises(TournamentError) as error:
        enter(t, make_user())
    assert error.value.code == "members_only"
    assert not Entry.objects.exists() and not DuesInvoice.objects.exists()
    member_user = make_user()
    make_member_of(member_user)
    assert enter(t, member_user).status == "entered"


def test_members_first_window(open_tournament, make_user):
    t = open_tournament(members_first_until=today() + timedelta(days=10))
    with pytest.raises(TournamentError) as error:
        enter(t, make_user())
    assert error.value.code == "members_only"
    later = today() + timedelta(days=11)
    entry = services.entry_create(tournament=t, user=make_user(), first_name="Jan",
                                  last_name="Jansen", country="NL", today=later)
    assert entry.status == "entered"


def test_only_accredited_tournaments_before_their_start(make_tournament, make_user):
    draft = make_tournament("draft", start_date=today() + timedelta(days=5),
                            end_date=today() + timedelta(days=5))
    with pytest.raises(TournamentError) as error:
        enter(draft, make_user())
    assert error.value.code == "entries_closed"


def test_twice_is_refused(open_tournament, make_user):
    t = open_tournament()
    user = make_user()
    enter(t, user)
    with pytest.raises(TournamentError) as error:
        enter(t, user)
    assert error.value.code == "already_entered"


def test_full_tournament_waiting_list_and_moving_up(
    open_tournament, make_user, django_capture_on_commit_callbacks
):
    t = open_tournament(max_players=1)
    first, second, third = make_user(), make_user(language="nl"), make_user()
    one = enter(t, first)
    with django_capture_on_commit_callbacks(execute=True):
        two = enter(t, second, first_name="Piet")
        three = enter(t, third, first_name="Klaas")
    assert (two.status, three.status) == ("waiting", "waiting")
    assert two.invoice is None  # no invoice while waiting
    assert "wachtlijst" in mail.outbox[0].subject  # Dutch: the waiting list
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_withdraw(entry=one, user=first)
    two.refresh_from_db()
    three.refresh_from_db()
    assert two.status == "entered" and two.invoice is not None  # first in line moves up
    assert three.status == "waiting"
    sent = {message.to[0]: message for message in mail.outbox}
    assert set(sent) == {first.email, second.email}  # the withdrawal (issue 38), the place
    assert "refund" not in sent[first.email].body
    assert two.invoice.number in sent[second.email].body
    one.refresh_from_db()
    assert one.status == "withdrawn" and one.invoice.cancelled  # unpaid invoice cancelled


def test_refund_rule_full_before_the_date_none_after(open_tournament, make_user, organizer):
    t = open_tournament(refund_until=today() + timedelta(days=20))
    early, late = make_user(), make_user()
    a, b = enter(t, early), enter(t, late)
    for entry in (a, b):
        services.entry_cash_record(entry=entry, user=organizer)
    a = services.entry_withdraw(entry=a, user=early)
    assert a.refund == Decimal("30.00")
    b = services.entry_withdraw(entry=b, user=organizer, today=today() + timedelta(days=21))
    assert b.refund == Decimal("0")
    assert not b.invoice.cancelled  # paid invoices stay on record


def test_cash_at_the_venue_recorded_by_the_organizer(
    open_tournament, make_user, organizer, django_capture_on_commit_callbacks
):
    from tournaments import selectors

    t = open_tournament()
    entry = enter(t, make_user())
    assert not selectors.entry_is_paid(entry)
    with django_capture_on_commit_callbacks(execute=True):
        payment = services.entry_cash_record(entry=entry, user=organizer)
    assert payment.method == Payment.Method.CASH and payment.amount == Decimal("30.00")
    assert payment.recorded_by == organizer
    assert selectors.entry_is_paid(entry)
    assert any(payment.receipt_number in m.subject for m in mail.outbox)  # the receipt
    with pytest.raises(TournamentError) as error:
        services.entry_cash_record(entry=entry, user=organizer)
    assert error.value.code == "nothing_to_pay"
    [collected] = selectors.entries_collected(t)
    assert collected.collected == Decimal("30.00") and collected.open == Decimal("0")


def test_online_payment_with_the_test_provider(
    open_tournament, make_user, django_capture_on_commit_callbacks
):
    from tournaments import selectors

    t = open_tournament()
    user = make_user()
    entry = enter(t, user)
    online = online_payments.online_payment_start(invoice=entry.invoice, language="en")
    with django_capture_on_commit_callbacks(execute=True):
        online.change_status(PaymentStatus.CONFIRMED)
    assert selectors.entry_is_paid(entry)
    assert Payment.objects.get().method == Payment.Method.ONLINE
    assert any(m.to == [user.email] for m in mail.outbox)  # receipt to the account billed


def test_unpaid_entry_reminded_then_released(
    open_tournament, make_user, django_capture_on_commit_callbacks
):
    t = open_tournament(max_players=1, payment_days=7)
    slow, waiting = make_user(), make_user()
    a = enter(t, slow)
    b = enter(t, waiting)
    due = a.invoice.due_on
    with django_capture_on_commit_callbacks(execute=True):
        report = services.entries_release_unpaid(today=due)
    assert report.reminded == [] and report.released == []  # not overdue yet
    with django_capture_on_commit_callbacks(execute=True):
        report = services.entries_release_unpaid(today=due + timedelta(days=1))
    assert report.reminded == [a.pk] and len(mail.outbox) == 1
    report = services.entries_release_unpaid(today=due + timedelta(days=2))
    assert report.reminded == [] and report.released == []  # three days to pay
    report = services.entries_release_unpaid(today=due + timedelta(days=4))
    assert report.released == [a.pk]
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.status == "withdrawn" and a.invoice.cancelled
    assert b.status == "entered"


def test_confirm_refuse_and_register(
    open_tournament, make_user, organizer, make_member_of, django_capture_on_commit_callbacks
):
    t = open_tournament(max_players=3)
    member_user = make_user()
    member = make_member_of(member_user)
    a = enter(t, member_user, first_name="Anna", last_name="Kowalska")
    b = enter(t, make_user(), first_name="Jan", last_name="Jansen", country="NL")
    c = enter(t, make_user(), first_name="Li", last_name="Wei", country="CN")
    with pytest.raises(TournamentError) as error:
        services.entry_decide(entry=c, user=organizer, decision="refuse", reason=" ")
    assert error.value.code == "reason_required"
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_decide(entry=c, user=organizer, decision="refuse",
                              reason="Not a club player")
    [refused] = mail.outbox
    assert "Not a club player" in refused.body
    for entry in (a, b):
        services.entry_decide(entry=entry, user=organizer, decision="confirm")
    assert services.entries_register(tournament=t, user=organizer) == 2
    assert services.entries_register(tournament=t, user=organizer) == 0  # not twice
    players = Registration.objects.filter(tournament=t).select_related("player")
    assert {r.player.name_latin for r in players} == {"Anna Kowalska", "Jan Jansen"}
    assert players.get(player__member=member)


# --- API ---

def test_api_tournament_takes_the_entry_settings(api):
    body = {
        "name": "Open", "start_date": "2027-06-06", "end_date": "2027-06-07", "city": "Utrecht",
        "country": "NL", "ruleset": "mcr", "sessions": 7, "planned_players": 20,
        "max_players": 24, "fee_member": "25.00", "fee_other": "35.50",
        "entries_open": "members",
    }
    response = api["organizer"].post("/api/v1/tournaments", body, format="json")
    assert response.status_code == 201
    data = response.json()
    assert (data["max_players"], data["fee_member"], data["fee_other"], data["entries_open"]) \
        == (24, "25.00", "35.50", "members")
    bad = api["organizer"].post("/api/v1/tournaments", {**body, "entries_open": "friends",
                                                        "fee_member": "-1"}, format="json")
    assert bad.status_code == 400
    assert {e["field"] for e in bad.json()["errors"]} == {"entries_open", "fee_member"}


def test_api_enter_withdraw_and_list(open_tournament, api, member_user, make_user, organizer):
    t = open_tournament(max_players=1)
    url = f"/api/v1/tournaments/{t.pk}/entries"
    data = {"first_name": "Anna", "last_name": "Kowalska", "country": "PL"}
    assert api["anonymous"].post(url, data, format="json").status_code == 401
    response = api["member"].post(url, data, format="json")
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "status", "fee", "reduced", "paid", "invoice"}
    assert body["status"] == "entered" and body["fee"] == "30.00" and body["paid"] is False
    assert body["invoice"] == Entry.objects.get().invoice.number
    second = token_client(make_user(email="second@example.org"))
    waiting = second.post(url, {**data, "first_name": "Jan"}, format="json").json()
    assert waiting["status"] == "waiting" and waiting["invoice"] is None
    public = api["anonymous"].get(url).json()
    assert public == {"entries": [
        {"id": body["id"], "name": "Anna Kowalska", "country": "PL", "status": "entered",
         "paid": False},
        {"id": waiting["id"], "name": "Jan Kowalska", "country": "PL", "status": "waiting",
         "paid": False},
    ]}
    for role in ("member", "other", "officer"):
        assert "email" not in api[role].get(url).json()["entries"][0]
    own = api["organizer"].get(url).json()["entries"]
    assert own[0]["email"] == member_user.email
    withdraw = f"{url}/{body['id']}/withdraw"
    assert api["anonymous"].post(withdraw).status_code == 401
    assert second.post(withdraw).status_code == 403
    assert api["other"].post(withdraw).status_code == 403
    assert Entry.objects.get(pk=body["id"]).status == "entered"  # nothing changed
    response = api["organizer"].post(withdraw)
    assert response.status_code == 200 and response.json()["status"] == "withdrawn"
    assert Entry.objects.get(pk=waiting["id"]).status == "entered"  # moved up
    again = api["member"].post(withdraw)
    assert again.status_code == 400 and again.json()["errors"][0]["code"] == "entry_not_active"


def test_api_errors_name_the_field_and_change_nothing(open_tournament, api):
    t = open_tournament()
    url = f"/api/v1/tournaments/{t.pk}/entries"
    missing = api["member"].post(url, {"first_name": "Anna"}, format="json")
    assert missing.status_code == 400
    assert {e["field"] for e in missing.json()["errors"]} == {"last_name", "country"}
    bad = api["member"].post(url, {"first_name": "Anna", "last_name": "K", "country": "Mars"},
                             format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "country"
    team = api["member"].post(url, {"first_name": "Anna", "last_name": "K", "country": "PL",
                                    "team": "Dragons"}, format="json")
    [error] = team.json()["errors"]
    assert (error["code"], error["field"]) == ("no_team_competition", "team") and error["message"]
    assert not Entry.objects.exists() and not DuesInvoice.objects.exists()


def test_api_members_only_answers_in_json(open_tournament, api):
    t = open_tournament(entries_open="members")
    response = api["member"].post(f"/api/v1/tournaments/{t.pk}/entries",
                                  {"first_name": "A", "last_name": "B", "country": "PL"},
                                  format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "members_only"


def test_api_draft_is_not_found_for_others(make_tournament, api):
    t = make_tournament("draft")
    assert api["member"].post(f"/api/v1/tournaments/{t.pk}/entries", {},
                              format="json").status_code == 404
    assert api["anonymous"].get(f"/api/v1/tournaments/{t.pk}/entries").status_code == 404


def test_invoice_page_of_an_entry_is_the_account_billed_s_only(
    open_tournament, make_user, client
):
    t = open_tournament()
    user = make_user()
    entry = enter(t, user)
    page = f"/en/members/invoices/{entry.invoice.number}/"
    client.force_login(make_user())
    assert client.get(page).status_code == 403
    client.force_login(user)
    content = client.get(page).content.decode()
    assert t.name in content and "by card" in content


# --- pages ---

def test_entrants_page_and_entering_through_the_form(open_tournament, make_user, client):
    t = open_tournament()
    page = f"/en/tournaments/{t.pk}/entrants/"
    anonymous = client.get(page).content.decode()
    assert "Sign in to enter" in anonymous and "enter-button" not in anonymous
    user = make_user()
    client.force_login(user)
    assert 'id="enter-button"' in client.get(page).content.decode()
    bad = client.post(f"/en/tournaments/{t.pk}/enter/", {"first_name": "Anna"})
    assert bad.status_code == 400 and not Entry.objects.exists()
    response = client.post(f"/en/tournaments/{t.pk}/enter/", {
        "first_name": "Anna", "last_name": "Kowalska", "country": "PL", "ema_number": ""})
    assert response.status_code == 302
    entry = Entry.objects.get()
    content = client.get(page).content.decode()
    assert "Anna Kowalska" in content and "not paid yet" in content
    assert entry.invoice.number in content and 'id="withdraw"' in content
    assert "@" not in content.split('id="entrants-list"')[1]  # no contact details in public


def test_entry_pages_permissions(open_tournament, make_user, client, organizer,
                                 other_organizer):
    t = open_tournament()
    person = make_user()
    entry = enter(t, person)
    pages = [f"/en/tournaments/{t.pk}/entries/", f"/en/tournaments/{t.pk}/entries.csv"]
    for page in pages:
        assert client.get(page).status_code == 302  # to the login page
    for user in (person, other_organizer):
        client.force_login(user)
        for page in pages:
            assert client.get(page).status_code == 403
        assert client.post(f"/en/tournaments/{t.pk}/entries/{entry.pk}/",
                           {"action": "confirm"}).status_code == 403
        assert client.post(f"/en/tournaments/{t.pk}/entries/register/").status_code == 403
    client.force_login(other_organizer)
    assert client.post(f"/en/tournaments/{t.pk}/entries/{entry.pk}/withdraw/").status_code \
        == 403
    entry.refresh_from_db()
    assert entry.status == "entered"
    client.force_login(organizer)
    content = client.get(pages[0]).content.decode()
    assert person.email in content and "30.00 open" in content
    csv = client.get(pages[1])
    assert csv.status_code == 200 and person.email in csv.content.decode()
    client.post(f"/en/tournaments/{t.pk}/entries/{entry.pk}/", {"action": "cash"})
    client.post(f"/en/tournaments/{t.pk}/entries/{entry.pk}/", {"action": "confirm"})
    entry.refresh_from_db()
    assert entry.status == "confirmed"
    assert 'id="collected-EUR">30.00 EUR' in client.get(pages[0]).content.decode()
    client.post(f"/en/tournaments/{t.pk}/entries/register/")
    assert Registration.objects.filter(tournament=t).count() == 1


def test_csv_export_neutralises_formulas(open_tournament, make_user, client, organizer):
    t = open_tournament()
    enter(t, make_user(), first_name="=HYPERLINK(1)")
    client.force_login(organizer)
    body = client.get(f"/en/tournaments/{t.pk}/entries.csv").content.decode()
    assert "'=HYPERLINK(1)" in body


def test_person_withdraws_on_the_page(open_tournament, make_user, client):
    t = open_tournament()
    person = make_user()
    entry = enter(t, person)
    client.force_login(person)
    response = client.post(f"/en/tournaments/{t.pk}/entries/{entry.pk}/withdraw/")
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.status == "withdrawn"


def test_release_command(open_tournament, make_user):
    from io import StringIO

    from django.core.management import call_command

    t = open_tournament(payment_days=3)
    entry = enter(t, make_user())
    out = StringIO()
    call_command("release_unpaid_entries", "--date",
                 (entry.invoice.due_on + timedelta(days=1)).isoformat(), stdout=out)
    assert out.getvalue().strip() == "1 reminded, 0 released"


def test_release_job_of_the_task_queue(open_tournament, make_user):
    """The scheduled job (decision 0907) calls the same service as the command."""
    from tournaments.tasks import release_unpaid_entries

    t = open_tournament(payment_days=3)
    entry = enter(t, make_user())
    due = entry.invoice.due_on
    run = release_unpaid_entries.delay
    assert run(today=(due + timedelta(days=1)).isoformat()).get() == {"reminded": 1,
                                                                       "released": 0}
    assert run(today=(due + timedelta(days=1)).isoformat()).get() == {"reminded": 0,
                                                                       "released": 0}
    assert run(today=(due + timedelta(days=4)).isoformat()).get() == {"reminded": 0,
                                                                       "released": 1}


def test_treasurer_sees_what_each_tournament_collected(
    open_tournament, make_user, client, organizer
):
    from django.contrib.auth.models import Group

    t = open_tournament()
    paid, unpaid = enter(t, make_user()), enter(t, make_user())
    services.entry_cash_record(entry=paid, user=organizer)
    assert unpaid.invoice
    page = "/en/tournaments/entry-fees/"
    assert client.get(page).status_code == 302
    for user in (make_user(), organizer):
        client.force_login(user)
        assert client.get(page).status_code == 403
    treasurer = make_user()
    treasurer.groups.add(Group.objects.get(name="Treasurer"))
    client.force_login(treasurer)
    content = client.get(page).content.decode()
    assert t.name in content and "30.00 EUR" in content


def test_bank_statement_matches_an_entry_fee_and_a_reversal_undoes_it(
    open_tournament, make_user, organizer
):
    from federation import services as membership
    from tournaments import selectors

    t = open_tournament()
    entry = enter(t, make_user())
    number = entry.invoice.number
    statement = ("date,amount,reference,transaction_id,payer\n"
                 f"{today().isoformat()},30.00,Entry {number},TX-24-1,Anna Kowalska\n")
    report = membership.bank_statement_import(data=statement, recorded_by=organizer)
    [payment] = report.recorded
    assert payment.invoice_id == entry.invoice_id and selectors.entry_is_paid(entry)
    membership.payment_reverse(payment=payment, reversed_by=organizer, reason="wrong payer")
    assert not selectors.entry_is_paid(entry)


def test_api_update_takes_the_entry_settings(api, make_tournament):
    t = make_tournament("draft")
    url = f"/api/v1/tournaments/{t.pk}"
    body = {"max_players": 8, "fee_member": "12.50", "fee_other": "20", "entries_open": "members"}
    assert api["anonymous"].patch(url, body, format="json").status_code == 401
    assert api["other"].patch(url, body, format="json").status_code == 404  # another's draft
    assert api["officer"].patch(url, body, format="json").status_code == 403
    bad = api["organizer"].patch(url, {"max_players": -1}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "max_players"
    response = api["organizer"].patch(url, body, format="json")
    assert response.status_code == 200
    t.refresh_from_db()
    assert (t.max_players, t.fee_member, t.fee_other, t.entries_open) == (
        8, Decimal("12.50"), Decimal("20.00"), "members")

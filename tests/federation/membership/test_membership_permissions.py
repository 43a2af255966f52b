"""The permission matrix: anonymous, member, other member, club officer of another club,
club officer of the member's club, treasurer, membership officer, admin, on every page and
export."""

from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group

from federation import services

pytestmark = pytest.mark.django_db

ROLES = [
    "anonymous",
    "member",
    "other_member",
    "officer_other_club",
    "officer_same_club",
    "treasurer",
    "membership_officer",
    "admin",
]


@pytest.fixture
def world(year_2025, make_member, make_user, club, other_club):
    member = make_member(club=club, name_latin="Alice Owner", name_native="Алиса")
    other = make_member(club=other_club, name_latin="Bob Other", name_native="Боб")
    invoice = member.invoices.get()
    treasurer = make_user(is_staff=True)
    treasurer.groups.add(Group.objects.get(name=services.ROLE_TREASURER))
    payment = services.payment_record(
        invoice=invoice,
        amount=Decimal("120"),
        paid_on=date(2025, 2, 1),
        method="cash",
        recorded_by=treasurer,
    )
    officer_other = make_user()
    other_club.officers.add(officer_other)
    officer_same = make_user()
    club.officers.add(officer_same)
    membership_officer = make_user(is_staff=True)
    membership_officer.groups.add(Group.objects.get(name=services.ROLE_MEMBERSHIP_OFFICER))
    users = {
        "anonymous": None,
        "member": member.user,
        "other_member": other.user,
        "officer_other_club": officer_other,
        "officer_same_club": officer_same,
        "treasurer": treasurer,
        "membership_officer": membership_officer,
        "admin": make_user(is_staff=True, is_superuser=True),
    }
    return {"member": member, "invoice": invoice, "payment": payment, "club": club, "users": users}


def _get(client, user, url):
    if user is not None:
        client.force_login(user)
    return client.get(url)


# page -> roles that get 200 (everyone else: redirect to login, 403 or 404, and no data)
MATRIX = {
    "invoice": {"member", "treasurer", "admin"},
    "receipt": {"member", "treasurer", "admin"},
    "club": {"officer_same_club", "treasurer", "membership_officer", "admin"},
    "club_csv": {"officer_same_club", "treasurer", "membership_officer", "admin"},
    "admin_members": {"treasurer", "membership_officer", "admin"},
    "admin_members_csv": {"treasurer", "membership_officer", "admin"},
    "admin_member_edit": {"membership_officer", "admin"},
    "admin_payments": {"treasurer", "admin"},
    "admin_payment_add": {"treasurer", "admin"},
    "admin_bank_import": {"treasurer", "admin"},
    "admin_applications": {"membership_officer", "admin"},
    "admin_fees": {"treasurer", "admin"},
}


def _url(page, world):
    member, invoice, payment = world["member"], world["invoice"], world["payment"]
    return {
        "invoice": f"/en/members/invoices/{invoice.number}/",
        "receipt": f"/en/members/receipts/{payment.receipt_number}.pdf",
        "club": f"/en/members/clubs/{world['club'].pk}/",
        "club_csv": f"/en/members/clubs/{world['club'].pk}/members.csv",
        "admin_members": "/admin/members/",
        "admin_members_csv": "/admin/members/?export=csv",
        "admin_member_edit": f"/admin/members/edit/{member.pk}/",
        "admin_payments": "/admin/payments/",
        "admin_payment_add": "/admin/payments/new/",
        "admin_bank_import": "/admin/membership/bank-import/",
        "admin_applications": "/admin/membership/applications/",
        "admin_fees": "/admin/membership_fees/",
    }[page]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("page", sorted(MATRIX))
def test_permission_matrix(client, world, page, role):
    response = _get(client, world["users"][role], _url(page, world))
    if role in MATRIX[page]:
        assert response.status_code == 200, (page, role)
    else:
        assert response.status_code in (302, 403, 404), (page, role, response.status_code)
        body = b"".join(response) if response.streaming else response.content
        assert b"Alice Owner" not in body


@pytest.mark.parametrize("role", ROLES)
def test_self_service_pages_show_only_own_data(client, world, role):
    user = world["users"][role]
    for path in [
        "/en/members/me/",
        "/en/members/me/edit/",
        "/en/members/me/export.json",
        "/en/members/me/card/",
        "/en/members/me/erase/",
    ]:
        response = _get(client, user, path)
        if role == "member":
            assert response.status_code == 200, path
            if path in ("/en/members/me/", "/en/members/me/export.json", "/en/members/me/card/"):
                assert "Alice" in response.content.decode(), path
        else:
            assert response.status_code in (200, 302, 403), (path, role)
            assert b"Alice" not in response.content, (path, role)
            if role == "anonymous":
                assert response.status_code == 302
                assert "/accounts/login/" in response["Location"]


def test_club_csv_lists_only_that_club(client, world):
    client.force_login(world["users"]["officer_same_club"])
    body = client.get(_url("club_csv", world)).content.decode()
    assert "Alice Owner" in body and "Bob Other" not in body


def test_admin_csv_export_and_status_filter(client, world):
    client.force_login(world["users"]["treasurer"])
    response = client.get("/admin/members/?export=csv")
    body = (
        b"".join(response.streaming_content).decode()
        if response.streaming
        else (response.content.decode())
    )
    assert "Alice Owner" in body and "Bob Other" in body
    active = client.get("/admin/members/?status=lapsed").content.decode()
    assert "Bob Other" in active


def test_public_check_shows_only_name_number_and_active(client, world):
    member = world["member"]
    response = client.get(f"/en/members/check/{member.public_id}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Alice Owner" in html and member.display_number in html
    assert member.user.email not in html and "East Wind" not in html
    assert client.get("/en/members/check/00000000-0000-0000-0000-000000000000/").status_code == 404

"""Issue 37, item 1: one login, one password reset, one set of limits for the whole site.

Wagtail's own ``/admin/login/`` and ``/admin/password_reset/`` took passwords and sent
reset mails beside allauth's (decision 0002): no rate limit, no e-mail verification. They
now lead to allauth's pages, and the API token needs a confirmed e-mail address.
"""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import Group
from django.core import mail
from rest_framework.authtoken.models import Token

from federation.services import ROLE_TREASURER, roles_setup

pytestmark = pytest.mark.django_db

PASSWORD = "pw-Secret-123"


@pytest.fixture
def staff(django_user_model):
    roles_setup()
    user = django_user_model.objects.create_user(
        username="treasurer", email="treasurer@example.org", password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name=ROLE_TREASURER))
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


@pytest.fixture
def unconfirmed(django_user_model):
    user = django_user_model.objects.create_user(
        username="fresh", email="fresh@example.org", password=PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=False, primary=True)
    return user


def _signed_in(client) -> bool:  # type: ignore[no-untyped-def]
    return "_auth_user_id" in client.session


def test_the_admin_login_ends_on_allauths_login(client, staff):
    response = client.get("/admin/login/?next=/admin/pages/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302
    assert response["Location"] == "/en/accounts/login/?next=%2Fadmin%2Fpages%2F"
    # without a "next", back to the admin after signing in
    assert client.get("/admin/login/")["Location"].endswith(
        "/accounts/login/?next=%2Fadmin%2F")
    # an anonymous visit of the admin goes there too (Wagtail's WAGTAILADMIN_LOGIN_URL)
    assert "/accounts/login/" in client.get("/admin/")["Location"]
    # a password posted to Wagtail's form signs nobody in
    posted = client.post("/admin/login/", {"username": staff.email, "password": PASSWORD})
    assert posted.status_code in (302, 405) and not _signed_in(client)
    assert client.post("/admin/login/", {"username": staff.username,
                                         "password": PASSWORD}).status_code in (302, 405)
    assert not _signed_in(client)


def test_the_admin_password_reset_ends_on_allauths(client, staff):
    response = client.get("/admin/password_reset/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302
    assert response["Location"] == "/en/accounts/password/reset/"
    for _ in range(8):
        client.post("/admin/password_reset/", {"email": staff.email})
    assert mail.outbox == []  # Wagtail's form sends nothing any more
    for path in ("/admin/password_reset/done/", "/admin/password_reset/complete/",
                 "/admin/password_reset/confirm/MQ/set-password/"):
        assert client.get(path).status_code in (302, 404), path


def test_allauths_limits_apply_to_staff(client, staff):
    """The site's failed-login limit (5 per account in 5 minutes) holds for a staff
    account, whichever login page is tried."""
    too_many = "Too many failed login attempts. Try again later."
    for _ in range(25):
        client.post("/admin/login/", {"username": staff.email, "password": "wrong"})
    # the 25 attempts there counted for nothing: allauth's own 5 still come
    for n in range(5):
        answer = client.post("/en/accounts/login/", {"login": staff.email, "password": "wrong"},
                             REMOTE_ADDR=f"198.51.100.{n}")
        assert answer.status_code == 200 and too_many not in answer.content.decode()
    # then even the right password is refused, from any address
    right = client.post("/en/accounts/login/", {"login": staff.email, "password": PASSWORD},
                        REMOTE_ADDR="198.51.100.99")
    assert too_many in right.content.decode() and not _signed_in(client)


def test_an_unconfirmed_account_gets_no_api_token(client, unconfirmed):
    # it cannot sign in: allauth asks for the confirmation first
    client.post("/en/accounts/login/", {"login": unconfirmed.email, "password": PASSWORD})
    assert not _signed_in(client)
    client.post("/admin/login/", {"username": unconfirmed.email, "password": PASSWORD})
    assert not _signed_in(client)
    # and a session it might hold anyway shows no token
    client.force_login(unconfirmed)
    page = client.get("/en/accounts/api-token/")
    assert page.status_code == 200
    assert not Token.objects.filter(user=unconfirmed).exists()
    client.post("/en/accounts/api-token/")
    assert not Token.objects.filter(user=unconfirmed).exists()


def test_a_confirmed_account_gets_its_api_token(client, staff):
    client.force_login(staff)
    page = client.get("/en/accounts/api-token/")
    assert page.status_code == 200
    assert Token.objects.get(user=staff).key in page.content.decode()

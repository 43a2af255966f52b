"""``manage.py createsuperuser`` makes an administrator who can log in through the one login
(allauth's, which lets in confirmed addresses only): the address is confirmed (decision
0911)."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.core.management import call_command

pytestmark = pytest.mark.django_db

PASSWORD = "pw-Root-Secret-123"


def test_createsuperuser_confirms_the_address_and_the_admin_logs_in(client, monkeypatch,
                                                                    django_user_model):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", PASSWORD)
    call_command("createsuperuser", interactive=False, username="root",
                 email="root@example.org", verbosity=0)
    user = django_user_model.objects.get(email="root@example.org")
    assert user.is_superuser and user.is_staff
    address = EmailAddress.objects.get(user=user)
    assert address.verified and address.primary and address.email == "root@example.org"
    response = client.post("/en/accounts/login/", {"login": "root@example.org",
                                                   "password": PASSWORD})
    assert response.status_code == 302 and "_auth_user_id" in client.session
    assert client.get("/admin/").status_code == 200


def test_a_plain_account_is_not_confirmed_by_itself(django_user_model):
    user = django_user_model.objects.create_user(username="plain", email="p@example.org",
                                                 password=PASSWORD)
    assert not EmailAddress.objects.filter(user=user, verified=True).exists()

"""Links the site sends out: built from the site's configured address (SITE_URL),
and without it from the request being served, never from a fixed 127.0.0.1:8000."""

import os

import pytest
from django.test import RequestFactory

from core import site_url
from federation import emails
from federation.models import OnlinePayment

pytestmark = pytest.mark.django_db


def test_links_sent_out_use_the_configured_site_address(settings):
    settings.MEMBERSHIP_SITE_URL = "https://mahjong.example.org/"
    request = RequestFactory().get("/", HTTP_HOST="localhost:8123")
    assert site_url.site_base_url() == "https://mahjong.example.org"
    assert site_url.site_base_url(request) == "https://mahjong.example.org"
    assert emails.absolute("/en/members/me/") == "https://mahjong.example.org/en/members/me/"
    assert site_url.payment_host() == "mahjong.example.org"


def test_links_sent_out_without_a_configured_address_use_the_request(settings):
    settings.MEMBERSHIP_SITE_URL = ""
    request = RequestFactory().get("/", HTTP_HOST="localhost:8123")
    assert site_url.site_base_url(request) == "http://localhost:8123"
    # Mail and payment links built while a request is served (no request at hand).
    middleware = site_url.SiteAddressMiddleware(
        lambda r: (emails.absolute("/en/members/me/"), site_url.payment_host())
    )
    assert middleware(request) == ("http://localhost:8123/en/members/me/", "localhost:8123")
    assert "127.0.0.1:8000" not in site_url.site_base_url()


def test_membership_card_check_link_and_payment_return_follow_the_host(
    client, settings, make_member
):
    settings.MEMBERSHIP_SITE_URL = ""
    member = make_member()
    client.force_login(member.user)
    page = client.get("/en/members/me/card/", HTTP_HOST="localhost:8123").content.decode()
    assert f"http://localhost:8123/en/members/check/{member.public_id}/" in page
    assert "127.0.0.1:8000" not in page

    payment = OnlinePayment(token="0b0e3f5c-1d2a-4c5b-8e9f-0a1b2c3d4e5f", language="en")
    middleware = site_url.SiteAddressMiddleware(lambda r: payment.get_success_url())
    url = middleware(RequestFactory().get("/", HTTP_HOST="192.168.1.5:8000"))
    assert url.startswith("http://192.168.1.5:8000/en/")


def test_payment_host_setting_follows_the_site_address(monkeypatch):
    from django.conf import settings

    if not os.environ.get("PAYMENT_HOST"):
        assert settings.PAYMENT_HOST is site_url.payment_host

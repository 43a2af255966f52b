"""The demo federation has a sample bank account in development (issue 28: invoices showed
"IBAN —" and no EPC QR code)."""

from __future__ import annotations

import importlib

import pytest

pytestmark = pytest.mark.django_db


def _iban_is_valid(iban: str) -> bool:
    moved = iban[4:] + iban[:4]
    digits = "".join(str(int(ch, 36)) for ch in moved)
    return int(digits) % 97 == 1


def test_development_invoices_show_the_sample_account_and_its_qr_code(client, settings,
                                                                     year_2025, make_member):
    dev = importlib.import_module("config.settings.dev")
    account = dev.MEMBERSHIP_BANK_ACCOUNT
    assert _iban_is_valid(account["iban"]) and account["bic"]
    settings.MEMBERSHIP_BANK_ACCOUNT = account
    member = make_member()
    client.force_login(member.user)
    invoice = member.invoices.get()
    html = client.get(f"/en/members/invoices/{invoice.number}/").content.decode()
    assert "NL91" in html and account["bic"] in html
    assert 'id="epc-qr"' in html and "<svg" in html.split('id="epc-qr"', 1)[1]


def test_production_has_no_sample_account():
    production = importlib.import_module("config.settings.base")
    assert "NL91ABNA0417164300" not in repr(production.MEMBERSHIP_BANK_ACCOUNT)


def test_development_has_a_valid_sample_russian_account_production_none():
    from federation.rules import ru_payment

    dev = importlib.import_module("config.settings.dev")
    assert ru_payment.details_complete(dev.MEMBERSHIP_BANK_ACCOUNT_RUB)
    production = importlib.import_module("config.settings.base")
    assert not any(production.MEMBERSHIP_BANK_ACCOUNT_RUB.values())

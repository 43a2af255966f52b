"""The one rule of an EMA number typed anywhere (tournaments.rules.ema_numbers)."""

import pytest

from tournaments.rules.ema_numbers import EmaNumber, ema_number_normalise


@pytest.mark.parametrize(("text", "expected"), [
    ("04010001", EmaNumber("04010001")),
    (" 04010001 ", EmaNumber("04010001")),
    ("1000001", EmaNumber("01000001", padded=True)),
    ("1000001.0", EmaNumber("01000001", padded=True)),
    ("", EmaNumber("")),
    ("  ", EmaNumber("")),
])
def test_eight_digits_or_seven_that_lost_their_zero(text, expected):
    assert ema_number_normalise(text) == expected


@pytest.mark.parametrize("text", [
    "xxxxxxxxxxxxxxxxxxxx", "0401000A", "123456", "123456789", "04-010001", "٠٤٠١٠٠٠١",
    "1e7", "-1000001",
])
def test_anything_else_is_refused(text):
    assert ema_number_normalise(text).error == "bad_ema_number"

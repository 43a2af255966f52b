"""Russian tile names agree with their number (issue 28: "1 символов", "2 точек" read wrong)."""

from __future__ import annotations

import pytest
from django.utils.translation import override

from rulebook.tile_display import tile_label


@pytest.mark.parametrize(("tile", "name"), [
    ("1m", "1 символ"), ("2m", "2 символа"), ("4m", "4 символа"), ("5m", "5 символов"),
    ("9m", "9 символов"), ("1p", "1 точка"), ("3p", "3 точки"), ("7p", "7 точек"),
    ("1s", "1 бамбук"), ("2s", "2 бамбука"), ("8s", "8 бамбуков"),
])
def test_russian_tile_names_agree_with_their_number(tile, name):
    with override("ru"):
        assert tile_label(tile) == name


def test_other_languages_keep_their_names():
    with override("en"):
        assert tile_label("1m") == "1 Character" and tile_label("2p") == "2 Dots"
    with override("zh-hans"):
        assert tile_label("5s") == "5条"

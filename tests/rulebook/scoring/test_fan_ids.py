"""The fan names of ``mcr/fan_ids.py`` are the fan table's, one name per fan."""

from __future__ import annotations

import re

from rulebook.scoring.mcr import fan_ids
from rulebook.scoring.mcr.table import FAN_IDS, FANS


def test_every_fan_has_its_name() -> None:
    names = {name: value for name, value in vars(fan_ids).items() if name.isupper()}
    assert sorted(names.values(), key=FAN_IDS.index) == list(FAN_IDS)
    for name, fid in names.items():
        assert re.sub(r"[^A-Z]+", "_", FANS[fid].key.upper()).strip("_") == name, fid
    assert fan_ids.MIXED_TRIPLE_CHOW == "41"

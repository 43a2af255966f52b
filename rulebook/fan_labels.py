"""Fan names for the calculator and the scoring API, in the reader's language.

Names come from the database through ``rulebook.selectors.fan_names`` (the rulebook's
fan table); they are kept in this process for a minute, because the API answers
hundreds of questions a second and the names change only when an editor edits them.
Where the database has no name (yet), the rulebook's data file (the five-language MCR
table, the HKOS and Red tables with their translations) or else the core's own table
(Russian names, English keys) names the fan.
"""

from __future__ import annotations

import json
import time
from functools import cache
from pathlib import Path
from threading import Lock

from django.db.models.signals import post_delete, post_save
from django.utils.translation import get_language

from rulebook.rulesets import codes as ruleset_codes
from rulebook.scoring.hkos.table import FANS_BY_ID as HKOS_FANS
from rulebook.scoring.mcr.table import FANS as MCR_FANS
from rulebook.scoring.red.table import FANS_BY_ID as RED_FANS
from rulebook.selectors import fan_names

CACHE_SECONDS = 60.0
_cache: dict[tuple[str, str], tuple[float, dict[str, str]]] = {}
_lock = Lock()


@cache
def _file_names(ruleset: str, language: str) -> dict[str, str]:
    """The names of the rulebook's data file (what the fan table is loaded from): the
    name of each fan's object for `language` (``{"en": {"name": ...}}``)."""
    path = Path(__file__).parent / "data" / f"{ruleset}_fans.json"
    if ruleset not in ruleset_codes() or not path.exists():
        return {}
    data = json.loads(path.read_text("utf-8"))
    return {
        str(fan["id"]): str(fan[language]["name"])
        for fan in data["fans"]
        if isinstance(fan.get(language), dict) and fan[language].get("name")
    }


def _core_names(ruleset: str, language: str) -> dict[str, str]:
    if ruleset == "mcr":
        return {**{fid: fan.key for fid, fan in MCR_FANS.items()}, **_file_names(ruleset, language)}
    table = HKOS_FANS if ruleset == "hkos" else RED_FANS if ruleset == "red" else {}
    if language == "ru":
        core = {fid: fan.name_ru for fid, fan in table.items()}
    else:
        core = {fid: fan.key.replace("_", " ").capitalize() for fid, fan in table.items()}
    return {**core, **_file_names(ruleset, language)}


def _database_names(ruleset: str, language: str) -> dict[str, str]:
    return {str(k): str(v) for k, v in fan_names(ruleset, language).items() if v}


def fan_name_map(ruleset: str, language: str | None = None) -> dict[str, str]:
    """``{fan id: name}`` for ``ruleset`` in ``language`` (default: the active one); no
    names for rules that do not exist (a question's unknown rules, answered as an error)."""
    if ruleset not in ruleset_codes():
        return {}
    lang = (language or get_language() or "ru").lower()
    key = (ruleset, lang)
    now = time.monotonic()
    hit = _cache.get(key)
    if hit is not None and now - hit[0] < CACHE_SECONDS:
        return hit[1]
    names = {**_core_names(ruleset, lang), **_database_names(ruleset, lang)}
    with _lock:
        _cache[key] = (now, names)
    return names


def clear() -> None:
    """Forget the kept names (tests; an editor's change shows within a minute anyway)."""
    with _lock:
        _cache.clear()


def _forget(**_kwargs: object) -> None:
    clear()


# an editor's change shows at once in this process (other processes: within a minute)
post_save.connect(_forget, sender="rulebook.Fan", dispatch_uid="fan_labels_save")
post_delete.connect(_forget, sender="rulebook.Fan", dispatch_uid="fan_labels_delete")


def implies(ruleset: str, fan_id: str, excluded_id: str) -> bool:
    """Whether ``fan_id`` implies ``excluded_id`` by the fan table (MCR 3.9.1.5 (1))."""
    fan = MCR_FANS.get(fan_id) if ruleset == "mcr" else None
    return fan is not None and excluded_id in fan.implies

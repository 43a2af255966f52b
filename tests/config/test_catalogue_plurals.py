"""Issue 28: every catalogue entry that counts something has plural forms.

The rule, on the English catalogue (the source texts): an entry without ``msgid_plural``
fails when a placeholder counts things, that is when it is
- immediately followed by a countable noun ("%(n)s players", "%(points)s game points"),
- followed by "of" and a number ("%(n)s of 4 agreed"), or in "(+%(m)s min)",
- preceded by "at most", "at least", "fewer than", "up to" (a limit; "larger than" an amount
  of money is no count),
or when the text writes a plural as "(s)". A placeholder that names or orders things
("Table %(n)s", "session %(n)s", "No. %(number)s") does not count them.

The plural forms of ru, fr, nl and zh-hans are then checked by check_translations (every
form filled) and their numbers by compile_translations."""

from __future__ import annotations

import re
from pathlib import Path

import polib

ROOT = Path(__file__).resolve().parents[2]
NOUNS = (
    "bytes?", "characters?", "lines?", "points?", "players?", "pairs?", "minutes?", "min",
    "sessions?", "members?", "games?", "tables?", "hands?", "rows?", "files?", "days?",
    "times?", "seats?", "entries", "entry", "invoices?", "payments?", "tournaments?",
    "substitutes?", "fans?", "tiles?", "results?", "years?", "months?", "weeks?", "hours?",
    "seconds?", "people", "persons?", "clubs?", "items?", "words?", "pages?", "copies",
    "registered", "planned", "levels?", "MB",
)
PLACEHOLDER = r"%\(\w+\)s"
COUNTING = [
    re.compile(PLACEHOLDER + r"\s+(?:more\s+|game\s+|table\s+|of\s+\d+\s+)?(?:"
               + "|".join(NOUNS) + r")\b"),
    re.compile(PLACEHOLDER + r"\s+of\s+\d"),
    re.compile(r"\+" + PLACEHOLDER + r"\s*min\b"),
    re.compile(r"\b(?:at most|at least|fewer than|up to)\s+" + PLACEHOLDER),
    re.compile(r"[a-z]\(s\)"),
]


def counting_entries(path: Path) -> list[str]:
    offenders = []
    for entry in polib.pofile(str(path)):
        if entry.obsolete or entry.msgid_plural:
            continue
        if any(rule.search(entry.msgid) for rule in COUNTING):
            offenders.append(entry.msgid)
    return offenders


def test_the_rule_catches_what_it_should():
    catch = ["%(n)s players planned", "The body is larger than %(limit)s bytes.",
             "%(club)s: %(active)s member(s) with paid dues.", "%(n)s of 4 agreed",
             "Table %(n)s (+%(m)s min)", "The hands give %(computed)s game points"]
    keep = ["Table %(n)s, session %(s)s", "Session %(n)s", "Withdraw %(name)s (No. %(number)s)",
            "from session %(n)s", "Row %(row)s: the name"]
    for text in catch:
        assert any(rule.search(text) for rule in COUNTING), text
    for text in keep:
        assert not any(rule.search(text) for rule in COUNTING), text


def test_every_counting_entry_has_plural_forms():
    offenders = counting_entries(ROOT / "locale" / "en" / "LC_MESSAGES" / "django.po")
    assert offenders == [], "\n".join(offenders)

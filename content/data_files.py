"""Where the content app's own data files are (the rule texts and their translations, the
pages' texts): one place read by the loader (``content.services``) and by the rule pages'
fan links (``content.rule_text``). Tests point ``RULES_DIR`` at their own files."""

from __future__ import annotations

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data"
RULES_DIR = DATA_DIR / "rules"

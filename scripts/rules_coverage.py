"""Check that an extracted rule text lost no word of its seed (used by the extract scripts)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any


def words(text: str) -> Counter[str]:
    return Counter(w.lower() for w in re.findall(r"[А-Яа-яЁёA-Za-z]{3,}", text))


def texts(data: dict[str, Any]) -> str:
    out = [data["title"]]
    for chapter in data["chapters"]:
        out.append(chapter["title"])
        out += [s["title"] for s in chapter["sections"]]
        for block in chapter["blocks"] + [b for s in chapter["sections"] for b in s["blocks"]]:
            if block["type"] == "paragraph":
                out.append(block["text"])
            elif block["type"] == "list":
                out += block["items"]
            elif block["type"] == "table":
                out += [block["caption"] or "", *(block["header"] or [])]
                out += [cell for row in block["rows"] for cell in row]
    return " ".join(out)


def check(seed_text: str, data: dict[str, Any], elsewhere: str, allowed: Counter[str]) -> None:
    """Every word of ``seed_text`` is in ``data``, in ``elsewhere`` or in ``allowed``."""
    missing = words(seed_text) - words(texts(data)) - words(elsewhere) - allowed
    if missing:
        raise SystemExit(f"{data['ruleset']}: words lost in the extraction: {dict(missing)}")

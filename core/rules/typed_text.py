"""Text a person typed, cleaned of control characters (issue 37, item 11; docs/reliability.md).

Word puts a vertical tab (``\\x0b``) for a manual line break, and pasted text may carry other
C0 control characters. XML 1.0 (the news feed) and XLSX (openpyxl) cannot hold them, so a
name or a title with one made those downloads answer 500. Every text field of a form or a
serializer is cleaned on the way in (``core.typed_text`` installs it); the writers of XML and
XLSX clean what older data still holds (``printable``).

A NUL is left to the fields' own check, which refuses it with a message."""

from __future__ import annotations

import re

# characters that break a line: a line break in a text area, a space in a one-line field
LINE_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
# the other control characters, except tab, line feed, carriage return and NUL
CONTROLS = re.compile("[\x01-\x08\x0e-\x1b\x1f\x7f]")
# what XML 1.0 and XLSX cannot hold at all
UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def clean_typed_text(value: str, *, multiline: bool = True) -> str:
    """``value`` with line-breaking controls as line breaks (``multiline``) or spaces, and
    the other control characters (but tab, line feed, carriage return and NUL) removed."""
    if not value or value.isprintable():
        return value
    value = LINE_BREAKS.sub("\n" if multiline else " ", value)
    return CONTROLS.sub("", value)


def printable(value: str) -> str:
    """``value`` as XML 1.0 and XLSX can hold it: line-breaking controls become spaces, the
    other forbidden controls go."""
    if not value or value.isprintable():
        return value
    return UNPRINTABLE.sub(lambda m: " " if m.group(0) in "\x0b\x0c" else "", value)

"""Wagtail admin of the rulebook: the fans and worked examples snippets."""

from __future__ import annotations

from wagtail.snippets.models import register_snippet

from rulebook.viewsets import RulebookViewSetGroup

register_snippet(RulebookViewSetGroup)

"""News posts (docs/decisions/0530): what the pages, the feed and the home page read.

Selectors only, and no import of ``content.models`` (which uses them): the lists of posts
are ``NewsIndexPage.posts`` (the home page takes its first three); the writes (the skeleton's news
indexes, the automatic drafts) are in ``content.services`` and ``content.receivers``.
"""

from __future__ import annotations

from typing import Any

from django.urls import NoReverseMatch, reverse
from django.utils.translation import get_language

from rulebook import selectors as rulebook_selectors
from rulebook.book_data import SOURCE_LANGUAGE
from rulebook.links import fan_page_url

#: how many posts one page of the index shows
NEWS_PER_PAGE = 10
#: how many posts the feed carries
FEED_ITEMS = 20


def site_link_url(kind: str, target: str, language: str | None = None) -> str | None:
    """Where a news post's link to a fan, tournament or player goes (None: no such thing)."""
    from rulebook.models import Fan
    from tournaments.models import Player, Tournament

    target = (target or "").strip()
    if kind == "fan":
        ruleset, _sep, code = target.partition(":")
        ruleset, code = ruleset.strip().lower(), code.strip().upper()
        if not Fan.objects.filter(ruleset=ruleset, code__iexact=code).exists():
            return None
        return fan_page_url(ruleset, code, language)
    if not target.isdigit():
        return None
    try:
        if kind == "tournament" and Tournament.objects.filter(pk=int(target)).exists():
            return reverse("tournaments:detail", args=[int(target)])
        if kind == "player" and Player.objects.filter(pk=int(target)).exists():
            return reverse("ratings:player", args=[int(target)])
    except NoReverseMatch:  # pragma: no cover - the URL maps are part of the project
        return None
    return None


def news_body(post) -> list[dict[str, Any]]:
    """The post's blocks ready for the template: worked examples scored live in the
    reader's language, links resolved (a link whose target is gone shows its text only)."""
    language = get_language() or SOURCE_LANGUAGE
    items: list[dict[str, Any]] = []
    for block in post.body:
        kind, value = block.block_type, block.value
        if kind == "example":
            example = value.get("example")
            if example is not None and example.live:
                items.append({"kind": kind, "scored": rulebook_selectors.example_scored(
                    example, language=language)})
        elif kind == "link":
            items.append({"kind": kind, "text": value["text"],
                          "url": site_link_url(value["kind"], value["target"], language)})
        else:
            items.append({"kind": kind, "block": block})
    return items


def news_mailing_texts(post) -> dict[str, tuple[str, str]]:
    """A mailing's texts from a news post and its translations: per language, the title as
    the subject, the summary and the text's paragraphs as plain text, and a link to read
    the post on the site (decision 0315). Latest revisions, so a draft can be mailed."""
    from django.utils.html import strip_tags
    from django.utils.text import normalize_newlines
    from django.utils.translation import override

    from core.site_url import site_absolute_url

    texts: dict[str, tuple[str, str]] = {}
    for page in [post, *post.get_translations()]:
        page = page.specific.get_latest_revision_as_object()
        language = page.locale.language_code
        parts = [page.summary.strip()]
        for block in page.body:
            if block.block_type == "paragraph":
                text = strip_tags(str(block.value.source).replace("</p>", "</p>\n\n"))
                parts.append(normalize_newlines(text).strip())
        with override(language):
            from django.utils.translation import gettext

            if page.live and page.url:
                parts.append(gettext("Read it on the site: %(url)s")
                             % {"url": site_absolute_url(page.url)})
        texts[language] = (page.title, "\n\n".join(p for p in parts if p))
    return texts


#: the slugs of the drafts the tournaments write (content.services)
DRAFT_PREFIX = "tournament-"

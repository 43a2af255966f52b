"""``{% load tiles %}``: ``{% tile t %}`` and ``{% hand_tiles hand %}`` (decision 0510).

Include ``static/css/tiles.css`` on the page (``{% static 'css/tiles.css' %}``).
"""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from rulebook.scoring.arrange import Arrangement
from rulebook.scoring.hand import Hand
from rulebook.scoring.tiles import Tile
from rulebook.tile_display import GroupView, TileView, hand_display, tile_view

register = template.Library()

SIZES: dict[str, tuple[int, int]] = {"small": (24, 32), "medium": (36, 48), "large": (54, 72)}


def _size(size: str) -> tuple[str, int, int]:
    if size not in SIZES:
        raise template.TemplateSyntaxError(
            f"tile size must be one of {', '.join(SIZES)}, not {size!r}"
        )
    width, height = SIZES[size]
    return size, width, height


def _img(tv: TileView, size: str, *, alt: str | None = None) -> SafeString:
    _, width, height = _size(size)
    classes = ["tile", f"tile--{size}"]
    if tv.face_down:
        classes.append("tile--back")
    if tv.winning:
        classes.append("tile--winning")
    if tv.stands_for is not None:
        classes.append("tile--joker")
    img = format_html(
        '<img class="{}" src="{}" alt="{}" title="{}" width="{}" height="{}" '
        'data-tile="{}" loading="lazy" decoding="async">',
        " ".join(classes),
        tv.url,
        tv.alt if alt is None else alt,
        tv.label,
        width,
        height,
        tv.token,
    )
    if tv.rotated:
        return format_html('<span class="tile-rotated tile-rotated--{}">{}</span>', size, img)
    return img


@register.simple_tag
def tile(t: Tile | str, size: str = "medium") -> SafeString:
    """One tile as an ``<img>`` with its name in the page's language as ``alt``."""
    return _img(tile_view(t), size)


def _group(group: GroupView, size: str) -> SafeString:
    classes = ["tile-group", f"tile-group--{group.kind.replace('_', '-')}"]
    if group.melded:
        classes.append("tile-group--melded")
    if group.promoted:
        classes.append("tile-group--promoted")
    if group.kind == "flowers":
        classes.append("tile-group--separated")
    return format_html(
        '<span class="{}" title="{}" data-kind="{}"{}>{}</span>',
        " ".join(classes),
        group.label,
        group.kind,
        format_html(' data-claimed-from="{}"', group.claimed_from) if group.claimed_from else "",
        format_html_join("", "{}", ((_img(tv, size, alt=""),) for tv in group.tiles)),
    )


@register.simple_tag
def hand_tiles(
    hand: Hand | str, size: str = "medium", arrangement: Arrangement | None = None
) -> SafeString:
    """A hand drawn in groups, with one accessible label for the whole hand.

    ``hand`` is a notation or a parsed :class:`Hand`; ``arrangement`` optionally one of the
    core's arrangements of it (its concealed sets are then drawn apart)."""
    _size(size)
    display = hand_display(hand, arrangement=arrangement)
    return format_html(
        '<span class="hand-tiles hand-tiles--{}" role="img" aria-label="{}" '
        'data-notation="{}">{}</span>',
        size,
        display.label,
        display.notation,
        format_html_join("", "{}", ((_group(g, size),) for g in display.groups)),
    )

"""The fan table page and the page of one fan (routes of content.models.FanTablePage)."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _

from rulebook import book_data, fan_relations, selectors
from rulebook.links import fan_page_url
from rulebook.models import CATEGORY_CHOICES, Fan
from rulebook.search_text import search_fold
from tournaments.selectors.hand_stats import fan_share

REASONS = {
    fan_relations.APPENDIX: _("the rules (Appendix 1) say it is not combined with this fan"),
    fan_relations.IMPLIED: _(
        "every hand with this fan has it too, so it is not counted again (3.9.1.5, point 1)"
    ),
    fan_relations.READING: _(
        "another reading of the same tiles: both are never counted in one arrangement "
        "(3.9.1.5, point 2)"
    ),
}
SET_LEVEL = {
    "chows": _(
        "Between chows the rules decide per set: a chow already used for a fan of this family "
        "may not be used again in the same way (3.9.1.5, points 2 to 5)."
    ),
    "pungs": _(
        "Between pungs the rules decide per set: a pung already used for a fan of this family "
        "may not be used again in the same way (3.9.1.5, points 2 to 5)."
    ),
}


def _language() -> str:
    return get_language() or book_data.SOURCE_LANGUAGE


def can_edit(request) -> bool:
    user = getattr(request, "user", None)
    return bool(user and user.is_authenticated and user.has_perm("rulebook.change_workedexample"))


def cached_serve(page, request, render):
    """Render, and mark the response as cacheable for RulebookCacheMiddleware (any rulebook
    page) when the
    visitor is anonymous (editors and previews are never cached: they see warnings)."""
    user = getattr(request, "user", None)
    if (
        request.method == "GET"
        and not getattr(request, "is_preview", False)
        and not (user is not None and user.is_authenticated)
    ):
        request.rulebook_cacheable = True
    return render()


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value not in (None, "") else None
    except ValueError:
        return None


def fan_table_context(page, request) -> dict[str, Any]:
    language = _language()
    ruleset = page.ruleset
    fans = selectors.fans(ruleset, language)
    names = selectors.all_language_names(ruleset)
    points = _int(request.GET.get("points"))
    category = request.GET.get("category") or ""
    query = (request.GET.get("q") or "").strip()
    needle = search_fold(query)
    rows = []
    for fan in fans:
        all_names = names.get(fan.code, [fan.name])
        shown = (
            (points is None or fan.points == points)
            and (not category or fan.category == category)
            and (not needle or any(needle in search_fold(n) for n in [*all_names, fan.code]))
        )
        rows.append({
            "fan": fan,
            "url": fan_page_url(ruleset, fan.code, language),
            "search_names": search_fold(" | ".join([fan.code, *all_names])),
            "hidden": not shown,
        })
    categories = [(key, label) for key, label in CATEGORY_CHOICES if any(f.category == key for f in fans)]
    point_values = sorted({f.points for f in fans}, reverse=True)
    return {
        "ruleset": ruleset,
        "rows": rows,
        "shown_count": sum(1 for r in rows if not r["hidden"]),
        "point_values": point_values,
        "categories": categories,
        "filter_points": points,
        "filter_category": category,
        "query": query,
        "filtered": points is not None or bool(category) or bool(query),
        "unit": fans[0].unit if fans else "points",
        "fans_untranslated": any(not f.is_translated for f in fans),
        # the live filter's "N fans shown", with the language's plural forms
        "count_texts": {
            n: ngettext("%(count)s fan shown", "%(count)s fans shown", n) % {"count": n}
            for n in range(len(rows) + 1)
        },
    }


def fan_detail_context(page, request, code: str) -> dict[str, Any]:
    language = _language()
    ruleset = page.ruleset
    fan = selectors.fan_get(ruleset, code, language)
    if fan is None:
        raise Http404
    names = selectors.fan_names(ruleset, language)

    def ref(fid: str) -> dict[str, str]:
        return {"id": fid, "name": names.get(fid, fid), "url": fan_page_url(ruleset, fid, language)}

    appendix = book_data.appendix_exclusions(ruleset).get(fan.code, [])
    excludes = [
        {**ref(x.fan), "reason": REASONS[x.reason]}
        for x in fan_relations.exclusions(fan.code, appendix)
    ] if ruleset == "mcr" else []
    excluded_by = [ref(fid) for fid in fan_relations.excluded_by(fan.code)] if ruleset == "mcr" else []

    all_scored = selectors.examples_scored(ruleset, language)
    own = [s for s in all_scored if s.example.fan_code.lower() == fan.code.lower()]
    combined = fan_relations.often_combined(fan.code, (s.counted for s in all_scored))

    ordered = list(Fan.objects.filter(
        ruleset=ruleset, locale=fan.locale, live=True
    ).order_by("position").values_list("code", flat=True))
    position = ordered.index(fan.code)
    scored = fan_share(ruleset, fan.code)
    return {
        "fan": fan,
        "ruleset": ruleset,
        "excludes": excludes,
        "excluded_by": excluded_by,
        "set_level": SET_LEVEL.get(fan_relations.set_level(fan.code) or "") if ruleset == "mcr" else None,
        "combined": [
            {**ref(fid), "times": times} for fid, times in combined.fans
        ],
        "combined_examples": combined.examples,
        "examples": own,
        "show_disagreements": can_edit(request),
        "previous_fan": ref(ordered[position - 1]) if position > 0 else None,
        "next_fan": ref(ordered[position + 1]) if position + 1 < len(ordered) else None,
        "fan_table_url": page.url,
        # how often the federation's players score it (kept for the page's cache hour)
        "almanac": {"year": scored[0], "times": scored[1], "hands": scored[2],
                    "percent": 100 * scored[1] / scored[2] if scored[2] else 0,
                    "url": reverse("ratings:almanac", args=[ruleset])} if scored else None,
    }

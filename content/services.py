"""Writes to the page tree: the per-locale skeleton of the site."""

from __future__ import annotations

import copy
import json
import uuid
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from wagtail.models import Locale, Page, Site
from wagtail.signals import page_published

from content import data_files, rule_translations
from content.data_files import DATA_DIR
from content.models import HomePage, NewsIndexPage, NewsPage
from content.news import DRAFT_PREFIX as NEWS_DRAFT_PREFIX
from rulebook.book_data import content_hash
from rulebook.services import LoadReport, Progress

HOME_SLUG = "home"


def locales_ensure() -> dict[str, Locale]:
    """One Wagtail Locale per configured language."""
    return {
        code: Locale.objects.get_or_create(language_code=code)[0]
        for code, _name in settings.WAGTAIL_CONTENT_LANGUAGES
    }


@transaction.atomic
def site_skeleton_load() -> HomePage:
    """Create (or update) the home page in every language and point the default Site at it.

    Safe to run again: existing pages are updated in place, never duplicated.
    """
    texts = json.loads((DATA_DIR / "home.json").read_text(encoding="utf-8"))
    locales = locales_ensure()
    default_locale = locales[settings.LANGUAGE_CODE]
    root = Page.get_first_root_node()
    if root is None:  # an emptied database (Wagtail's migration normally creates the root)
        root = Page.add_root(instance=Page(title="Root", slug="root", locale=default_locale))

    home = HomePage.objects.filter(depth=2, locale=default_locale).first()
    if home is None:
        # Wagtail's initial migration leaves a placeholder "Welcome" page: replace it.
        placeholder = Page.objects.filter(depth=2, slug="home", content_type__model="page")
        for page in placeholder:
            Site.objects.filter(root_page=page).delete()
            page.delete()
        home = HomePage(slug=HOME_SLUG, locale=default_locale, **texts[settings.LANGUAGE_CODE])
        root.add_child(instance=home)
    _page_update(home, texts[settings.LANGUAGE_CODE])

    for code, locale in locales.items():
        if locale == default_locale:
            continue
        translated = home.get_translation_or_none(locale)
        if translated is None:
            translated = home.copy_for_translation(locale)
        _page_update(translated.specific, texts[code])

    news_indexes_ensure(home, locales)

    site = Site.objects.filter(is_default_site=True).first()
    if site is None:
        Site.objects.create(hostname="localhost", port=80, root_page=home, is_default_site=True)
    elif site.root_page_id != home.pk:
        site.root_page = home
        site.save()
    return home


NEWS_SLUG = "news"


def news_indexes_ensure(home: HomePage, locales: dict[str, Locale]) -> None:
    """A news index (/<lang>/news/) under every language's home page, translations of one
    another; editors' later edits of its title and introduction are kept."""
    texts = json.loads((DATA_DIR / "news.json").read_text(encoding="utf-8"))
    key = _page_key("news")
    for code, locale in locales.items():
        if NewsIndexPage.objects.filter(translation_key=key, locale=locale).exists():
            continue
        parent = home if home.locale_id == locale.pk else home.get_translation(locale)
        page = NewsIndexPage(slug=NEWS_SLUG, locale=locale, translation_key=key, **texts[code])
        parent.add_child(instance=page)
        page.save_revision().publish()


def _page_update(page: HomePage, text: dict[str, str]) -> None:
    """Publish the data file's text unless the live page already says exactly that."""
    if page.live and page.title == text["title"] and page.intro == text["intro"]:
        return
    page.title = text["title"]
    page.intro = text["intro"]
    page.save_revision().publish()


# --- The rulebook's pages (docs/decisions/0500, 0502) -------------------------------------

RULEBOOK_PAGES = DATA_DIR / "rulebook_pages.json"
SOURCE_LANGUAGE = "ru"
_PAGE_KEYS = uuid.UUID("0b7e3c55-3f7f-4d7e-8f39-5b2f0c1d9e21")


class RulesDataError(ValueError):
    """A rule text file refers to something that does not exist (file, chapter, section named)."""


def _page_key(*parts: str) -> uuid.UUID:
    return uuid.uuid5(_PAGE_KEYS, "/".join(parts))


def _chapter_stream(ruleset: str, chapter: dict, examples: dict[str, int]) -> list[dict]:
    """A chapter of the data file as StreamField data: its blocks, then each section's
    heading and blocks."""

    def blocks(items: list[dict], where: str) -> list[dict]:
        out = []
        for position, block in enumerate(items, start=1):
            kind = block.get("type")
            if kind == "paragraph":
                out.append({"type": "paragraph", "value": block["text"]})
            elif kind == "list":
                out.append({
                    "type": "list",
                    "value": {"ordered": bool(block.get("ordered")), "items": list(block["items"])},
                })
            elif kind == "table":
                header = block.get("header")
                data = ([list(header)] if header else []) + [list(r) for r in block["rows"]]
                out.append({
                    "type": "table",
                    "value": {
                        "data": data,
                        "first_row_is_table_header": bool(header),
                        "first_col_is_header": False,
                        "table_caption": block.get("caption") or "",
                    },
                })
            elif kind == "example":
                pk = examples.get(block["id"])
                if pk is None:
                    raise RulesDataError(
                        f"{ruleset}.json, {where}, block {position}: worked example "
                        f"{block['id']!r} is not in the rulebook's examples"
                    )
                out.append({"type": "example", "value": {"example": pk}})
            else:
                raise RulesDataError(
                    f"{ruleset}.json, {where}, block {position}: unknown block type {kind!r}"
                )
        return out

    stream = blocks(chapter.get("blocks") or [], f"chapter {chapter['slug']}")
    for section in chapter.get("sections") or []:
        stream.append({
            "type": "heading",
            "value": {
                "number": section.get("number") or "",
                "anchor": section.get("anchor") or "",
                "level": str(section.get("level") or 3),
                "title": section["title"],
            },
        })
        stream += blocks(section.get("blocks") or [], f"section {section.get('number')}")
    return stream


class _PageLoader:
    def __init__(self, *, force: bool, progress: Progress | None = None) -> None:
        self.force = force
        self.progress = progress
        self.report = LoadReport(what="rule pages")
        self.done = 0
        self.total = 0
        self.written = False  # whether the last ensure() created or updated its page

    def ensure(self, parent: Page, cls: type[Page], *, slug: str, key: uuid.UUID,
               locale: Locale, fields: dict) -> Page:
        fields = copy.deepcopy(fields)  # Wagtail adds block ids to the stream data it is given
        digest = content_hash({"slug": slug, **fields})
        page = cls.objects.filter(translation_key=key, locale=locale).first()
        label = f"{locale.language_code}:{slug}"
        self.written = True
        if page is None:
            page = cls(slug=slug, locale=locale, translation_key=key, **fields)
            self._create(parent, page, digest)
            self.report.created += 1
        elif page.source_hash == digest and not self.force:
            self.report.unchanged += 1
            self.written = False
        else:
            latest = page.get_latest_revision_as_object()
            edited = content_hash(latest.loaded_content()) != page.loaded_hash
            if edited and not self.force:
                self.report.kept_edits.append(label)
                self.written = False
            else:
                for name, value in fields.items():
                    setattr(page, name, value)
                self._publish(page, digest)
                self.report.updated += 1
        self.done += 1
        if self.progress:
            self.progress("rule pages", self.done, self.total)
        return page

    def _create(self, parent: Page, page: Page, digest: str) -> None:
        """Add a new page, live, with one revision (the fast path of a first load: the page
        is saved twice instead of the four saves of add_child + save_revision + publish)."""
        page.source_hash = digest
        page.loaded_hash = content_hash(page.loaded_content())
        page.live = True
        page.has_unpublished_changes = False
        now = timezone.now()
        page.first_published_at = page.last_published_at = now
        parent.add_child(instance=page)
        revision = page.save_revision(clean=False, log_action=False, changed=False)
        type(page).objects.filter(pk=page.pk).update(
            live_revision=revision, has_unpublished_changes=False
        )
        page.live_revision = revision
        page.has_unpublished_changes = False
        page_published.send(sender=type(page), instance=page, revision=revision)

    def _publish(self, page: Page, digest: str) -> None:
        page.source_hash = digest
        page.loaded_hash = content_hash(page.loaded_content())
        page.save_revision(log_action=False).publish(log_action=False)


def _citation(rules_dir: Path, name: str, code: str, russian: dict | None) -> str:
    """The ruleset page's bibliographic line: the translation file's ``citation`` in that
    language, else the Russian file's (docs/decisions/0541)."""
    translation = (
        rule_translations.translation_read(rules_dir, name, code)
        if code != SOURCE_LANGUAGE else None
    )
    for data in (translation, russian):
        if data and data.get("citation"):
            return str(data["citation"])
    return str((russian or {}).get("source", ""))


def _translations_read(
    rulesets: list[str], data: dict[str, dict | None], rules_dir: Path
) -> dict[tuple[str, str], list[tuple[dict, list[dict]]]]:
    """(ruleset, language) -> [(translated chapter, its stream)] in the Russian file's
    order, for every translation file beside the Russian ones (docs/decisions/0521)."""
    from rulebook.models import WorkedExample

    out = {}
    for name in rulesets:
        source = data[name]
        if source is None:
            continue
        examples = dict(WorkedExample.objects.filter(ruleset=name).values_list("code", "pk"))
        for code in rule_translations.TRANSLATION_LANGUAGES:
            translation = rule_translations.translation_read(rules_dir, name, code)
            if translation is None:
                continue
            problems = rule_translations.mismatches(source, translation)
            if problems:
                raise RulesDataError(
                    f"{name}.{code}.json does not mirror {name}.json: " + "; ".join(problems)
                )
            out[(name, code)] = [
                (chapter, _chapter_stream(f"{name}.{code}", chapter, examples))
                for chapter in translation["chapters"]
            ]
    return out


def _translation_status_update(page, *, russian: dict, translated: dict | None,
                               loaded_now: bool) -> None:
    """Keep a translated chapter's status honest: a newly loaded translation is not
    reviewed yet; a change of the Russian chapter makes the translation outdated and takes
    back its review until an editor reviews it again."""
    now_hash = rule_translations.source_hash(russian)
    now_text = rule_translations.chapter_plain_text(russian)
    status: dict = {"russian_hash": now_hash, "russian_text": now_text}
    unreview = False
    if translated is None:
        status.update(translated_from_hash="", translated_from_text="")
    elif loaded_now:
        status["translated_from_hash"] = translated.get("source_hash") or now_hash
        if status["translated_from_hash"] == now_hash:
            status["translated_from_text"] = now_text
        elif not page.translated_from_text and page.russian_text:
            # made from an older Russian text: the one loaded before is the best known
            status["translated_from_text"] = page.russian_text
        unreview = True
    elif not page.translated_from_text and page.translated_from_hash == now_hash:
        status["translated_from_text"] = now_text
    if page.russian_hash and page.russian_hash != now_hash:
        unreview = True
    if unreview:
        status.update(translation_reviewed=False, translation_reviewed_by=None,
                      translation_reviewed_at=None)
    changed = {k: v for k, v in status.items() if getattr(page, k) != v}
    if not changed:
        return
    type(page).objects.filter(pk=page.pk).update(**changed)
    for name, value in changed.items():
        setattr(page, name, value)
    if "translation_reviewed" in changed:
        # the review is edited in the admin's form, which starts from the latest revision
        revision = page.latest_revision
        if revision is not None and revision.content.get("translation_reviewed"):
            revision.content["translation_reviewed"] = False
            revision.save(update_fields=["content"])


@transaction.atomic
def rule_translation_review(*, page, user, reviewed: bool) -> None:
    """An editor of the page's language reviewed (or un-reviewed) its translation against
    the current Russian chapter: record who and when, and that it is up to date."""
    if reviewed:
        fields = {
            "translation_reviewed_by": user, "translation_reviewed_at": timezone.now(),
            "translated_from_hash": page.russian_hash or page.translated_from_hash,
            "translated_from_text": page.russian_text or page.translated_from_text,
        }
    else:
        fields = {"translation_reviewed_by": None, "translation_reviewed_at": None}
    type(page).objects.filter(pk=page.pk).update(**fields)
    for name, value in fields.items():
        setattr(page, name, value)


def _rules_data(ruleset: str, rules_dir: Path) -> dict | None:
    path = rules_dir / f"{ruleset}.json"
    if not path.exists():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


@transaction.atomic
def rulebook_pages_load(
    *, force: bool = False, progress: Progress | None = None, rules_dir: Path | None = None
) -> LoadReport:
    """Create or update, in every language, /rules/, /rules/<ruleset>/, its chapters and its
    fan table. Rule texts are Russian: a language with a translation file
    (``<ruleset>.<language>.json``) gets the project's translation, marked as such and not
    yet reviewed; the others get the Russian text with ``is_translated`` off until an
    editor translates the page and ticks it."""
    from content.models import FanTablePage, RuleChapterPage, RulesetPage, RulesIndexPage
    from rulebook import book_data
    from rulebook.models import WorkedExample
    from rulebook.rulesets import codes as ruleset_codes

    rules_dir = rules_dir or data_files.RULES_DIR
    texts = json.loads(RULEBOOK_PAGES.read_text(encoding="utf-8"))
    locales = locales_ensure()
    home_ru = site_skeleton_load()
    homes = {code: home_ru.get_translation(locale) for code, locale in locales.items()}
    data = {name: _rules_data(name, rules_dir) for name in ruleset_codes()}
    rulesets = [
        name for name in ruleset_codes()
        if data[name] is not None or book_data.available(name)
    ]
    loader = _PageLoader(force=force, progress=progress)
    loader.total = len(locales) * (
        1 + sum(
            1 + (1 if book_data.available(name) else 0)
            + len((data[name] or {}).get("chapters", []))
            for name in rulesets
        )
    )
    streams = {}
    for name in rulesets:
        examples = dict(
            WorkedExample.objects.filter(ruleset=name).values_list("code", "pk")
        )
        streams[name] = [
            (chapter, _chapter_stream(name, chapter, examples))
            for chapter in (data[name] or {}).get("chapters", [])
        ]

    translations = _translations_read(rulesets, data, rules_dir)

    for code, locale in locales.items():
        index = loader.ensure(
            homes[code], RulesIndexPage, slug="rules", key=_page_key("rules"), locale=locale,
            fields={**texts["index"][code], "is_translated": True},
        )
        for name in rulesets:
            ruleset_page = loader.ensure(
                index, RulesetPage, slug=name, key=_page_key("rules", name), locale=locale,
                fields={
                    **texts["rulesets"][name][code],
                    "ruleset": name,
                    "source": _citation(rules_dir, name, code, data[name]),
                    "is_translated": True,
                },
            )
            translation = translations.get((name, code))
            for position, (chapter, stream) in enumerate(streams[name]):
                fields = {
                    "title": chapter["title"],
                    "number": chapter.get("number") or "",
                    "body": stream,
                    "is_translated": code == SOURCE_LANGUAGE,
                }
                translated_chapter = None
                if translation is not None:
                    translated_chapter, translated_stream = translation[position]
                    fields.update({
                        "title": translated_chapter["title"], "body": translated_stream,
                        "is_translated": True,
                        "translation_source": RuleChapterPage.TRANSLATION_PROJECT,
                    })
                elif code != SOURCE_LANGUAGE:
                    fields["translation_source"] = ""
                page = loader.ensure(
                    ruleset_page, RuleChapterPage, slug=chapter["slug"],
                    key=_page_key("rules", name, chapter["slug"]), locale=locale,
                    fields=fields,
                )
                if code != SOURCE_LANGUAGE:
                    _translation_status_update(
                        page, russian=chapter, translated=translated_chapter,
                        loaded_now=loader.written,
                    )
            if book_data.available(name):
                loader.ensure(
                    ruleset_page, FanTablePage, slug="fans", key=_page_key("rules", name, "fans"),
                    locale=locale, fields={**texts["fan_table"][code], "is_translated": True},
                )
    return loader.report


# --- Draft news for editors (docs/decisions/0530) ------------------------------------------




def _news_drafts(*, slug: str, write) -> list[NewsPage]:
    """A draft post in every language's news index (decision 0727), translations of one
    another, each written by ``write()`` in its language (title, summary, body). Once per
    slug and language: a correction of results confirms them again and writes no second
    draft. Nothing where a language has no news index yet."""
    from django.utils import translation

    key = uuid.uuid5(_PAGE_KEYS, f"news/{slug}")
    written: list[NewsPage] = []
    indexes = NewsIndexPage.objects.select_related("locale").order_by("pk")
    for index in indexes:
        if NewsPage.objects.filter(slug=slug).child_of(index).exists():
            continue
        with translation.override(index.locale.language_code):
            title, summary, body = write()
        page = NewsPage(title=title[:255], slug=slug, summary=summary, tag="tournaments",
                        body=body, live=False, date=timezone.localdate(),
                        locale=index.locale, translation_key=key)
        index.add_child(instance=page)
        page.save_revision()
        written.append(page)
    return written


def _tournament_link(tournament) -> tuple[str, dict]:
    return ("link", {"kind": "tournament", "target": str(tournament.pk), "text": tournament.name})


def news_draft_for_accreditation(*, tournament) -> list[NewsPage]:
    """"<tournament> is accredited": dates, city, ruleset, a link to its page; one draft per
    language."""
    from django.utils.html import escape
    from wagtail.rich_text import RichText

    from core.countries import country_name
    from core.dates import date_display

    def write():
        summary = _(
            "%(name)s, %(city)s (%(country)s), from %(start)s to %(end)s, is accredited by "
            "the federation. Its results will count for the rating."
        ) % {
            "name": tournament.name, "city": tournament.city,
            "country": country_name(tournament.country),
            "start": date_display(tournament.start_date),
            "end": date_display(tournament.end_date),
        }
        return (_("%(name)s is accredited") % {"name": tournament.name}, summary,
                [("paragraph", RichText(f"<p>{escape(summary)}</p>")),
                 _tournament_link(tournament)])

    return _news_drafts(slug=f"{NEWS_DRAFT_PREFIX}{tournament.pk}-accredited", write=write)


def news_draft_for_results(*, tournament) -> list[NewsPage]:
    """"Results of <tournament>": the podium (ranks 1-3, ties included), links to the
    players and to the tournament's standings; one draft per language."""
    from django.utils.html import escape
    from wagtail.rich_text import RichText

    from tournaments.selectors import tournament_standings

    podium = [row for row in tournament_standings(tournament)
              if row.rank is not None and row.rank <= 3]  # substitutes are not ranked

    def write():
        names = ", ".join(f"{row.rank}. {row.name}" for row in podium)
        summary = _("The results of %(name)s are confirmed: %(podium)s.") % {
            "name": tournament.name, "podium": names,
        }
        places = "".join(
            f"<li>{escape(row.name)} ({row.table_points_number})</li>" for row in podium
        )
        heading = escape(_("The podium, with table points:"))
        body: list = [("paragraph", RichText(f"<p>{heading}</p><ol>{places}</ol>"))]
        body += [
            ("link", {"kind": "player", "target": str(row.player), "text": row.name})
            for row in podium
        ]
        body.append(_tournament_link(tournament))
        return _("Results of %(name)s") % {"name": tournament.name}, summary, body

    return _news_drafts(slug=f"{NEWS_DRAFT_PREFIX}{tournament.pk}-results", write=write)


def news_drafts_waiting(*, limit: int = 10) -> list[list[NewsPage]]:
    """The tournaments' news drafts no editor has published yet, newest first: each a list
    of the languages' drafts of one post (the editors' dashboard). One query."""
    pages = list(NewsPage.objects.filter(live=False, slug__startswith=NEWS_DRAFT_PREFIX)
                 .select_related("locale").order_by("-pk")[: limit * 10])
    order = {code: i for i, (code, _name) in enumerate(settings.WAGTAIL_CONTENT_LANGUAGES)}
    groups: dict[uuid.UUID, list[NewsPage]] = {}
    for page in pages:
        groups.setdefault(page.translation_key, []).append(page)
    return [sorted(group, key=lambda page: order.get(page.locale.language_code, 99))
            for group in list(groups.values())[:limit]]

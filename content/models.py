"""Wagtail pages. Each locale has its own tree of translated pages (simple_translation)."""

from __future__ import annotations

import hashlib
import re

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from wagtail.admin.panels import FieldPanel
from wagtail.contrib.routable_page.models import RoutablePageMixin, path
from wagtail.fields import RichTextField, StreamField
from wagtail.models import Page
from wagtail.search import index

from content.blocks import NewsBodyBlock, RuleTextBlock
from rulebook.rulesets import choices as ruleset_choices


class HomePage(Page):
    """The root page of a locale: the federation's front door."""

    intro = models.TextField(_("introduction"), blank=True)
    body = RichTextField(_("body"), blank=True)

    content_panels = [*Page.content_panels, FieldPanel("intro"), FieldPanel("body")]
    search_fields = [*Page.search_fields, index.SearchField("intro"), index.SearchField("body")]

    parent_page_types = ["wagtailcore.Page"]
    max_count_per_parent = 5  # one per language

    #: how many upcoming tournaments and best-rated players the front door shows
    UPCOMING_TOURNAMENTS = 3
    RATING_LEADERS = 5
    LATEST_NEWS = 3

    class Meta:
        verbose_name = _("home page")
        verbose_name_plural = _("home pages")

    def get_context(self, request, *args, **kwargs):
        """The way into each part of the site: the rulesets of this language's rulebook,
        the calculator, the next tournaments, the top of the rating list, membership."""
        from ratings.selectors import list_leaders
        from tournaments.selectors import upcoming_tournaments

        context = super().get_context(request, *args, **kwargs)
        rules_index = RulesIndexPage.objects.child_of(self).live().public().first()
        context["rules_index"] = rules_index
        context["rulesets"] = rules_index.rulesets_with_fan_tables() if rules_index else []
        context["upcoming"] = upcoming_tournaments(limit=self.UPCOMING_TOURNAMENTS)
        context["leaders"] = list_leaders(limit=self.RATING_LEADERS)
        news_index = NewsIndexPage.objects.child_of(self).live().public().first()
        context["news_index"] = news_index
        context["news"] = list(news_index.posts()[: self.LATEST_NEWS]) if news_index else []
        return context

    @classmethod
    def cache_stamp(cls) -> str:
        """What the front door shows besides the site's pages (whose publication changes
        ``content_version``): the rating list's stamp, today's date (which tournaments are
        upcoming, which month's list is the latest) and the upcoming tournaments as shown.
        Part of the key of the anonymous home page's cached rendering
        (``content.middleware``), so a change is visible at once."""
        from ratings.selectors import list_stamp
        from tournaments.selectors import today, upcoming_tournaments

        upcoming = [
            (t.pk, t.name, t.start_date, t.end_date, t.city, t.country, t.state)
            for t in upcoming_tournaments(limit=cls.UPCOMING_TOURNAMENTS)
        ]
        text = repr((list_stamp(), today(), upcoming))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]

    def serve(self, request, *args, **kwargs):
        from content.fan_pages import cached_serve

        return cached_serve(self, request, lambda: super(HomePage, self).serve(request, *args, **kwargs))


class StandardPage(Page):
    """A plain text page (about the federation, contacts, statutes...)."""

    intro = models.TextField(_("introduction"), blank=True)
    body = RichTextField(_("body"), blank=True)

    content_panels = [*Page.content_panels, FieldPanel("intro"), FieldPanel("body")]
    search_fields = [*Page.search_fields, index.SearchField("intro"), index.SearchField("body")]

    class Meta:
        verbose_name = _("text page")
        verbose_name_plural = _("text pages")


# --- The rulebook: rules index, ruleset, chapters, fan table (docs/decisions/0500) ---------

class RulebookPageMixin(models.Model):
    """What every rulebook page has: the translation flag and the loader's fingerprints."""

    is_translated = models.BooleanField(
        _("translated"),
        default=True,
        help_text=_(
            "Tick when this page's text is in its own language. Until then visitors see a "
            '"not yet translated" notice above the Russian text.'
        ),
    )
    # what load_content loaded: the data's fingerprint and the page's content right after
    source_hash = models.CharField(max_length=64, blank=True, editable=False)
    loaded_hash = models.CharField(max_length=64, blank=True, editable=False)

    class Meta:
        abstract = True

    def loaded_content(self) -> dict:
        """The editable content, in a form that is equal iff the content is equal."""
        return {"title": self.title, "is_translated": self.is_translated}

    def serve(self, request, *args, **kwargs):
        from content.fan_pages import cached_serve

        parent_serve = super().serve  # type: ignore[misc]
        return cached_serve(self, request, lambda: parent_serve(request, *args, **kwargs))


class RulesIndexPage(RoutablePageMixin, RulebookPageMixin, Page):  # noqa: DJ008  (Page.__str__)
    """/<lang>/rules/: the three rulesets; /<lang>/rules/glossary/: the terms every
    translation of the rules follows."""

    intro = models.TextField(_("introduction"), blank=True)

    content_panels = [*Page.content_panels, FieldPanel("intro")]
    settings_panels = [*Page.settings_panels, FieldPanel("is_translated")]
    search_fields = [*Page.search_fields, index.SearchField("intro")]
    parent_page_types = ["content.HomePage"]
    subpage_types = ["content.RulesetPage"]
    max_count_per_parent = 1
    template = "content/rules_index_page.html"

    class Meta:
        verbose_name = _("rules index")
        verbose_name_plural = _("rules indexes")

    def loaded_content(self) -> dict:
        return {**super().loaded_content(), "intro": self.intro}

    def rulesets_with_fan_tables(self) -> list[tuple[RulesetPage, FanTablePage | None]]:
        """The live rulesets, each with its fan table page (None if it has none)."""
        rulesets = list(self.get_children().live().public().specific())
        tables = {
            table.get_parent().pk: table
            for table in FanTablePage.objects.live().public().descendant_of(self)
        }
        return [(ruleset, tables.get(ruleset.pk)) for ruleset in rulesets]

    def get_context(self, request, *args, **kwargs):
        context = super().get_context(request, *args, **kwargs)
        context["rulesets"] = self.rulesets_with_fan_tables()
        return context

    def serve(self, request, *args, **kwargs):
        from content.fan_pages import cached_serve

        return cached_serve(
            self, request, lambda: super(RulesIndexPage, self).serve(request, *args, **kwargs)
        )

    @path("")
    def rules_index(self, request):
        return self.render(request)

    @path("glossary/")
    def glossary(self, request):
        from content import glossary

        language = self.locale.language_code
        data = glossary.glossary_data()
        return self.render(request, template="content/glossary_page.html", context_overrides={
            "glossary_title": data["title"][language],
            "glossary_intro": data["intro"][language],
            "terms": glossary.terms(language),
            "fan_names": glossary.mcr_fan_names(language),
            "other_language": "en" if language == "ru" else "ru",
            "extra_crumb": True,
        })


#: an appendix's number as the Russian book writes it ("П1" ... "П8", decision 0520)
_APPENDIX_NUMBER = re.compile(r"^П(\d+)$")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")


def chapter_number_label(number: str) -> str:
    """A chapter's number as the reader's language writes it: the stored "П1" (the key
    the translations mirror) is "Appendix 1", "Annexe 1", "Bijlage 1", "附录1"; other
    numbers are digits (decision 0541)."""
    found = _APPENDIX_NUMBER.match(number or "")
    if found is None:
        return number
    return gettext("Appendix %(number)s") % {"number": found.group(1)}


class RulesetPage(RulebookPageMixin, Page):  # noqa: DJ008
    """/<lang>/rules/<ruleset>/: one ruleset's contents (its chapters and fan table)."""

    ruleset = models.CharField(_("rules"), max_length=8, choices=ruleset_choices())
    intro = models.TextField(_("introduction"), blank=True)
    source = models.TextField(_("source"), blank=True)

    content_panels = [*Page.content_panels, FieldPanel("intro"), FieldPanel("source")]
    settings_panels = [
        *Page.settings_panels, FieldPanel("ruleset", read_only=True), FieldPanel("is_translated"),
    ]
    search_fields = [*Page.search_fields, index.SearchField("intro")]
    parent_page_types = ["content.RulesIndexPage"]
    subpage_types = ["content.RuleChapterPage", "content.FanTablePage"]
    template = "content/ruleset_page.html"

    class Meta:
        verbose_name = _("ruleset")
        verbose_name_plural = _("rulesets")

    def loaded_content(self) -> dict:
        return {**super().loaded_content(), "intro": self.intro, "source": self.source}

    @property
    def source_is_russian(self) -> bool:
        """The bibliographic line is the Russian one (no line in the page's language)."""
        return bool(_CYRILLIC.search(self.source))

    def get_context(self, request, *args, **kwargs):
        context = super().get_context(request, *args, **kwargs)
        children = self.get_children().live().public().specific()
        context["chapters"] = [c for c in children if isinstance(c, RuleChapterPage)]
        context["fan_table"] = next((c for c in children if isinstance(c, FanTablePage)), None)
        return context


class RuleChapterPage(RulebookPageMixin, Page):  # noqa: DJ008
    """One chapter (or appendix) of a ruleset's text; sections are anchored headings."""

    TRANSLATION_PROJECT = "project"
    TRANSLATION_SOURCES = [
        ("", _("not a translation")),
        (TRANSLATION_PROJECT, _("the project's translation of the Russian edition")),
    ]
    #: the status fields a revision does not carry: they follow the Russian text and the
    #: editors' reviews, not the page's content (docs/decisions/0521)
    STATUS_FIELDS = (
        "translated_from_hash", "russian_hash", "translated_from_text", "russian_text",
        "translation_reviewed_by", "translation_reviewed_at",
    )

    number = models.CharField(_("number"), max_length=16, blank=True)
    body = StreamField(RuleTextBlock(), verbose_name=_("text"), blank=True)
    translation_source = models.CharField(
        _("translation"), max_length=16, blank=True, choices=TRANSLATION_SOURCES,
        editable=False,
    )
    translation_reviewed = models.BooleanField(
        _("translation reviewed"),
        default=False,
        help_text=_(
            "Tick when an editor of this language has read the translation against the "
            "current Russian text."
        ),
    )
    translation_reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("reviewed by"), null=True, blank=True,
        on_delete=models.SET_NULL, related_name="+", editable=False,
    )
    translation_reviewed_at = models.DateTimeField(
        _("reviewed at"), null=True, blank=True, editable=False
    )
    # the Russian chapter's fingerprint the translation was made (or last reviewed) from,
    # and the Russian chapter's fingerprint now: outdated when they differ
    translated_from_hash = models.CharField(max_length=64, blank=True, editable=False)
    russian_hash = models.CharField(max_length=64, blank=True, editable=False)
    # the Russian chapter's text, one line per title, paragraph, list item or cell: the one
    # the translation was made (or last reviewed) from, and now; their diff shows editors
    # what changed (decision 0526)
    translated_from_text = models.TextField(blank=True, editable=False)
    russian_text = models.TextField(blank=True, editable=False)

    content_panels = [*Page.content_panels, FieldPanel("number"), FieldPanel("body")]
    settings_panels = [
        *Page.settings_panels, FieldPanel("is_translated"), FieldPanel("translation_reviewed"),
    ]
    search_fields = [*Page.search_fields, index.SearchField("body")]
    parent_page_types = ["content.RulesetPage"]
    subpage_types: list[str] = []
    template = "content/rule_chapter_page.html"

    class Meta:
        verbose_name = _("rules chapter")
        verbose_name_plural = _("rules chapters")

    def loaded_content(self) -> dict:
        blocks = [
            {"type": child.block_type, "value": child.block.get_api_representation(child.value)}
            for child in self.body
        ]
        return {**super().loaded_content(), "number": self.number, "body": blocks}

    @property
    def number_label(self) -> str:
        return chapter_number_label(self.number)

    @property
    def ruleset(self) -> str:
        parent = self.get_parent().specific
        return getattr(parent, "ruleset", "")

    @property
    def is_project_translation(self) -> bool:
        return self.translation_source == self.TRANSLATION_PROJECT

    @property
    def translation_outdated(self) -> bool:
        """The Russian chapter changed since the translation was made or last reviewed."""
        return bool(
            self.is_project_translation and self.translated_from_hash and self.russian_hash
            and self.translated_from_hash != self.russian_hash
        )

    def with_content_json(self, content):
        """A revision's content with the status as the page has it now (an old revision
        must not bring back an old review or an old fingerprint of the Russian text)."""
        obj = super().with_content_json(content)
        for name in self.STATUS_FIELDS:
            field = self._meta.get_field(name)
            setattr(obj, field.attname, getattr(self, field.attname))
        return obj

    def get_context(self, request, *args, **kwargs):
        from content.rule_text import chapter_render_context

        context = super().get_context(request, *args, **kwargs)
        context.update(chapter_render_context(self, request))
        return context


class FanTablePage(RoutablePageMixin, RulebookPageMixin, Page):  # noqa: DJ008
    """/<lang>/rules/<ruleset>/fans/: the fan table, and /<id>/ a page per fan.

    The fans themselves are snippets (rulebook.Fan): the pages render them in the page's
    language (docs/decisions/0500).
    """

    intro = models.TextField(_("introduction"), blank=True)

    content_panels = [*Page.content_panels, FieldPanel("intro")]
    settings_panels = [*Page.settings_panels, FieldPanel("is_translated")]
    search_fields = [*Page.search_fields, index.SearchField("intro")]
    parent_page_types = ["content.RulesetPage"]
    subpage_types: list[str] = []
    max_count_per_parent = 1
    template = "content/fan_table_page.html"

    class Meta:
        verbose_name = _("fan table")
        verbose_name_plural = _("fan tables")

    def loaded_content(self) -> dict:
        return {**super().loaded_content(), "intro": self.intro}

    @property
    def ruleset(self) -> str:
        return getattr(self.get_parent().specific, "ruleset", "")

    def serve(self, request, *args, **kwargs):
        from content.fan_pages import cached_serve

        return cached_serve(self, request, lambda: super(FanTablePage, self).serve(request, *args, **kwargs))

    def get_sitemap_urls(self, request=None):
        """The table and every fan page of its language."""
        from rulebook.models import Fan

        urls = super().get_sitemap_urls(request)
        base = self.get_full_url(request)
        if not urls or not base:
            return urls
        codes = Fan.objects.filter(
            ruleset=self.ruleset, locale=self.locale, live=True
        ).values_list("code", flat=True)
        return urls + [
            {"location": f"{base}{code.lower()}/", "lastmod": urls[0].get("lastmod")}
            for code in codes
        ]

    @path("")
    def fan_table(self, request):
        from content.fan_pages import fan_table_context

        return self.render(request, context_overrides=fan_table_context(self, request))

    @path("<str:code>/")
    def fan_detail(self, request, code):
        from django.shortcuts import redirect

        from content.fan_pages import fan_detail_context

        if code != code.lower():  # one URL per fan: /fans/57a/, never /fans/57A/
            return redirect(f"{self.url}{code.lower()}/", permanent=True)
        context = fan_detail_context(self, request, code)
        return self.render(
            request, context_overrides=context, template="content/fan_page.html"
        )


# --- News (docs/decisions/0530) -----------------------------------------------------------

NEWS_TAGS = [
    ("tournaments", _("Tournaments")),
    ("rules", _("Rules")),
    ("federation", _("Federation")),
]


class NewsIndexPage(RoutablePageMixin, Page):
    """/<lang>/news/: this language's posts, newest first, ten a page, and
    /<lang>/news/feed/ their Atom feed."""

    intro = models.TextField(_("introduction"), blank=True)

    content_panels = [*Page.content_panels, FieldPanel("intro")]
    parent_page_types = ["content.HomePage"]
    subpage_types = ["content.NewsPage"]
    max_count_per_parent = 1
    template = "content/news_index_page.html"

    class Meta:
        verbose_name = _("news index")
        verbose_name_plural = _("news indexes")

    def posts(self, *, tag: str = ""):
        """The live, public posts of this index, newest first."""
        posts = NewsPage.objects.live().public().child_of(self)
        if tag:
            posts = posts.filter(tag=tag)
        return posts.order_by("-date", "-first_published_at", "-pk")

    @path("")
    def news_list(self, request):
        from django.core.paginator import Paginator

        from content.news import NEWS_PER_PAGE

        tag = request.GET.get("tag", "")
        if tag not in dict(NEWS_TAGS):
            tag = ""
        paginator = Paginator(self.posts(tag=tag), NEWS_PER_PAGE)
        posts = paginator.get_page(request.GET.get("page"))
        return self.render(request, context_overrides={
            "posts": posts, "tag": tag, "tags": NEWS_TAGS,
        })

    @path("feed/")
    def feed(self, request):
        from content.feeds import NewsFeed

        return NewsFeed(self)(request)


class NewsPage(Page):
    """One news post: dated, with a summary (the index, the feed, the home page show it) and
    a body of rich text, images, worked examples scored live and links into the site."""

    date = models.DateField(_("date"), default=timezone.localdate)
    summary = models.TextField(_("summary"), max_length=500)
    tag = models.CharField(_("tag"), max_length=16, choices=NEWS_TAGS, default="federation")
    body = StreamField(NewsBodyBlock(), verbose_name=_("text"), blank=True)

    content_panels = [
        *Page.content_panels, FieldPanel("date"), FieldPanel("tag"), FieldPanel("summary"),
        FieldPanel("body"),
    ]
    search_fields = [
        *Page.search_fields, index.SearchField("summary"), index.SearchField("body"),
    ]
    parent_page_types = ["content.NewsIndexPage"]
    subpage_types: list[str] = []
    template = "content/news_page.html"

    class Meta:
        verbose_name = _("news post")
        verbose_name_plural = _("news posts")

    def get_context(self, request, *args, **kwargs):
        from content.news import news_body

        context = super().get_context(request, *args, **kwargs)
        context["blocks"] = news_body(self)
        context["news_index"] = self.get_parent()
        return context

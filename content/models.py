"""Wagtail pages. Each locale has its own tree of translated pages (simple_translation)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from wagtail.admin.panels import FieldPanel
from wagtail.fields import RichTextField
from wagtail.models import Page
from wagtail.search import index


class HomePage(Page):
    """The root page of a locale: the federation's front door."""

    intro = models.TextField(_("introduction"), blank=True)
    body = RichTextField(_("body"), blank=True)

    content_panels = [*Page.content_panels, FieldPanel("intro"), FieldPanel("body")]
    search_fields = [*Page.search_fields, index.SearchField("intro"), index.SearchField("body")]

    parent_page_types = ["wagtailcore.Page"]
    max_count_per_parent = 5  # one per language

    class Meta:
        verbose_name = _("home page")
        verbose_name_plural = _("home pages")


class StandardPage(Page):
    """A plain text page (about the federation, contacts, statutes...)."""

    intro = models.TextField(_("introduction"), blank=True)
    body = RichTextField(_("body"), blank=True)

    content_panels = [*Page.content_panels, FieldPanel("intro"), FieldPanel("body")]
    search_fields = [*Page.search_fields, index.SearchField("intro"), index.SearchField("body")]

    class Meta:
        verbose_name = _("text page")
        verbose_name_plural = _("text pages")

"""Admin form widgets for membership."""

from __future__ import annotations

from django import forms


class SearchableSelectMultiple(forms.SelectMultiple):
    """A multiple select with a search box above it: typing narrows the options (name or
    email), the chosen ones stay listed first. For choosing a club's officers among all
    accounts without scrolling a list of every user."""

    template_name = "federation/widgets/searchable_select_multiple.html"

    class Media:
        js = ["federation/searchable-select.js"]

    def __init__(self, attrs=None, choices=()):  # type: ignore[no-untyped-def]
        super().__init__({"size": 8, "data-searchable-select": "", **(attrs or {})}, choices)

"""Every text field of every form and serializer cleans control characters on the way in
(``core.rules.typed_text``; issue 37, item 11): one place for the whole site, the site's
own forms, Wagtail's and allauth's, and the API's serializers.

Installed once when the apps are ready (``core.apps``): Django's ``forms.CharField`` (and so
every subclass: e-mail, slug, the rich-text and the model forms' fields) and DRF's
``serializers.CharField`` clean what they read before their validators run."""

from __future__ import annotations

from typing import Any

from core.rules.typed_text import clean_typed_text

_INSTALLED = False


def install() -> None:
    global _INSTALLED
    if _INSTALLED:
        return
    from django import forms
    from rest_framework import serializers

    form_to_python = forms.CharField.to_python

    def cleaned_form_value(self: forms.CharField, value: Any) -> Any:
        value = form_to_python(self, value)
        if isinstance(value, str):
            return clean_typed_text(value, multiline=isinstance(self.widget, forms.Textarea))
        return value

    serializer_to_internal = serializers.CharField.to_internal_value

    def cleaned_serializer_value(self: serializers.CharField, data: Any) -> Any:
        value = serializer_to_internal(self, data)
        if not isinstance(value, str):
            return value
        return clean_typed_text(
            value, multiline=self.style.get("base_template") == "textarea.html")

    forms.CharField.to_python = cleaned_form_value  # type: ignore[method-assign]
    serializers.CharField.to_internal_value = cleaned_serializer_value  # type: ignore[method-assign]
    _INSTALLED = True

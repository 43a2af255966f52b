"""The accreditation officers' admin of the qualification lists (decision 0842): Wagtail's
model views, allowed by the model's permissions (the officer's role holds them)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from wagtail.admin.viewsets.model import ModelViewSet

from ratings.models import QualificationList


class QualificationListViewSet(ModelViewSet):
    model = QualificationList
    icon = "list-ol"
    menu_label = _("Qualification lists")
    add_to_admin_menu = True
    menu_order = 320
    list_display = ["name", "rule", "seats", "reserves", "published"]
    form_fields = ["name", "ruleset", "rule", "seats", "reserves", "country", "tournaments",
                   "points", "published"]

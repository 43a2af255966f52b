"""The admin's home page tells each volunteer what waits for them (decision 0006).

Each app adds its own panel through Wagtail's ``construct_homepage_panels`` hook: a
:class:`TasksPanel` with the tasks the signed-in user has the permission for. A user
without any of those permissions does not see the panel.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from wagtail.admin.ui.components import Component


@dataclass(frozen=True)
class Task:
    """One line of a panel: what waits, how many, where to do it."""

    label: str
    count: int
    url: str
    detail: str = ""


class TasksPanel(Component):
    """A dashboard panel listing ``tasks(user)``; shown when there is at least one line."""

    template_name = "core/admin/tasks_panel.html"

    def __init__(self, *, name: str, heading: str, order: int,
                 tasks: Callable[[Any], list[Task]]) -> None:
        self.name = name
        self.heading = heading
        self.order = order
        self._tasks = tasks

    def get_context_data(self, parent_context: Mapping[str, Any] | None = None
                         ) -> Mapping[str, Any]:
        request = (parent_context or {})["request"]
        return {"panel_id": self.name, "heading": self.heading,
                "tasks": self._tasks(request.user)}

    def render_html(self, parent_context: Mapping[str, Any] | None = None) -> str:
        context = self.get_context_data(parent_context)
        if not context["tasks"]:
            return ""
        return render_to_string(self.template_name, context)

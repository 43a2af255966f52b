"""The wiring's pages of the Wagtail admin: the task queue's schedules (config.task_admin)."""

from __future__ import annotations

from typing import Any

from wagtail import hooks


@hooks.register("register_admin_viewset")
def register_task_schedule_viewsets() -> list[Any]:
    from config.task_admin import (
        CrontabScheduleViewSet,
        IntervalScheduleViewSet,
        PeriodicTaskViewSet,
    )

    return [PeriodicTaskViewSet(), CrontabScheduleViewSet(), IntervalScheduleViewSet()]

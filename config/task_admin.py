"""The task queue's schedules in the Wagtail admin (Settings): django-celery-beat's periodic
tasks, and the crontab and interval schedules they run on, for superusers only. Beat reads
the changes within seconds (django-celery-beat marks them changed on save)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from django_celery_beat.models import CrontabSchedule, IntervalSchedule, PeriodicTask
from wagtail.admin.viewsets.model import ModelViewSet
from wagtail.permission_policies.base import BasePermissionPolicy
from wagtail.permissions import register_permission_policy


class SuperusersOnly(BasePermissionPolicy):
    """Every action for active superusers, none for anybody else (whatever their groups)."""

    def user_has_permission(self, user: Any, action: str) -> bool:
        return bool(user.is_active and user.is_superuser)

    def user_has_any_permission(self, user: Any, actions: Any) -> bool:
        return self.user_has_permission(user, "")

    def users_with_any_permission(self, actions: Any) -> QuerySet[Any]:
        return get_user_model().objects.filter(is_active=True, is_superuser=True)

    def users_with_permission(self, action: str) -> QuerySet[Any]:
        return self.users_with_any_permission([action])


for _model in (PeriodicTask, CrontabSchedule, IntervalSchedule):
    register_permission_policy(_model, SuperusersOnly(_model), exact_class=True)


class _SuperusersOnlyViewSet(ModelViewSet):
    add_to_settings_menu = True


class PeriodicTaskViewSet(_SuperusersOnlyViewSet):
    model = PeriodicTask
    icon = "time"
    name = "periodic_tasks"
    list_display = ["name", "task", "enabled", "interval", "crontab", "last_run_at"]
    list_filter = ["enabled"]
    search_fields = ["name", "task"]
    form_fields = ["name", "task", "enabled", "interval", "crontab", "kwargs", "one_off",
                   "start_time", "expires", "description"]


class CrontabScheduleViewSet(_SuperusersOnlyViewSet):
    model = CrontabSchedule
    icon = "date"
    name = "crontab_schedules"
    form_fields = ["minute", "hour", "day_of_month", "month_of_year", "day_of_week",
                   "timezone"]


class IntervalScheduleViewSet(_SuperusersOnlyViewSet):
    model = IntervalSchedule
    icon = "history"
    name = "interval_schedules"
    list_display = ["every", "period"]
    form_fields = ["every", "period"]

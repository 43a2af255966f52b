"""The federation's own domain. The account model lives here so that members link to it."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A login account. Sign-in is by email (django-allauth); the username is internal."""

    email = models.EmailField(_("email address"), unique=True)
    language = models.CharField(
        _("preferred language"),
        max_length=10,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text=_("Emails from the federation are written in this language."),
    )

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self) -> str:
        return self.get_full_name() or self.email

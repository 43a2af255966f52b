"""The shared kernel's one table: API token revocations the shared cache did not hear."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class UnheardTokenRevocation(models.Model):
    """A token revoked (its account deactivated, the token or account deleted) while the
    shared cache (Redis) could not be told to forget its cached authentication. The
    revocation itself is in the database, the source of truth; this row makes every
    process distrust what Redis may still hold for the key (core.tokens), until that
    entry has expired for sure."""

    key = models.CharField(_("key"), max_length=40, db_index=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("token revocation not heard by the cache")
        verbose_name_plural = _("token revocations not heard by the cache")

    def __str__(self) -> str:
        return f"{self.key[:6]}… {self.created_at:%Y-%m-%d %H:%M:%S}"

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulebookConfig(AppConfig):
    name = "rulebook"
    verbose_name = _("Rulebook")

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save
        from wagtail.signals import page_published, page_unpublished

        from rulebook.selectors import content_version_forget

        # Cached rulebook pages and API answers are keyed by the content version.
        for signal in (post_save, post_delete, page_published, page_unpublished):
            signal.connect(content_version_forget, dispatch_uid=f"rulebook_version_{id(signal)}")

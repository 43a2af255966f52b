from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ContentConfig(AppConfig):
    name = "content"
    verbose_name = _("Site content")

    def ready(self) -> None:
        from django.db.models.signals import post_delete
        from wagtail.models import Page
        from wagtail.signals import page_published, page_unpublished

        from content import (
            receivers,  # noqa: F401  (draft news after tournament signals)
            search_backends,
        )

        search_backends.backend_name()  # refuse a misconfigured search backend at startup
        page_published.connect(
            search_backends.on_page_published, dispatch_uid="content_search_published"
        )
        page_unpublished.connect(
            search_backends.on_page_removed, dispatch_uid="content_search_unpublished"
        )
        # Only pages: a post_delete receiver for every model would turn off Django's fast
        # delete everywhere. Deleting any page deletes its Page row (sender=Page).
        post_delete.connect(
            search_backends.on_page_removed, sender=Page, dispatch_uid="content_search_deleted"
        )

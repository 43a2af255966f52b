from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulebookConfig(AppConfig):
    name = "rulebook"
    verbose_name = _("Rulebook")

    def ready(self) -> None:
        from django.apps import apps
        from django.db.models.signals import post_delete, post_save
        from wagtail.models import Page
        from wagtail.signals import page_published, page_unpublished

        from rulebook.models import Fan, WorkedExample
        from rulebook.selectors import content_version_forget

        # Cached rulebook pages and API answers are keyed by the content version, which is
        # read from fans, worked examples and pages: a change of one of them forgets it.
        # Receivers are connected for these models only (a post_delete receiver for every
        # model would turn off Django's fast delete everywhere). A page's delete always
        # deletes its Page row (post_delete with sender=Page); its save is sent with the
        # specific class as sender.
        pages = [model for model in apps.get_models() if issubclass(model, Page)]
        for model in (Fan, WorkedExample, *pages):
            post_save.connect(
                content_version_forget, sender=model,
                dispatch_uid=f"rulebook_version_save_{model._meta.label_lower}",
            )
        for model in (Fan, WorkedExample, Page):
            post_delete.connect(
                content_version_forget, sender=model,
                dispatch_uid=f"rulebook_version_delete_{model._meta.label_lower}",
            )
        page_published.connect(content_version_forget, dispatch_uid="rulebook_version_published")
        page_unpublished.connect(
            content_version_forget, dispatch_uid="rulebook_version_unpublished"
        )

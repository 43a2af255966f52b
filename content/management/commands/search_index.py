"""Create the Elasticsearch indices and index every live, public page, and the site
search's fans, worked examples, players, clubs and tournaments. Safe to re-run.

manage.py search_index                  # create missing indices, (re)index all pages
manage.py search_index --rebuild        # fresh index per language, alias swapped at the end
manage.py search_index --language fr    # one language only
"""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from content.search_backends import (
    ELASTICSEARCH,
    ElasticsearchBackend,
    backend_name,
    site_languages,
)
from content.site_search import search_index_build

NOTICE_DATABASE = (
    "The search backend is the database (Wagtail keeps its index on save): nothing to do. "
    'Set SEARCH_BACKEND = "elasticsearch" and ELASTICSEARCH_URL to use Elasticsearch.'
)
ERROR_LANGUAGE = "Unknown language {language!r}; choose from: {choices}."


class Command(BaseCommand):
    help = "Build the Elasticsearch page indices (one per language) from the live pages."

    def add_arguments(self, parser):
        parser.add_argument(
            "--rebuild",
            action="store_true",
            help="Fill a new index and swap the alias to it, then delete the old index.",
        )
        parser.add_argument("--language", help="Only this language (for example: ru, zh-hans).")

    def handle(self, *args, rebuild=False, language=None, **options):
        if backend_name() != ELASTICSEARCH:  # so that deployments can always run it
            self.stdout.write(NOTICE_DATABASE)
            return
        languages = site_languages()
        if language is not None:
            if language not in languages:
                raise CommandError(
                    ERROR_LANGUAGE.format(language=language, choices=", ".join(languages))
                )
            languages = [language]
        backend = ElasticsearchBackend(url=settings.ELASTICSEARCH_URL)
        for code in languages:
            report = backend.index_build(code, rebuild=rebuild, progress=self._progress)
            self.stdout.write(
                self.style.SUCCESS(
                    f"\r{code}: {report.indexed}/{report.total} pages indexed in {report.index}"
                )
            )

        if language is None:
            counts = search_index_build(rebuild=rebuild)
            for key, count in counts.items():
                self.stdout.write(self.style.SUCCESS(f"{key}: {count} documents indexed"))

    def _progress(self, language: str, done: int, total: int) -> None:
        if done == total or done % 50 == 0:
            self.stdout.write(f"{language}: {done}/{total}", ending="\r")
            self.stdout.flush()

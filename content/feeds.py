"""The Atom feed of one language's news (/<lang>/news/feed/)."""

from __future__ import annotations

import datetime

from django.contrib.syndication.views import Feed
from django.utils import timezone
from django.utils.feedgenerator import Atom1Feed

from content.news import FEED_ITEMS
from core.rules.typed_text import printable


class NewsFeed(Feed):
    """Texts pass ``printable``: a control character an old title still holds (Word's line
    break) cannot be written in XML and made the feed answer 500 (issue 37, item 11)."""

    feed_type = Atom1Feed

    def __init__(self, index) -> None:
        super().__init__()
        self.index = index

    def title(self) -> str:
        return printable(self.index.title)

    def link(self) -> str:
        return self.index.url

    def subtitle(self) -> str:
        return printable(self.index.intro)

    def feed_url(self) -> str:
        return f"{self.index.url}feed/"

    def items(self):
        return self.index.posts()[:FEED_ITEMS]

    def item_title(self, item) -> str:
        return printable(item.title)

    def item_description(self, item) -> str:
        return printable(item.summary)

    def item_link(self, item) -> str:
        return item.url

    def item_pubdate(self, item) -> datetime.datetime:
        return timezone.make_aware(datetime.datetime.combine(item.date, datetime.time(9)))

    def item_updateddate(self, item) -> datetime.datetime:
        return item.last_published_at or self.item_pubdate(item)

    def item_categories(self, item) -> list[str]:
        return [printable(str(item.get_tag_display()))]

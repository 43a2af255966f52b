"""Tournament pages, by subject (tournaments.urls)."""

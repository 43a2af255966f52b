"""The tournament API under /api/v1/, by subject (tournaments.api_urls)."""

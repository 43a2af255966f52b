"""``{{ seconds|clock }}``: a time left as h:mm:ss or mm:ss."""

from django import template

register = template.Library()


@register.filter
def clock(seconds: int) -> str:
    hours, rest = divmod(max(0, int(seconds)), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"

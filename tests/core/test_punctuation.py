"""Decision 0552: the marks a template puts between pieces follow the page's language
(issue 41: “小四喜, 字一色”, “Moscow, 俄罗斯”, “(5 号)” on Chinese pages)."""

from __future__ import annotations

import pytest
from django.template import engines
from django.utils import translation

TEMPLATE = (
    "{% for x in names %}{{ x }}{% if not forloop.last %}{% list_sep %}{% endif %}{% endfor %}|"
    "Moscow{% comma %}{{ country }}|a{% clause_sep %}b|"
    "{{ player }}{% filter in_parentheses %}{{ number }}{% endfilter %}|"
    "{{ label }}{% colon %}1|{{ unsafe|in_parentheses }}"
)


@pytest.mark.parametrize("language, expected", [
    ("en", "Pung, Kong|Moscow, Russia|a; b|Anna (No. 5)|Total: 1| (&lt;b&gt;)"),
    ("ru", "Pung, Kong|Moscow, Russia|a; b|Anna (No. 5)|Total: 1| (&lt;b&gt;)"),
    ("fr", "Pung, Kong|Moscow, Russia|a\u202f; b|Anna (No. 5)|Total\u00a0: 1| (&lt;b&gt;)"),
    ("zh-hans", "Pung、Kong|Moscow，Russia|a；b|Anna（No. 5）|Total：1|（&lt;b&gt;）"),
])
def test_separators_in_each_language(language, expected) -> None:  # type: ignore[no-untyped-def]
    template = engines["django"].from_string(TEMPLATE)
    with translation.override(language):
        html = template.render({"names": ["Pung", "Kong"], "country": "Russia",
                                "player": "Anna", "number": "No. 5", "label": "Total",
                                "unsafe": "<b>"})
    assert html == expected


def test_the_calculator_default_in_chinese() -> None:
    from core.templatetags.punctuation import in_parentheses

    with translation.override("zh-hans"):
        assert str(in_parentheses("默认")) == "（默认）"
    with translation.override("en"):
        assert str(in_parentheses("default")) == " (default)"

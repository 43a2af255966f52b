"""Issue 41, item 3: the calculator names the seats' winds in the page's language, and
flowers named in the URL stay in the Flowers box (and in the next Count)."""

from __future__ import annotations

import re
from html import unescape

import pytest

pytestmark = pytest.mark.django_db

HAND = "?rules=mcr&hand=%5B1111s%5D%5BEEEE%5DSSS7889m8m&self_drawn=1&seat=N&prevalent=W"


def payments_text(response) -> str:  # type: ignore[no-untyped-def]
    body = response.content.decode()
    start = body.index('id="calc-answer"')
    html = body[start:body.index("</section>", start)]
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


@pytest.mark.parametrize(("language", "winds"), [
    ("en", ["(N)", "(W)", "(S)", "(E)"]),
    ("zh-hans", ["(北)", "(西)", "(南)", "(东)"]),
    ("fr", ["(N)", "(O)", "(S)", "(E)"]),
    ("nl", ["(N)", "(W)", "(Z)", "(O)"]),
    ("ru", ["(С)", "(З)", "(Ю)", "(В)"]),
])
def test_the_payments_name_the_winds_in_the_pages_language(client, language, winds) -> None:  # type: ignore[no-untyped-def]
    text = payments_text(client.get(f"/{language}/calculator/{HAND}"))
    found = re.findall(r"\([^()\d]{1,2}\) [+-]\d+", text)
    assert [f.split(" ")[0] for f in found] == winds


def test_two_flowers_in_the_url_are_shown_and_sent_again(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/en/calculator/?rules=mcr&hand=123456789m123p55s&from=left&flowers=f1,s2")
    page = response.content.decode()
    select = page[page.index('id="calc-flowers"'):]
    select = select[:select.index("</select>")]
    assert re.findall(r'<option value="([^"]*)" selected>([^<]*)<', select) == [("f1,s2", "2 (f1, s2)")]
    assert "Flower Tiles" in payments_text(response)
    # the options before it are the counts 0-2, then the named flowers, then 3-8
    assert re.findall(r'<option value="([^"]*)"', select)[:4] == ["0", "1", "2", "f1,s2"]


def test_a_counted_number_of_flowers_is_selected_as_before(client) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/en/calculator/?rules=mcr&hand=123456789m123p55s&from=left&flowers=3").content.decode()
    assert '<option value="3" selected>' in page

"""The calculator page without JavaScript: the URL holds the question, the server answers."""

from __future__ import annotations

import re
from html import unescape

import pytest

from rulebook.scoring import score

pytestmark = pytest.mark.django_db

KONGS = "[1111s][EEEE]SSS7889m8m"
KONGS_URL = "/en/calculator/?rules=mcr&hand=%5B1111s%5D%5BEEEE%5DSSS7889m8m&self_drawn=1&seat=N&prevalent=W"


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def answer_html(response) -> str:  # type: ignore[no-untyped-def]
    body = response.content.decode()
    start = body.index('id="calc-answer"')
    return body[start:body.index("</section>", start)]


def test_a_hand_in_the_url_is_scored_by_the_server(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get(KONGS_URL)
    assert response.status_code == 200
    html = answer_html(response)
    expected = score(KONGS, self_drawn=True, seat="N", prevalent="W")
    assert f'data-total="{expected.total}"' in html and expected.total == 33
    text = text_of(html)
    assert "Two Concealed Kongs" in text and "Three Concealed Pungs" in text
    # payments of the four seats, with the winds of a winner sitting North
    assert "Winner (N) +123" in text
    assert "Left (W) -41" in text and "Opposite (S) -41" in text and "Right (E) -41" in text
    # the excluded fan and the rule that excluded it
    assert "Self-Drawn is not counted: Fully Concealed Hand implies it." in text
    # the fans link to their pages
    assert 'href="/en/rules/mcr/fans/48/"' in html
    # the form shows the question
    page = response.content.decode()
    assert 'value="[1111s][EEEE]SSS7889m8m"' in page
    assert re.search(r'<option value="N" selected>', page)


def test_fans_of_a_pure_straight_hand_say_what_it_implies(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/en/calculator/?rules=mcr&hand=123456789m123p55s&from=left")
    text = text_of(answer_html(response))
    assert "Pure Straight" in text
    assert "Pure Shifted Chows" not in text or "is not counted" in text


def test_a_bad_hand_shows_the_error_at_the_tile(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/en/calculator/?rules=mcr&hand=123m456p789s5s5s5s5s5s")
    html = answer_html(response)
    assert 'data-code="too_many_copies"' in html
    text = text_of(html)
    assert "There are only four copies of each tile." in text
    assert "This is the fifth" in text
    assert "<mark>5</mark>s" in html


def test_a_bad_meld_is_pointed_at_in_russian(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/ru/calculator/?rules=mcr&hand=%5B567p%2C4%5D123m456p789s5s5s")
    html = answer_html(response)
    assert 'data-code="malformed_meld"' in html
    assert "<mark>[567p,4]</mark>" in html
    assert "Meld 1" not in html  # translated


def test_thirteen_tiles_show_the_waits_with_their_scores(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/en/calculator/?rules=mcr&hand=1112345678999m&self_drawn=1")
    html = answer_html(response)
    text = text_of(html)
    assert "Waiting for 9 tiles" in text
    nine = score("1112345678999m9m", self_drawn=True)
    assert f"{nine.total} points" in text
    assert 'href="?rules=mcr&amp;hand=1112345678999m9m&amp;self_drawn=1"' in html


def test_the_plain_form_redirects_to_the_canonical_url(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/en/calculator/", {
        "form": "1", "rules": "mcr", "hand": "123m456p789s123s5s5s", "win": "left",
        "seat": "E", "prevalent": "S", "flowers": "0", "option": ["", "fan_48_points=6"],
    })
    assert response.status_code == 302
    assert response["Location"] == (
        "/en/calculator/?rules=mcr&hand=123m456p789s123s5s5s&from=left&prevalent=S"
        "&option=fan_48_points%3D6"
    )


def test_the_partial_answer_carries_the_canonical_query(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/en/calculator/", {
        "partial": "1", "form": "1", "rules": "mcr", "hand": "123m456p789s123s5s5s",
        "win": "self",
    })
    assert response.status_code == 200
    assert response["X-Calculator-Query"] == "rules=mcr&hand=123m456p789s123s5s5s&self_drawn=1"
    assert "<html" not in response.content.decode()
    assert 'data-total="' in response.content.decode()


def test_mcr_options_change_the_answer(client) -> None:  # type: ignore[no-untyped-def]
    base = "/en/calculator/?rules=mcr&hand=%5B1111s%2C1%5D%5BEEEE%5DSSS7889m8m&self_drawn=1"
    six = answer_html(client.get(base))
    five = answer_html(client.get(base + "&option=fan_57b_points%3D5"))
    total6 = int(re.search(r'data-total="(\d+)"', six).group(1))  # type: ignore[union-attr]
    total5 = int(re.search(r'data-total="(\d+)"', five).group(1))  # type: ignore[union-attr]
    assert total6 - total5 == 1
    page = client.get(base + "&option=fan_57b_points%3D5").content.decode()
    assert '<option value="fan_57b_points=5" selected>' in page


@pytest.mark.parametrize("rules", ["hkos", "red"])
def test_other_rulesets_have_their_conditions(client, rules: str) -> None:  # type: ignore[no-untyped-def]
    response = client.get(f"/en/calculator/?rules={rules}&hand=123m456p789s123s5s5s&from=left")
    page = response.content.decode()
    expected = score("123m456p789s123s5s5s", rules=rules, **{"from": "left"})
    assert f'data-total="{expected.total}"' in page
    if rules == "hkos":
        assert 'name="late_discard"' in page and 'name="liable"' in page
        assert 'name="kong_replacement"' in page
    else:
        assert 'name="players"' in page and 'name="kong_replacement"' not in page


def test_language_switcher_keeps_the_hand(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get(KONGS_URL)
    page = response.content.decode()
    links = re.findall(r'<a href="([^"]+)" hreflang="([^"]+)"', page)
    by_lang = {lang: unescape(href) for href, lang in links}
    assert by_lang["zh-hans"] == KONGS_URL.replace("/en/", "/zh-hans/")
    assert by_lang["ru"] == KONGS_URL.replace("/en/", "/ru/")
    zh = client.get(by_lang["zh-hans"])
    assert 'data-total="33"' in zh.content.decode()


def test_page_without_a_hand_invites_one(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/en/calculator/")
    assert response.status_code == 200
    assert "Build a hand" in response.content.decode()
    assert client.post("/en/calculator/").status_code == 405


def test_worked_example_links_open_in_the_calculator(client) -> None:  # type: ignore[no-untyped-def]
    from rulebook.links import calculator_url

    url = calculator_url("hkos", "123m456p789s123s5s5s", {
        "self_drawn": True, "seat": "S", "flowers": ["f2"], "options": {"fan31": True},
    }, "en")
    assert url == ("/en/calculator/?rules=hkos&hand=123m456p789s123s5s5s&self_drawn=1&seat=S"
                   "&flowers=f2&option=fan31%3D1")
    response = client.get(url)
    expected = score("123m456p789s123s5s5s", rules="hkos", self_drawn=True, seat="S",
                     flowers=["f2"], options=["fan31=1"])
    assert expected.ok
    assert f'data-total="{expected.total}"' in response.content.decode()
    empty = calculator_url("red", "123m456p789s123s5s5s", {"flowers": [], "seat": "E"}, "en")
    assert "flowers" not in empty

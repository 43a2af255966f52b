"""Tile names in the five languages, the display model of a hand and the template tags."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.staticfiles import finders
from django.template import Context, Template, TemplateSyntaxError
from django.utils import translation

from rulebook.scoring import arrangements, parse_hand
from rulebook.scoring.errors import NotationError
from rulebook.scoring.tiles import JOKER, NUM_ALL, parse_tile, tile_name
from rulebook.tile_display import hand_display, tile_label, tile_static_path, tile_token


@pytest.fixture(autouse=True)
def _english():
    """The site's default language is Russian; these tests read English unless they say."""
    with translation.override("en"):
        yield


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", ["5 Bamboo", "East Wind", "Red Dragon", "White Dragon", "Plum (Flower 1)",
                "Spring (Season 1)", "Joker", "1 Character", "9 Dots"]),
        ("ru", ["5 бамбуков", "Восточный ветер", "Красный дракон", "Белый дракон",
                "Слива (цветок 1)", "Весна (сезон 1)", "Джокер", "1 символ", "9 точек"]),
        ("zh-hans", ["5条", "东风", "红中", "白板", "梅（花牌1）", "春（季牌1）", "百搭",
                     "1万", "9饼"]),
        ("fr", ["5 Bambous", "Vent d’Est", "Dragon rouge", "Dragon blanc", "Prunier (fleur 1)",
                "Printemps (saison 1)", "Joker", "1 Caractère", "9 Cercles"]),
        ("nl", ["5 Bamboe", "Oostenwind", "Rode draak", "Witte draak", "Pruim (bloem 1)",
                "Lente (seizoen 1)", "Joker", "1 Karakter", "9 Cirkels"]),
    ],
)
def test_tile_labels_in_each_language(lang, expected):
    tokens = ["5s", "E", "C", "P", "f1", "s1", "J", "1m", "9p"]
    with translation.override(lang):
        assert [tile_label(t) for t in tokens] == expected
        assert tile_label(parse_tile("5s")) == expected[0]  # int or token


def test_every_tile_has_a_distinct_label_in_every_language():
    for lang in ("en", "ru", "zh-hans", "fr", "nl"):
        with translation.override(lang):
            labels = [tile_label(t) for t in range(NUM_ALL)]
        assert len(set(labels)) == NUM_ALL, lang


def test_token_and_static_path_name_existing_files():
    assert tile_token(22) == "5s"
    assert tile_static_path(22) == "tiles/5s.svg"
    assert tile_static_path("C") == "tiles/C.svg"
    for t in range(NUM_ALL):
        assert tile_token(t) == tile_name(t)
        assert finders.find(tile_static_path(t)), tile_static_path(t)
    assert finders.find("tiles/back.svg")
    assert finders.find("css/tiles.css")
    with pytest.raises(NotationError):
        tile_token("9z")


def test_hand_display_groups_in_the_books_order():
    d = hand_display("[123m,2][999s,3][EEEE][FFFF,1] 5p5p f2")
    assert d.complete
    assert [g.kind for g in d.groups] == [
        "melded_chow", "melded_pung", "concealed_kong", "melded_kong", "standing", "winning",
        "flowers",
    ]
    chow, pung, ckong, mkong, standing, winning, flowers = d.groups
    assert [t.token for t in chow.tiles] == ["1m", "2m", "3m"]
    assert chow.claimed_index == 1 and chow.tiles[1].rotated and chow.claimed_from == "left"
    assert pung.claimed_from == "right" and pung.claimed_index == 2 and pung.tiles[2].rotated
    assert [t.face_down for t in ckong.tiles] == [True, False, False, True]
    assert ckong.tiles[0].url == "/static/tiles/back.svg"
    assert ckong.tiles[1].url == "/static/tiles/E.svg"
    assert mkong.claimed_from == "left" and mkong.tiles[0].rotated
    assert [t.token for t in standing.tiles] == ["5p"]
    assert winning.tiles[0].winning and winning.tiles[0].token == "5p"
    assert [t.token for t in flowers.tiles] == ["f2"]
    assert d.label == (
        "Hand: Melded chow, 2 Characters claimed: 1 Character, 2 Characters, 3 Characters; "
        "Melded pung, from the player on the right: 9 Bamboo; Concealed kong: East Wind; "
        "Melded kong, from the player on the left: Green Dragon; Standing tiles: 5 Dots; "
        "Winning tile: 5 Dots; Flowers: Orchid (Flower 2)"
    )


def test_hand_display_promoted_kong_jokers_and_thirteen_tiles():
    promoted = hand_display("[PPPP,6]123m456p789sE E").groups[0]
    assert promoted.promoted and promoted.claimed_from == "opposite"
    assert promoted.claimed_index == 1
    assert promoted.label.startswith("Kong promoted from a melded pung, from the player opposite")

    d = hand_display("[5J5m,1][4J6m]123p45s6s6s f1 s3")
    assert not d.complete  # thirteen tiles: no winning tile yet
    pung, chow = d.groups[0], d.groups[1]
    assert [t.token for t in pung.tiles] == ["5m", "J", "5m"]
    assert pung.tiles[1].tile == JOKER and pung.tiles[1].stands_for == parse_tile("5m")
    assert pung.tiles[1].label == "Joker (as 5 Characters)"
    assert [t.token for t in chow.tiles] == ["4m", "J", "6m"]
    assert chow.claimed_index is None and not any(t.rotated for t in chow.tiles)
    assert [g.kind for g in d.groups][-1] == "flowers"
    assert [t.token for t in d.groups[-1].tiles] == ["f1", "s3"]
    assert "winning" not in [g.kind for g in d.groups]


def test_hand_display_with_an_arrangement_draws_the_concealed_sets():
    hand = parse_hand("123m456p789s EE 5s6s7s")
    arrangement = next(a for a in arrangements(hand) if a.form == "standard")
    d = hand_display(hand, arrangement=arrangement)
    kinds = sorted(g.kind for g in d.groups)
    assert kinds == ["concealed_chow"] * 4 + ["pair"]
    winning = [t for g in d.groups for t in g.tiles if t.winning]
    assert [t.token for t in winning] == ["7s"]


def test_hand_display_translates_and_reports_bad_hands():
    with translation.override("ru"):
        label = hand_display("[EEEE]123m456p789s1s 1s").label
    assert label.startswith("Рука: Закрытый конг: Восточный ветер;")
    assert "Выигрышная кость: 1 бамбук" in label
    with pytest.raises(NotationError) as err:
        hand_display("123m456p789s EE 5s6s7s9x")
    assert err.value.code == "unknown_tile"


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _render(source: str, **context: object) -> tuple[str, list[tuple[str, dict]]]:
    html = Template("{% load tiles %}" + source).render(Context(context))
    parser = _Tags()
    parser.feed(html)
    return html, parser.tags


def test_tile_tag_gives_an_img_with_alt_in_the_page_language():
    _html, tags = _render("{% tile t %}", t="5s")
    assert tags == [("img", {
        "class": "tile tile--medium", "src": "/static/tiles/5s.svg", "alt": "5 Bamboo",
        "title": "5 Bamboo", "width": "36", "height": "48", "data-tile": "5s",
        "loading": "lazy", "decoding": "async",
    })]
    with translation.override("zh-hans"):
        _, tags = _render('{% tile t size="small" %}', t=31)
    assert tags[0][1]["alt"] == "红中" and tags[0][1]["class"] == "tile tile--small"
    assert tags[0][1]["width"] == "24"
    _, tags = _render('{% tile "J" size="large" %}')
    assert tags[0][1]["src"] == "/static/tiles/J.svg" and tags[0][1]["width"] == "54"
    with pytest.raises(TemplateSyntaxError):
        _render('{% tile "J" size="huge" %}')


def test_hand_tiles_tag_draws_groups_with_claimed_concealed_winning_and_flowers():
    html, tags = _render("{% hand_tiles h %}", h="[123m,2][999s,3][EEEE][FFFF,1] 5p5p f2")
    outer = tags[0]
    assert outer[0] == "span" and outer[1]["role"] == "img"
    assert outer[1]["aria-label"].startswith("Hand: Melded chow, 2 Characters claimed")
    groups = [a for t, a in tags if t == "span" and "tile-group" in (a.get("class") or "")]
    assert [g["data-kind"] for g in groups] == [
        "melded_chow", "melded_pung", "concealed_kong", "melded_kong", "standing", "winning",
        "flowers",
    ]
    assert "tile-group--melded" in groups[0]["class"]
    assert groups[1]["data-claimed-from"] == "right"
    assert "tile-group--separated" in groups[-1]["class"]
    # the claimed tiles lie sideways: 2m of the chow, the right-most 9s, the left-most F
    rotated = re.findall(r'<span class="tile-rotated[^"]*"><img [^>]*data-tile="(\w+)"', html)
    assert rotated == ["2m", "9s", "F"]
    srcs = [a["src"] for t, a in tags if t == "img"]
    assert srcs[6:10] == ["/static/tiles/back.svg", "/static/tiles/E.svg",
                          "/static/tiles/E.svg", "/static/tiles/back.svg"]
    winning = [a for t, a in tags if t == "img" and "tile--winning" in a["class"]]
    assert [a["data-tile"] for a in winning] == ["5p"]
    assert srcs[-1] == "/static/tiles/f2.svg"
    assert len(srcs) == 3 + 3 + 4 + 4 + 1 + 1 + 1


def test_hand_tiles_tag_joker_in_red_notation_and_language():
    with translation.override("fr"):
        _html, tags = _render('{% hand_tiles h size="small" %}', h="[5J5m,1][4J6m]123p45s6s6s f1 s3")
    outer = tags[0][1]
    assert "hand-tiles--small" in outer["class"]
    assert "Joker (pour 5 Caractères)" in outer["aria-label"]
    assert outer["aria-label"].startswith("Main\u00a0: Pung exposé, pris au joueur de gauche")
    jokers = [a for t, a in tags if t == "img" and a["data-tile"] == "J"]
    assert len(jokers) == 2 and all("tile--joker" in a["class"] for a in jokers)
    assert all(a["width"] == "24" for t, a in tags if t == "img")


def test_hand_tiles_escapes_the_notation():
    # a hand string that reaches the tag from a query string is escaped, never injected
    with pytest.raises(NotationError):
        _render("{% hand_tiles h %}", h='<script>alert(1)</script>')
    html, _ = _render("{% hand_tiles h %}", h="123m456p789s EE 5s6s7s")
    assert 'data-notation="123m456p789s EE 5s6s7s"' in html

"""The one base of the import commands (core.import_command): import_members,
import_players and import_tournament share FILE, --mapping, --decisions, --dry-run and
--user, and answer a refused file the same way (its errors as JSON, exit status 1)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command, load_command_class

from core.import_command import ImportCommand
from federation.models import ImportRun
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db

TOURNAMENT = ["--name", "Kazan Cup 2023", "--ruleset", "mcr", "--start-date", "2023-10-07",
              "--end-date", "2023-10-08", "--city", "Kazan", "--country", "RU"]


def test_every_import_command_has_the_one_base():
    for app, name in (("federation", "import_members"), ("tournaments", "import_players"),
                      ("tournaments", "import_tournament")):
        assert isinstance(load_command_class(app, name), ImportCommand)


def test_the_shared_options_on_the_players_register(tmp_path, officer):
    Player.objects.create(name_latin="Anna Smit", first_name="Anna", last_name="Smit",
                          country="NL")
    path = tmp_path / "register.csv"
    path.write_text("Nummer;Last name;First name;Country\n4010001;Smit;Anna;NL\n")
    mapping = '{"Nummer": "ema_number"}'
    out = io.StringIO()
    call_command("import_players", str(path), "--mapping", mapping, "--dry-run", stdout=out)
    assert json.loads(out.getvalue())["review"][0]["row"] == 2
    call_command("import_players", str(path), "--mapping", mapping, "--decisions",
                 '{"2": "new"}', "--user", officer.email, stdout=io.StringIO())
    assert Player.objects.filter(ema_number="04010001").exclude(
        pk=Player.objects.order_by("pk").first().pk).exists()
    assert ImportRun.objects.get().created_by == officer
    for bad, words in ((["--mapping", "[1]"], "JSON object"),
                       (["--decisions", '{"x": "new"}'], "row numbers"),
                       (["--decisions", "{"], "not JSON"),
                       (["--user", "nobody@example.org"], "no user")):
        with pytest.raises(CommandError, match=words):
            call_command("import_players", str(path), *bad, stdout=io.StringIO())
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_players", str(tmp_path / "missing.csv"), stdout=io.StringIO())


def test_a_refused_file_prints_its_errors_and_imports_nothing(tmp_path, officer):
    path = tmp_path / "bad.csv"
    path.write_text("Place,First name,Last name,Score\nx,Anna,Smit,1\n")
    for command, extra in (("import_tournament", ["--user", officer.email, *TOURNAMENT]),
                           ("import_players", []), ("import_members", [])):
        out = io.StringIO()
        with pytest.raises(CommandError, match="nothing was imported"):
            call_command(command, str(path), *extra, stdout=out)
        assert json.loads(out.getvalue())["errors"], command
    assert not Tournament.objects.exists() and not ImportRun.objects.exists()


def test_the_tournament_command_takes_the_decisions(tmp_path, officer):
    known = Player.objects.create(name_latin="Li Wei", first_name="Li", last_name="Wei",
                                  country="CN")
    path = tmp_path / "kazan.csv"
    path.write_text("Rang,First name,Last name,Country,Score\n1,Li,Wei,CN,10\n2,Bo,Yang,CN,5\n")
    args = [str(path), "--user", officer.email, *TOURNAMENT, "--mapping", '{"Rang": "place"}']
    with pytest.raises(CommandError):
        call_command("import_tournament", *args, stdout=io.StringIO())  # Li Wei: who?
    call_command("import_tournament", *args, "--decisions", f'{{"2": {known.pk}}}',
                 stdout=io.StringIO())
    assert Tournament.objects.get().final_results.get(rank=1).player == known

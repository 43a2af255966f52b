"""The shape of the code, read from the folder layout with no list of modules to keep by
hand: no import cycle between the project's modules, each app imports only the apps below
it, and docs/architecture.md names only what exists.

The rules, each a test below:

- ``config/`` is the wiring (settings, urls, roles, the demo): **no module outside config
  imports config**. An app that imports ``config.anything`` fails
  ``test_no_app_imports_config``.
- ``core/`` is the shared kernel every app may use: **core imports no app**.
- An app imports downwards only (``BELOW``), and only config imports content.
- Every module under a ``rules/`` folder, and the scoring core ``rulebook/scoring/``, is
  **pure**: it imports no Django (nor Wagtail, DRF, allauth ...) and, of the project, only
  other pure modules. A ``from django.db import models`` planted under any ``rules/``
  folder fails ``test_pure_modules_import_no_django``.

``test_the_layer_checks_catch_planted_imports`` plants both faults in a scratch tree and
proves that the checks see them. The import tests read the source with ``ast``: every
``import`` counts, at module level or inside a function, because a cycle through a
function-level import is a cycle hidden, not broken. The document tests look each path up
in the tree and import each dotted name.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("config", "core", "federation", "rulebook", "content", "tournaments", "ratings")
SKIPPED_DIRS = {"migrations", "tests", "__pycache__"}
# what a pure module may not import: the web framework and everything built on it
FRAMEWORKS = {
    "django", "wagtail", "rest_framework", "allauth", "drf_spectacular", "modelcluster",
    "taggit", "payments", "django_countries", "phonenumber_field", "csp",
}


# --- the module graph -------------------------------------------------------------------


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the project's packages, by dotted name (a package by its __init__)."""
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root)
            if SKIPPED_DIRS.intersection(relative.parts[:-1]):
                continue
            parts = list(relative.with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _resolve_relative(module: str, is_package: bool, level: int, name: str | None) -> str:
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join([*base, name] if name else base)


def imported_modules(module: str, path: Path, known: set[str]) -> set[str]:
    """The project modules that ``module`` imports. ``from pkg import name`` imports the
    submodule ``pkg.name`` when there is one, else ``pkg`` itself; an import of ``a.b.c``
    counts as an edge to ``a.b.c`` only, not to the packages above it (their __init__
    files often re-export their submodules, which would read as false cycles)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()

    def add(target: str) -> None:
        # the longest prefix that is a project module: ``from a.b import Name`` is an edge
        # to ``a.b``, ``from a import b`` to ``a.b`` when that is a module
        parts = target.split(".")
        while parts:
            candidate = ".".join(parts)
            if candidate in known:
                found.add(candidate)
                return
            parts.pop()

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = _resolve_relative(module, is_package, node.level, node.module)
            else:
                base = node.module or ""
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                add(submodule if submodule in known else base)
    found.discard(module)
    return found


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    files = module_files(root)
    known = set(files)
    return {module: imported_modules(module, path, known) for module, path in files.items()}


def strongly_connected_components(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; returns the components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0

    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return sorted(components)


def a_cycle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One concrete cycle through the first module of a component (breadth-first, so the
    shortest one), to say in the failure which imports to look at."""
    members = set(component)
    start = component[0]
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & members):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [*reversed(path), start]
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    return component


def test_no_import_cycle():
    graph = import_graph()
    components = strongly_connected_components(graph)
    cycles = [
        " -> ".join(a_cycle(graph, component))
        + (f"  (component: {', '.join(component)})" if len(component) > 2 else "")
        for component in components
    ]
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_the_cycle_finder_finds_cycles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert strongly_connected_components(graph) == [["a", "b", "c"]]
    assert a_cycle(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]


# --- the layers -------------------------------------------------------------------------

# An app imports downwards only:
#
#   config (the wiring: settings, urls, api_urls, roles, the demo)
#     -> content -> ratings -> tournaments -> federation, rulebook
#     -> core (the shared kernel)
#
# federation and rulebook sit side by side and import neither each other nor anything
# above them. Every app may import core; core imports no app; nothing but config imports
# config. Pure modules (rules/ folders, rulebook/scoring/) import only pure modules.
BELOW = {
    "content": {"ratings", "tournaments", "federation", "rulebook"},
    "ratings": {"tournaments", "federation", "rulebook"},
    "tournaments": {"federation", "rulebook"},
    "federation": set(),
    "rulebook": set(),
    "core": set(),
}


def app(module: str) -> str:
    return module.split(".")[0]


def is_pure(module: str) -> bool:
    """A module under a ``rules`` package of an app, or in the scoring core."""
    parts = module.split(".")
    return "rules" in parts[1:] or parts[:2] == ["rulebook", "scoring"]


def imports_of_config(graph: dict[str, set[str]]) -> list[str]:
    return [
        f"{module} imports {target}"
        for module, targets in sorted(graph.items())
        if app(module) != "config"
        for target in sorted(targets)
        if app(target) == "config"
    ]


def imports_against_the_layers(graph: dict[str, set[str]]) -> list[str]:
    wrong = []
    for module, targets in sorted(graph.items()):
        source = app(module)
        if source not in BELOW:
            continue
        allowed = BELOW[source] | {source, "core"}
        wrong.extend(
            f"{module} imports {target}"
            for target in sorted(targets)
            if app(target) not in allowed
        )
    return wrong


def framework_imports(path: Path) -> list[str]:
    """The names of Django and the packages built on it that a file imports (absolute
    imports, anywhere in the file)."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.append(node.module or "")
    return [name for name in names if name.split(".")[0] in FRAMEWORKS]


def impure_imports(root: Path = ROOT) -> list[str]:
    """What the pure modules import that is not pure: Django and its kin, or a project
    module outside the pure folders."""
    files = module_files(root)
    graph = import_graph(root)
    wrong = []
    for module, path in sorted(files.items()):
        if not is_pure(module):
            continue
        wrong.extend(f"{module} imports {name}" for name in framework_imports(path))
        wrong.extend(
            f"{module} imports {target} (not pure)"
            for target in sorted(graph[module])
            if not is_pure(target)
        )
    return wrong


def test_no_app_imports_config():
    """config is the wiring; an app importing it would run the layers backwards."""
    wrong = imports_of_config(import_graph())
    assert not wrong, "modules outside config that import config:\n" + "\n".join(wrong)


def test_core_imports_no_app():
    graph = import_graph()
    wrong = [
        f"{module} imports {target}"
        for module, targets in sorted(graph.items())
        if app(module) == "core"
        for target in sorted(targets)
        if app(target) != "core"
    ]
    assert not wrong, "the shared kernel imports apps:\n" + "\n".join(wrong)


def test_apps_import_downwards_only():
    wrong = imports_against_the_layers(import_graph())
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_only_config_imports_content():
    graph = import_graph()
    importers = sorted(
        module
        for module, targets in graph.items()
        if app(module) not in ("content", "config")
        and any(app(target) == "content" for target in targets)
    )
    assert not importers, importers


def test_pure_modules_import_no_django():
    """Every module under a rules/ folder and in rulebook/scoring/ is pure."""
    assert any(is_pure(module) for module in module_files())
    wrong = impure_imports()
    assert not wrong, "pure modules that import what is not pure:\n" + "\n".join(wrong)


def test_the_layer_checks_catch_planted_imports(tmp_path):
    """A Django import planted under a rules/ folder, and an app importing config, are
    both found."""
    for package in PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "config" / "urls.py").write_text("")
    rules = tmp_path / "tournaments" / "rules"
    rules.mkdir()
    (rules / "__init__.py").write_text("")
    (rules / "entry_price.py").write_text("from decimal import Decimal\n")
    (rules / "ranking.py").write_text("def f():\n    from django.db import models\n")
    (rules / "lateness.py").write_text("from tournaments import models\n")
    (tmp_path / "tournaments" / "models.py").write_text("")
    (tmp_path / "federation" / "views.py").write_text("from config.urls import urlpatterns\n")
    (tmp_path / "core" / "cache.py").write_text("import federation.views\n")

    assert impure_imports(tmp_path) == [
        "tournaments.rules.lateness imports tournaments.models (not pure)",
        "tournaments.rules.ranking imports django.db",
    ]
    graph = import_graph(tmp_path)
    assert imports_of_config(graph) == ["federation.views imports config.urls"]
    assert imports_against_the_layers(graph) == [
        "core.cache imports federation.views",
        "federation.views imports config.urls",
    ]


def test_model_relations_point_downwards():
    """A foreign key is an import in the database: it follows the layers too (the user
    model excepted: it is named by settings.AUTH_USER_MODEL, whichever app holds it)."""
    from django.apps import apps
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    wrong = []
    for model in apps.get_models():
        source = model._meta.app_label
        if source not in BELOW:
            continue
        for field in model._meta.get_fields():
            target = field.related_model
            if target is None or target is user_model or not field.concrete:
                continue
            destination = target._meta.app_label
            if destination in PACKAGES and destination not in BELOW[source] | {source}:
                wrong.append(f"{model._meta.label}.{field.name} -> {target._meta.label}")
    assert not wrong, "relations against the layers:\n" + "\n".join(wrong)


# --- the architecture document ----------------------------------------------------------

ARCHITECTURE = ROOT / "docs" / "architecture.md"
# Where a path the document writes may be relative to: the repository, the scoring core
# (``mcr/table.py`` in its section) or an app (``scoring/`` under rulebook).
BASES = (ROOT, ROOT / "rulebook" / "scoring", *(ROOT / package for package in PACKAGES))
DOTTED = re.compile("(?:" + "|".join(PACKAGES) + r")(?:\.[A-Za-z_]\w*)+")
PATH_WORD = re.compile(r"[\w*-][\w.*-]*(?:/[\w.*-]+)*/?")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)


def _exists(path: Path, *, folder: bool) -> bool:
    """A folder (written ``name/``) must be one; ``hkos_*.json`` must match something."""
    if "*" in path.name:
        return any(path.parent.glob(path.name))
    return path.is_dir() if folder else path.exists()


def _path_words(text: str) -> list[str]:
    """The words of ``text`` written as paths: with a slash, or a ``.py`` file."""
    words = []
    for word in re.split(r"[\s,;]+", text):
        word = word.strip("():;,'\"")
        if word.startswith(("/", "<", "{")) or "://" in word:
            continue
        if PATH_WORD.fullmatch(word) and ("/" in word or word.endswith(".py")):
            words.append(word)
    return words


def _found_under(word: str, *bases: Path) -> bool:
    return any(_exists(base / word, folder=word.endswith("/")) for base in bases)


def prose_and_blocks(text: str) -> tuple[str, list[str]]:
    return FENCE.sub("", text), FENCE.findall(text)


def inline_spans(text: str) -> list[str]:
    prose, _blocks = prose_and_blocks(text)
    return [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", prose)]


def _columns(line: str) -> tuple[int, list[str], str]:
    """A layout line: its depth (two spaces a level), the names of its first column (up to
    two spaces) and the rest."""
    stripped = line.lstrip(" ")
    depth = (len(line) - len(stripped)) // 2
    first, _gap, rest = stripped.partition("  ")
    return depth, first.split(), rest


def _is_tree(block: str) -> bool:
    lines = [line for line in block.splitlines() if line.strip()]
    if not lines:
        return False
    _depth, names, _rest = _columns(lines[0])
    return all(PATH_WORD.fullmatch(name) and ("." in name or "/" in name) for name in names)


def missing_in_tree(block: str) -> list[str]:
    """Every name of a layout block and every path in its descriptions, checked against the
    folder the block puts it in (a description's paths: under the line's folder, its
    parent folder or the repository)."""
    missing = []
    folders: dict[int, Path] = {}  # depth -> the folder its lines are in
    for line in block.splitlines():
        if not line.strip():
            continue
        depth, names, rest = _columns(line)
        for deeper in [d for d in folders if d >= depth]:
            del folders[deeper]
        if depth == 0:
            parent = next((base for base in BASES if _found_under(names[0], base)), ROOT)
        else:
            parent = folders.get(depth - 1, ROOT)
        for name in names:
            if not _found_under(name, parent):
                slash = "/" if name.endswith("/") else ""
                missing.append(f"{(parent / name).relative_to(ROOT)}{slash}")
        here = parent
        if len(names) == 1 and names[0].endswith("/"):
            here = folders[depth] = parent / names[0]
        for word in _path_words(rest):
            if not _found_under(word, here, parent, *BASES):
                missing.append(f"{word} (in the description of {names[0]})")
        if len(names) == 1 and names[0].endswith(".py") and _found_under(names[0], parent):
            missing.extend(missing_in_module(parent / names[0], rest))
    return missing


SNAKE = re.compile(r"_?[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
CAMEL = re.compile(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+")


def missing_in_module(path: Path, description: str) -> list[str]:
    """The function and class names a layout line gives a module (``services.py
    tournament_submit, ...``, ``models.py  Player, Tournament ...``) are in that module."""
    words = []
    for word in description.split():
        word = word.strip("():;,'\"")
        if any(mark in word for mark in "./{%<"):
            continue
        if SNAKE.fullmatch(word) or CAMEL.fullmatch(word):
            words.append(word)
    if not words:
        return []
    relative = path.relative_to(ROOT).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    module = importlib.import_module(".".join(parts))
    return [f"{'.'.join(parts)}.{word}" for word in words if not hasattr(module, word)]


def missing_paths(text: str) -> list[str]:
    _prose, blocks = prose_and_blocks(text)
    missing = [
        word
        for span in inline_spans(text)
        for word in _path_words(span)
        if not _found_under(word, *BASES)
    ]
    for block in blocks:
        if _is_tree(block):
            missing.extend(missing_in_tree(block))
        else:
            missing.extend(w for w in _path_words(block) if not _found_under(w, *BASES))
    return sorted(set(missing))


def resolves(dotted: str) -> bool:
    """The longest prefix that is a module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        try:
            spec = importlib.util.find_spec(name)
        except ModuleNotFoundError:
            spec = None
        if spec is None:
            continue
        if cut == len(parts):
            return True
        target = importlib.import_module(name)
        for attribute in parts[cut:]:
            if not hasattr(target, attribute):
                return False
            target = getattr(target, attribute)
        return True
    return False


def missing_names(text: str) -> list[str]:
    spans = inline_spans(text)
    return sorted({span for span in spans if DOTTED.fullmatch(span) and not resolves(span)})


def rule_table_rows(text: str) -> list[tuple[str, list[str]]]:
    """The rows of "Where is the rule for ...": the file, and the names in the function
    column (bare names belong to that file; dotted ones are checked like any other)."""
    section = text.split("## Where is the rule for", 1)[1]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[1].startswith("`"):
            continue
        path = re.findall(r"`([^`]+)`", cells[1])[0]
        names = [name for name in re.findall(r"`([^`]+)`", cells[2]) if "." not in name]
        rows.append((path, names))
    return rows


def test_architecture_document_names_existing_paths():
    missing = missing_paths(ARCHITECTURE.read_text(encoding="utf-8"))
    assert not missing, (
        "docs/architecture.md names files (or names in them) that do not exist:\n"
        + "\n".join(missing)
    )


def test_architecture_document_names_every_model():
    """Each app's models are listed on its models.py line of the layout."""
    from django.apps import apps

    _prose, blocks = prose_and_blocks(ARCHITECTURE.read_text(encoding="utf-8"))
    layout = "\n".join(blocks)
    words = set(re.findall(r"\w+", layout))
    missing = sorted(
        model._meta.label
        for package in PACKAGES
        if package in {config.label for config in apps.get_app_configs()}
        for model in apps.get_app_config(package).get_models()
        if model.__name__ not in words
    )
    assert not missing, "models docs/architecture.md does not name:\n" + "\n".join(missing)


def test_architecture_document_names_existing_modules_and_functions():
    missing = missing_names(ARCHITECTURE.read_text(encoding="utf-8"))
    assert not missing, "docs/architecture.md names what does not exist:\n" + "\n".join(missing)


def test_every_rule_in_the_table_is_where_it_says():
    rows = rule_table_rows(ARCHITECTURE.read_text(encoding="utf-8"))
    assert len(rows) > 20
    missing = []
    for path, names in rows:
        if not path.endswith(".py") or not (ROOT / path).is_file():
            missing.append(path)
            continue
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        missing.extend(f"{path}: {name}" for name in names if not hasattr(module, name))
    assert not missing, "the rule table names what is not there:\n" + "\n".join(missing)


def test_the_document_checks_catch_what_does_not_exist():
    text = (
        "`content/models/` `rulebook/views.py` `mcr/table.py` "
        "`ratings.services.rating_period_close` `tournaments.services.tournament_submit`\n"
        "```\nratings/\n  services.py  tournament_accredit\n  importers.py\n"
        "federation/\n  services/  by subject\n    lifecycle.py\n"
        "  selectors.py  see docs/nothing.md\n```\n"
    )
    assert missing_paths(text) == [
        "content/models/",
        "docs/nothing.md (in the description of selectors.py)",
        "federation/services/lifecycle.py",
        "ratings.services.tournament_accredit",
        "ratings/importers.py",
        "rulebook/views.py",
    ]
    assert missing_names(text) == ["ratings.services.rating_period_close"]

"""The shape of the code: no import cycle between the project's modules, each app imports
only the apps below it, and docs/architecture.md names only what exists.

The import tests read the source with ``ast``: every ``import`` counts, at module level or
inside a function, because a cycle through a function-level import is a cycle hidden, not
broken. The document tests look each path up in the tree and import each dotted name.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("config", "federation", "rulebook", "content", "tournaments", "ratings")
SKIPPED_DIRS = {"migrations", "tests", "__pycache__"}


# --- the module graph -------------------------------------------------------------------


def module_files() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name (a package by its __init__)."""
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT)
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


def import_graph() -> dict[str, set[str]]:
    files = module_files()
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
#   config (urls, demo, roles, ...)
#     -> content -> ratings -> tournaments -> federation, rulebook
#     -> rulebook.scoring (pure: no Django, no other app)
#
# federation and rulebook sit side by side and import neither each other nor anything
# above them. config's leaf modules (the cache backend, the API's throttles and token
# authentication, the middleware, the health check, the admin's home page panels, the API
# schema hook, the PDFs' fonts) import no app, so every app may use them; config's other
# modules (urls, api_urls, demo, roles, settings ...) put the apps together and no app
# imports them.
BELOW = {
    "content": {"ratings", "tournaments", "federation", "rulebook", "rulebook.scoring"},
    "ratings": {"tournaments", "federation", "rulebook", "rulebook.scoring"},
    "tournaments": {"federation", "rulebook", "rulebook.scoring"},
    "federation": set(),
    "rulebook": {"rulebook.scoring"},
    "rulebook.scoring": set(),
}
CONFIG_LEAVES = {
    "config.admin_dashboard",
    "config.api_errors",
    "config.api_schema",
    "config.cache",
    "config.countries",
    "config.csv_export",
    "config.dates",
    "config.health",
    "config.middleware",
    "config.pagination",
    "config.pdf_fonts",
    "config.site_url",
    "config.throttles",
    "config.tokens",
}
# the config modules that import apps: they put the apps together
CONFIG_WIRING = {
    "config.apps",
    "config.demo",
    "config.management.commands.load_demo",
    "config.management.commands.setup_roles",
    "config.roles",
    "config.urls",
}


def layer(module: str) -> str:
    if module in CONFIG_LEAVES:
        return "config.leaf"
    if module == "rulebook.scoring" or module.startswith("rulebook.scoring."):
        return "rulebook.scoring"
    return module.split(".")[0]


def test_config_imports_apps_only_where_it_puts_them_together():
    graph = import_graph()
    wrong = [
        f"{module} imports {target}"
        for module, targets in sorted(graph.items())
        if layer(module) in ("config", "config.leaf") and module not in CONFIG_WIRING
        for target in sorted(targets)
        if layer(target) not in ("config", "config.leaf")
    ]
    assert not wrong, "config modules that should import no app:\n" + "\n".join(wrong)


def test_config_leaves_import_only_leaves():
    graph = import_graph()
    wrong = [
        f"{module} imports {target}"
        for module in sorted(CONFIG_LEAVES)
        for target in sorted(graph[module])
        if layer(target) != "config.leaf"
    ]
    assert not wrong, "config's leaf modules import more than leaves:\n" + "\n".join(wrong)


def test_apps_import_downwards_only():
    graph = import_graph()
    wrong = []
    for module, targets in sorted(graph.items()):
        source = layer(module)
        if source not in BELOW:
            continue
        allowed = BELOW[source] | {source}
        if source != "rulebook.scoring":
            allowed |= {"config.leaf"}
        wrong.extend(
            f"{module} imports {target}"
            for target in sorted(targets)
            if layer(target) not in allowed
        )
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_only_config_imports_content():
    graph = import_graph()
    importers = sorted(
        module
        for module, targets in graph.items()
        if layer(module) != "content" and any(layer(target) == "content" for target in targets)
    )
    assert set(importers) <= CONFIG_WIRING, importers


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


def test_the_scoring_core_imports_no_django():
    wrong = []
    for module, path in sorted(module_files().items()):
        if layer(module) != "rulebook.scoring":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and not node.level
                else []
            )
            wrong.extend(
                f"{module} imports {name}" for name in names if name.split(".")[0] == "django"
            )
    assert not wrong, "\n".join(wrong)


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
        "  dues.py  see docs/nothing.md\n```\n"
    )
    assert missing_paths(text) == [
        "content/models/",
        "docs/nothing.md (in the description of dues.py)",
        "federation/services/lifecycle.py",
        "ratings.services.tournament_accredit",
        "ratings/importers.py",
        "rulebook/views.py",
    ]
    assert missing_names(text) == ["ratings.services.rating_period_close"]

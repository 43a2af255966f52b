"""Fast constructors for the frozen, slotted dataclasses built for every scored hand.

A frozen dataclass's generated ``__init__`` stores each field with
``object.__setattr__(self, "name", value)``, a call through a slot wrapper per field. For
the small objects built for every hand (``Hand``, ``WinContext``, ``FanScore``,
``Evaluation``, ``ScoreResult``) that is a fifth of the scoring time: without these
constructors the benchmark hands cost 288,000 instructions each instead of 239,000
(``docs/decisions/0110-scoring-fast-constructors.md``).

:func:`slots_constructor` returns a function with the class's own signature (same
parameters, same defaults; mypy checks every call against the dataclass, through the
``ParamSpec``) that builds the instance as an instance of a *builder* class with the
same ``__slots__`` and no ``__setattr__`` of its own, so each field is a plain slot
store, and then sets the object's ``__class__`` to the dataclass (allowed: the two
classes have the same layout). The object is the one ``__init__`` would build (same
class, fields, equality, hash, repr, pickling). The function's source is generated from
the field names (that is what makes the stores plain), and checked at import.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar, cast

P = ParamSpec("P")
T = TypeVar("T")


def slots_constructor(cls: Callable[P, T]) -> Callable[P, T]:
    """A constructor of the frozen, slotted dataclass ``cls``, with its signature."""
    klass = cast(Any, cls)
    is_dataclass = dataclasses.is_dataclass(klass)
    assert is_dataclass and not hasattr(klass, "__post_init__")
    fields = dataclasses.fields(klass)
    names = [f.name for f in fields]
    assert tuple(getattr(klass, "__slots__", ())) == tuple(names), "slotted, in field order"
    assert all(f.default_factory is dataclasses.MISSING for f in fields), "no factories"
    builder = type(f"_{klass.__name__}Builder", (), {"__slots__": tuple(names)})
    env: dict[str, Any] = {"_builder": builder, "_cls": klass}
    params = []
    for f in fields:
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            env[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    body = "".join(f"    o.{name} = {name}\n" for name in names)
    source = (
        f"def make({', '.join(params)}):\n    o = _builder()\n{body}"
        "    o.__class__ = _cls\n    return o\n"
    )
    exec(source, env)  # the source is built from the field names only
    make: Callable[P, T] = env["make"]
    make.__doc__ = f"{klass.__name__}({', '.join(names)}), built without __setattr__."
    # the same signature as the class, and the same object as the class builds
    assert _parameters(make) == _parameters(klass)
    sample = cast(Any, make)(*range(len(names)))
    assert type(sample) is klass and sample == klass(*range(len(names)))
    return make


def _parameters(f: Any) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(f).parameters.values()]

"""Fast positional constructors for frozen, slotted dataclasses (hot paths only).

A frozen dataclass's generated ``__init__`` stores each field with
``object.__setattr__(self, "name", value)``, which looks the slot up by name on every
call; for the small result objects built for every scored hand this is a visible part of
the time. :func:`slots_constructor` returns a function that creates the instance with
``object.__new__`` and stores each value through the slot's own descriptor, bound once.
The object is the same as the one ``__init__`` would build (same class, same fields,
equality, hash, repr). Every field must be given, positionally and in declaration order,
and the class must have no ``__post_init__``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def slots_constructor(cls: type[T]) -> Callable[..., T]:
    assert dataclasses.is_dataclass(cls) and not hasattr(cls, "__post_init__")
    names = [f.name for f in dataclasses.fields(cls)]
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    for i, name in enumerate(names):
        env[f"_set{i}"] = vars(cls)[name].__set__  # the slot's member descriptor
    args = ", ".join(f"v{i}" for i in range(len(names)))
    body = "".join(f"    _set{i}(o, v{i})\n" for i in range(len(names)))
    source = f"def make({args}):\n    o = _new(_cls)\n{body}    return o\n"
    exec(source, env)  # the source is built from the field names only
    make: Callable[..., T] = env["make"]
    make.__doc__ = f"{cls.__name__}({', '.join(names)}), all fields positional."
    return make

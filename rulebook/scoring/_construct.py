"""Fast positional constructors for frozen, slotted dataclasses (hot paths only).

A frozen dataclass's generated ``__init__`` stores each field with
``object.__setattr__(self, "name", value)``, a call through a slot wrapper per field; for
the small result objects built for every scored hand this is a visible part of the time.

:func:`slots_constructor` returns a function that builds the instance as an instance of
a *builder* class with the same ``__slots__`` and no ``__setattr__`` of its own, so each
field is a plain slot store, and then sets the object's ``__class__`` to the dataclass
(allowed: the two classes have the same layout). The object is the same as the one
``__init__`` would build (same class, same fields, equality, hash, repr, pickling).
Every field must be given, positionally and in declaration order, and the class must
have no ``__post_init__``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def slots_constructor(cls: type[T]) -> Callable[..., T]:
    assert dataclasses.is_dataclass(cls) and not hasattr(cls, "__post_init__")
    names = [f.name for f in dataclasses.fields(cls)]
    slots = getattr(cls, "__slots__", ())
    assert tuple(slots) == tuple(names), "a slotted dataclass, slots in field order"
    builder = type(f"_{cls.__name__}Builder", (), {"__slots__": tuple(names)})
    env: dict[str, Any] = {"_builder": builder, "_cls": cls}
    args = ", ".join(f"v{i}" for i in range(len(names)))
    body = "".join(f"    o.{name} = v{i}\n" for i, name in enumerate(names))
    source = f"def make({args}):\n    o = _builder()\n{body}    o.__class__ = _cls\n    return o\n"
    exec(source, env)  # the source is built from the field names only
    make: Callable[..., T] = env["make"]
    make.__doc__ = f"{cls.__name__}({', '.join(names)}), all fields positional."
    # the builder makes the same object as the class itself
    sample = make(*range(len(names)))
    assert type(sample) is cls and all(
        getattr(sample, name) == i for i, name in enumerate(names)
    )
    return make

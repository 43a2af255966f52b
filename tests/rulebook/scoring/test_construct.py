"""The fast constructors build the very objects the dataclasses build, with their signature."""

from __future__ import annotations

import dataclasses
import inspect
import pickle

import pytest

from rulebook.scoring._construct import slots_constructor
from rulebook.scoring.result import FanScore, ScoreError, ScoreResult


def test_same_object_as_the_class() -> None:
    make = slots_constructor(ScoreResult)
    error = ScoreError.of("not_a_complete_hand")
    built = make("123m", "mcr", False, 0, error=error)
    expected = ScoreResult("123m", "mcr", False, 0, error=error)
    assert type(built) is ScoreResult
    assert built == expected and hash(built) == hash(expected) and repr(built) == repr(expected)
    assert pickle.loads(pickle.dumps(built)) == expected
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.total = 3  # type: ignore[misc]


def test_signature_is_the_class_signature() -> None:
    make = slots_constructor(FanScore)
    assert list(inspect.signature(make).parameters) == ["id", "points", "count", "sets"]
    assert make(id="3", points=88, count=1, sets=()) == FanScore("3", 88, 1, ())
    with pytest.raises(TypeError):
        make("3", 88)  # type: ignore[call-arg]


def test_classes_it_cannot_build_are_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    with pytest.raises(AssertionError):
        slots_constructor(NoSlots)

"""field_copier, the generated copy of a state's slots that the engines' clone starts from,
against the plain getattr/setattr loop."""

from __future__ import annotations

import pytest

from workbench.domain.engines.fields import field_copier


class _Slotted:
    __slots__ = ("a", "b", "_c")


def test_the_generated_copier_does_what_the_plain_loop_does() -> None:
    old, generated, plain = _Slotted(), _Slotted(), _Slotted()
    old.a, old.b, old._c = [1], {"x": 2}, None
    field_copier(_Slotted.__slots__)(old, generated)
    for name in _Slotted.__slots__:
        setattr(plain, name, getattr(old, name))
    assert [getattr(generated, n) for n in _Slotted.__slots__] == [getattr(plain, n) for n in _Slotted.__slots__]
    assert generated.a is old.a  # a copier shares values; clone copies what changes in place


def test_the_copier_refuses_a_name_that_is_not_an_identifier() -> None:
    with pytest.raises(ValueError, match="not a field name"):
        field_copier(["a", "b = 1; import os"])

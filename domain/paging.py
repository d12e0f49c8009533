"""One page of a list: which rows a read asks for, and those rows with the count of them all."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T", covariant=True)
U = TypeVar("U")


@dataclass(frozen=True, slots=True)
class Page:
    """``limit`` rows after the first ``offset``, in the list's stable order; no limit is every
    row (the services' own reads)."""

    limit: int | None = None
    offset: int = 0


EVERY_ROW = Page()


@dataclass(frozen=True, slots=True)
class Paged(Generic[T]):
    items: Sequence[T]
    total: int

    def map(self, convert: Callable[[T], U]) -> Paged[U]:
        return Paged(items=[convert(item) for item in self.items], total=self.total)

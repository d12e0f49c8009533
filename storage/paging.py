"""The one way a repository reads a page of a list: the rows after ``offset`` up to ``limit``,
and the count of every row the query matches."""

from __future__ import annotations

from typing import Any, TypeVar, TypeVarTuple, overload

from sqlalchemy import func
from sqlmodel import Session, select
from sqlmodel.sql.expression import Select, SelectOfScalar

from domain.paging import Page, Paged

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


@overload
def fetch_page(session: Session, query: SelectOfScalar[T], page: Page) -> Paged[T]: ...


@overload
def fetch_page(session: Session, query: Select[*Ts], page: Page) -> Paged[tuple[*Ts]]: ...


def fetch_page(session: Session, query: Any, page: Page) -> Paged[Any]:
    """``query`` must already be ordered by a stable key, so pages neither repeat nor skip rows."""
    rows = list(session.exec(query.offset(page.offset).limit(page.limit)).all())
    if (page.limit is None or len(rows) < page.limit) and (rows or page.offset == 0):
        # The last page: its rows are the count, no second query.
        return Paged(items=rows, total=page.offset + len(rows))
    counted = select(func.count()).select_from(query.order_by(None).subquery())
    return Paged(items=rows, total=session.exec(counted).one())

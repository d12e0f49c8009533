"""Every growing list is read a page at a time: limit and offset in, X-Total-Count and Link out."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from tests.helpers import assert_problem, bearer

CODES = ["A1", "B2", "C3", "D4", "E5"]


@pytest.fixture
def five_branches(client: TestClient, make_key: Callable[..., str]) -> None:
    union = bearer(make_key("union"))
    for code in CODES:
        answer = client.put(
            f"/api/v1/branches/{code}", json={"name": f"学院{code}", "member_count": 1}, headers=union
        )
        assert answer.status_code == 200, answer.text


@pytest.mark.usefixtures("five_branches")
def test_pages_of_two_cover_the_list_with_a_link_to_each_next(client: TestClient) -> None:
    pages = [client.get("/api/v1/branches", params={"limit": 2, "offset": offset}) for offset in (0, 2, 4)]
    assert [[row["code"] for row in page.json()] for page in pages] == [CODES[0:2], CODES[2:4], CODES[4:]]
    assert all(page.headers["X-Total-Count"] == "5" for page in pages)
    assert pages[0].headers["Link"] == '</api/v1/branches?offset=2&limit=2>; rel="next"'
    assert pages[1].headers["Link"] == '</api/v1/branches?offset=4&limit=2>; rel="next"'
    assert "Link" not in pages[2].headers


@pytest.mark.usefixtures("five_branches")
def test_following_the_links_reads_every_row_once(client: TestClient) -> None:
    url: str | None = "/api/v1/branches?limit=2"
    codes: list[str] = []
    while url is not None:
        page = client.get(url)
        codes += [row["code"] for row in page.json()]
        link = page.headers.get("Link")
        url = link[1 : link.index(">")] if link else None
    assert codes == CODES


@pytest.mark.usefixtures("five_branches")
def test_the_default_page_is_the_whole_short_list(client: TestClient) -> None:
    answer = client.get("/api/v1/branches")
    assert [row["code"] for row in answer.json()] == CODES
    assert answer.headers["X-Total-Count"] == "5"
    assert "Link" not in answer.headers


@pytest.mark.usefixtures("five_branches")
def test_an_offset_past_the_end_is_an_empty_page(client: TestClient) -> None:
    answer = client.get("/api/v1/branches", params={"offset": 7})
    assert answer.json() == []
    assert answer.headers["X-Total-Count"] == "5"
    assert "Link" not in answer.headers


@pytest.mark.parametrize(
    ("params", "field"),
    [({"limit": 0}, "query.limit"), ({"limit": 1001}, "query.limit"), ({"offset": -1}, "query.offset")],
)
@pytest.mark.parametrize("path", ["/api/v1/branches", "/api/v1/competitions"])
def test_a_page_outside_the_bounds_is_a_problem_naming_the_field(
    client: TestClient, path: str, params: dict[str, int], field: str
) -> None:
    body = assert_problem(client.get(path, params=params), 422, "request-validation")
    assert body["field"] == field

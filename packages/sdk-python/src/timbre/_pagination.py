"""Lists that iterate across pages: nothing is fetched until iterated, then one page at a time."""

from __future__ import annotations

from typing import Any, Callable, Dict, Generic, Iterator, List, Optional, Tuple, TypeVar

T = TypeVar("T")

#: Fetches one page given its number: ``(items, pagination)``.
PageFetcher = Callable[[int], Tuple[List[Any], Optional[Dict[str, Any]]]]


class Page(Generic[T]):
    """One page: ``data`` (the items) and ``pagination`` (``page``, ``limit``, ``total``, ``total_pages``)."""

    def __init__(self, data: List[T], pagination: Dict[str, Any]) -> None:
        self.data = data
        self.pagination = pagination

    def __repr__(self) -> str:
        return f"Page(data=<{len(self.data)} items>, pagination={self.pagination!r})"


class ListIterator(Generic[T]):
    """What every ``list()`` returns. Iterate it for every item of every page (``for dte in client.dte.list()``),
    call ``first_page()`` for one page with its totals, or ``pages()`` for page after page.

    Pages are fetched lazily starting at ``page`` (default 1), one request per page of ``limit`` items.
    """

    def __init__(self, fetch: PageFetcher, start_page: int = 1) -> None:
        self._fetch = fetch
        self._start_page = start_page

    def first_page(self) -> Page[T]:
        return self._page(self._start_page)

    def pages(self) -> Iterator[Page[T]]:
        number = self._start_page
        while True:
            page = self._page(number)
            yield page
            if not page.data or number >= int(page.pagination.get("total_pages", 0)):
                return
            number += 1

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from page.data

    def to_list(self, max_items: int = 10_000) -> List[T]:
        """Every item of every page, up to ``max_items``."""
        items: List[T] = []
        for item in self:
            if len(items) >= max_items:
                break
            items.append(item)
        return items

    def _page(self, number: int) -> Page[T]:
        data, pagination = self._fetch(number)
        count = len(data)
        return Page(data, pagination or {"page": 1, "limit": count, "total": count, "total_pages": 1})

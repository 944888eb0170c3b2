from __future__ import annotations

import urllib.parse
from typing import Any, Dict, Optional

from .._pagination import ListIterator
from .._transport import Transport


def seg(value: Any) -> str:
    """One path segment, escaped (an id can never walk to another route)."""
    return urllib.parse.quote(str(value), safe="")


class Resource:
    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        return self._transport.request(method, path, **kwargs)[0]

    def _list(self, path: str, filters: Dict[str, Any]) -> ListIterator[Any]:
        start = int(filters.get("page") or 1)

        def fetch(page: int) -> Any:
            return self._transport.request("GET", path, query={**filters, "page": page})

        return ListIterator(fetch, start)


def options(idempotency_key: Optional[str]) -> Dict[str, Any]:
    return {"idempotency_key": idempotency_key} if idempotency_key else {}

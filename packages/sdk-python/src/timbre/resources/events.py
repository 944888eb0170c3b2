from __future__ import annotations

from typing import Any, Dict, cast

from .._pagination import ListIterator
from ._base import Resource, seg


class Events(Resource):
    """Events and their webhook deliveries: ``/v1/events``."""

    def list(self, **filters: Any) -> ListIterator[Dict[str, Any]]:
        """Newest first; filter ``event`` (e.g. ``"dte.status_changed"``), ``page``, ``limit``."""
        return self._list("events", filters)

    def resend(self, id: str) -> Dict[str, Any]:
        """``POST /events/{id}/resend``: queues a new delivery now."""
        return cast(Dict[str, Any], self._call("POST", f"events/{seg(id)}/resend"))

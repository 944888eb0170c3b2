from __future__ import annotations

from typing import Any, Dict, Optional, cast

from .._pagination import ListIterator
from ..types import ApiKey
from ._base import Resource, options, seg


class Tokens(Resource):
    """API keys: ``/v1/tokens``."""

    def list(self, **filters: Any) -> ListIterator[ApiKey]:
        return self._list("tokens", filters)

    def create(self, body: Dict[str, Any], *, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """``{name, permissions, environment?, business_id?}``; the answer's ``key`` is shown only here."""
        return cast(Dict[str, Any], self._call("POST", "tokens", json_body=body, **options(idempotency_key)))

    def revoke(self, id: str) -> Dict[str, Any]:
        """``DELETE /tokens/{id}``: the key stops working at once."""
        return cast(Dict[str, Any], self._call("DELETE", f"tokens/{seg(id)}"))

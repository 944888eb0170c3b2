from __future__ import annotations

import base64
from typing import Any, Dict, Optional, cast

from .._pagination import ListIterator
from ..types import Business
from ._base import Resource, options, seg


class Businesses(Resource):
    """Businesses (issuers): ``/v1/businesses``."""

    def list(self, **filters: Any) -> ListIterator[Business]:
        """``GET /businesses`` (an API key sees only its own business)."""
        return self._list("businesses", filters)

    def create(self, body: Dict[str, Any], *, idempotency_key: Optional[str] = None) -> Business:
        """``POST /businesses``; with ``webhook_url`` the answer carries ``webhook_secret`` this once."""
        return cast(Business, self._call("POST", "businesses", json_body=body, **options(idempotency_key)))

    def retrieve(self, id: str) -> Business:
        return cast(Business, self._call("GET", f"businesses/{seg(id)}"))

    def update(self, id: str, body: Dict[str, Any]) -> Business:
        """``PUT /businesses/{id}``: partial update; setting ``webhook_url`` the first time returns ``webhook_secret``."""
        return cast(Business, self._call("PUT", f"businesses/{seg(id)}", json_body=body))

    def delete(self, id: str) -> Dict[str, Any]:
        """``DELETE /businesses/{id}``: soft delete; its keys are revoked, its documents kept."""
        return cast(Dict[str, Any], self._call("DELETE", f"businesses/{seg(id)}"))

    def upload_certificate(self, id: str, *, pfx: bytes, password: str) -> Business:
        """``POST /businesses/{id}/certificate``: the PKCS#12 file's bytes and its password (not stored)."""
        body = {"pfx_base64": base64.b64encode(pfx).decode("ascii"), "password": password}
        return cast(Business, self._call("POST", f"businesses/{seg(id)}/certificate", json_body=body))

    def rotate_webhook_secret(self, id: str) -> Dict[str, Any]:
        """``POST /businesses/{id}/webhook-secret``: ``{"webhook_secret": "whsec_…"}``; the old one signs for 24 h."""
        return cast(Dict[str, Any], self._call("POST", f"businesses/{seg(id)}/webhook-secret"))

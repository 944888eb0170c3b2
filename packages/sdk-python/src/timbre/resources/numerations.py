from __future__ import annotations

from typing import Any, Optional, cast

from .._pagination import ListIterator
from ..types import Numeration
from ._base import Resource, options, seg


class Numerations(Resource):
    """Folio ranges (CAFs): ``/v1/businesses/{id}/numerations`` and ``/v1/numerations/{id}``."""

    def list(self, business_id: str, **filters: Any) -> ListIterator[Numeration]:
        """Filters ``tipo``, ``estado``, ``page``, ``limit``."""
        return self._list(f"businesses/{seg(business_id)}/numerations", filters)

    def create(self, business_id: str, caf_xml: str, *, idempotency_key: Optional[str] = None) -> Numeration:
        """Uploads a CAF (its XML text as the SII issued it)."""
        path = f"businesses/{seg(business_id)}/numerations"
        return cast(Numeration, self._call("POST", path, json_body={"caf_xml": caf_xml}, **options(idempotency_key)))

    def retrieve(self, id: str) -> Numeration:
        return cast(Numeration, self._call("GET", f"numerations/{seg(id)}"))


class SandboxNumerations(Resource):
    def create(self, *, tipo: int, cantidad: int, idempotency_key: Optional[str] = None) -> Numeration:
        """``POST /sandbox/numerations``: a CAF issued by the sandbox SII (server in ``SII_MODE=sandbox`` only)."""
        body = {"tipo": tipo, "cantidad": cantidad}
        return cast(Numeration, self._call("POST", "sandbox/numerations", json_body=body, **options(idempotency_key)))


class Sandbox:
    def __init__(self, numerations: SandboxNumerations) -> None:
        self.numerations = numerations

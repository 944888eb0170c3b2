from __future__ import annotations

import time
from typing import Any, Dict, List, Optional, cast

from .._errors import TimbreError
from .._pagination import ListIterator
from ..types import AnyEmitRequest, Dte, DteDetail, DteStatus
from ._base import Resource, options, seg

FINAL_STATES = ("ACEPTADO", "ACEPTADO_CON_REPAROS", "RECHAZADO")


class DteResource(Resource):
    """Electronic tax documents: ``/v1/dte``."""

    def emit(self, body: AnyEmitRequest, *, idempotency_key: Optional[str] = None) -> Dte:
        """``POST /dte/emit``: validate, take a folio, sign, send to the SII. Retries reuse one idempotency key."""
        return cast(Dte, self._call("POST", "dte/emit", json_body=body, **options(idempotency_key)))

    def batch(self, documents: List[AnyEmitRequest], *, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """``POST /dte/batch``: up to 500 documents; ``{"results": [{index, success, data?, error?}]}``."""
        return cast(Dict[str, Any], self._call("POST", "dte/batch", json_body={"documents": documents}, **options(idempotency_key)))

    def batch_preview(self, documents: List[AnyEmitRequest]) -> Dict[str, Any]:
        """``POST /dte/batch/preview``: checks and totals of a batch; consumes no folio."""
        return cast(Dict[str, Any], self._call("POST", "dte/batch/preview", json_body={"documents": documents}))

    def preview(self, body: AnyEmitRequest) -> Dict[str, Any]:
        """``POST /dte/preview``: ``{totals, xml_preview}``; consumes no folio, stores nothing."""
        return cast(Dict[str, Any], self._call("POST", "dte/preview", json_body=body))

    def preview_pdf(self, body: AnyEmitRequest) -> bytes:
        """``POST /dte/preview?format=pdf``: a PDF marked "SIN VALIDEZ TRIBUTARIA"."""
        return cast(bytes, self._call("POST", "dte/preview", query={"format": "pdf"}, json_body=body, raw=True))

    def list(self, **filters: Any) -> ListIterator[Dte]:
        """``GET /dte``, newest first; filters ``tipo``, ``desde``, ``hasta``, ``estado``, ``folio``, ``receptor_rut``,
        ``page``, ``limit``. Iterating walks every page."""
        return self._list("dte", filters)

    def summary(self, *, desde: str, hasta: str) -> Dict[str, Any]:
        """``GET /dte/resumen``: sales per tipo between two tax dates."""
        return cast(Dict[str, Any], self._call("GET", "dte/resumen", query={"desde": desde, "hasta": hasta}))

    def retrieve(self, id: str) -> DteDetail:
        """``GET /dte/{id}``: the document with items, references and history."""
        return cast(DteDetail, self._call("GET", f"dte/{seg(id)}"))

    def status(self, id: str, *, refresh: Optional[bool] = None) -> DteStatus:
        """``GET /dte/{id}/status``; ``refresh=True`` asks the SII now."""
        return cast(DteStatus, self._call("GET", f"dte/{seg(id)}/status", query={"refresh": refresh}))

    def acceptance(self, id: str, *, refresh: Optional[bool] = None) -> Dict[str, Any]:
        """``GET /dte/{id}/aceptacion``: the receiver's decision in the SII's registry."""
        return cast(Dict[str, Any], self._call("GET", f"dte/{seg(id)}/aceptacion", query={"refresh": refresh}))

    def pdf(self, id: str, *, formato: Optional[str] = None, cedible: Optional[bool] = None) -> bytes:
        """``GET /dte/{id}/pdf``: ``formato="carta"`` (default) or ``"termica"``; ``cedible=True`` for the copy."""
        return cast(bytes, self._call("GET", f"dte/{seg(id)}/pdf", query={"formato": formato, "cedible": cedible}, raw=True))

    def xml(self, id: str, *, envio: Optional[bool] = None) -> bytes:
        """``GET /dte/{id}/xml``: the exact signed bytes (ISO-8859-1); ``envio=True`` for the whole envelope."""
        return cast(bytes, self._call("GET", f"dte/{seg(id)}/xml", query={"envio": envio}, raw=True))

    def anular(self, id: str, body: Optional[Dict[str, Any]] = None, *, idempotency_key: Optional[str] = None) -> Dte:
        """``POST /dte/{id}/anular``: issues the credit note that annuls the document."""
        return cast(Dte, self._call("POST", f"dte/{seg(id)}/anular", json_body=body or {}, **options(idempotency_key)))

    def enviar(self, id: str, *, email: Optional[str] = None, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """``POST /dte/{id}/enviar``: sends the document (again) to its receiver or to ``email``."""
        body = {"email": email} if email else {}
        return cast(Dict[str, Any], self._call("POST", f"dte/{seg(id)}/enviar", json_body=body, **options(idempotency_key)))

    def wait_for_final_status(self, id: str, *, interval: float = 2.0, timeout: float = 120.0) -> DteStatus:
        """Polls ``status(refresh=True)`` until ``ACEPTADO``, ``ACEPTADO_CON_REPAROS`` or ``RECHAZADO``."""
        deadline = time.monotonic() + timeout
        while True:
            current = self.status(id, refresh=True)
            if current.get("estado") in FINAL_STATES:
                return current
            if time.monotonic() + interval > deadline:
                raise TimbreError(
                    f"Document {id} is still {current.get('estado')} after {timeout} s; check again later with dte.status().",
                    code="WAIT_TIMEOUT",
                    details={"estado": current.get("estado")},
                )
            time.sleep(interval)

from __future__ import annotations

import secrets
from typing import Any, Dict, Optional, Union, cast

from .._pagination import ListIterator
from ._base import Resource, options, seg


class Received(Resource):
    """Documents suppliers sent the business (API §12): ``/v1/received``."""

    def create(self, xml: Union[str, bytes], *, reply_to: Optional[str] = None, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """Imports an ``EnvioDTE``: ``{"results": [{index, success, data?, duplicate?, error?}]}``.

        ``bytes`` (a file as saved from the mail, ISO-8859-1 included) go byte for byte, as ``application/xml`` or,
        with ``reply_to``, a multipart form; ``str`` goes as JSON text.
        """
        opts = options(idempotency_key)
        if isinstance(xml, str):
            body: Dict[str, Any] = {"xml": xml, **({"reply_to": reply_to} if reply_to else {})}
            return cast(Dict[str, Any], self._call("POST", "received", json_body=body, **opts))
        if not reply_to:
            return cast(Dict[str, Any], self._call("POST", "received", body=xml, content_type="application/xml", **opts))
        boundary = "timbre-" + secrets.token_hex(16)
        form = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="envio.xml"\r\nContent-Type: application/xml\r\n\r\n'.encode()
            + xml
            + f'\r\n--{boundary}\r\nContent-Disposition: form-data; name="reply_to"\r\n\r\n{reply_to}\r\n--{boundary}--\r\n'.encode()
        )
        return cast(Dict[str, Any], self._call("POST", "received", body=form, content_type=f"multipart/form-data; boundary={boundary}", **opts))

    def list(self, **filters: Any) -> ListIterator[Dict[str, Any]]:
        """Filters ``emisor_rut``, ``tipo``, ``estado``, ``desde``, ``hasta``, ``page``, ``limit``."""
        return self._list("received", filters)

    def inbox(self, **filters: Any) -> ListIterator[Dict[str, Any]]:
        """Messages that could not be imported, with the reason (kept 30 days)."""
        return self._list("received/inbox", filters)

    def retrieve(self, id: str) -> Dict[str, Any]:
        return cast(Dict[str, Any], self._call("GET", f"received/{seg(id)}"))

    def xml(self, id: str) -> bytes:
        return cast(bytes, self._call("GET", f"received/{seg(id)}/xml", raw=True))

    def pdf(self, id: str, *, formato: Optional[str] = None) -> bytes:
        return cast(bytes, self._call("GET", f"received/{seg(id)}/pdf", query={"formato": formato}, raw=True))

    def aceptar(self, id: str, body: Optional[Dict[str, Any]] = None, *, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """``{recibo_mercaderias?, recinto?}``: registers the acceptance and answers the sender."""
        path = f"received/{seg(id)}/aceptar"
        return cast(Dict[str, Any], self._call("POST", path, json_body=body or {}, **options(idempotency_key)))

    def reclamar(self, id: str, body: Dict[str, Any], *, idempotency_key: Optional[str] = None) -> Dict[str, Any]:
        """``{accion: "RCD" | "RFP" | "RFT", motivo}``: registers the claim and answers the sender."""
        path = f"received/{seg(id)}/reclamar"
        return cast(Dict[str, Any], self._call("POST", path, json_body=body, **options(idempotency_key)))

from __future__ import annotations

from typing import Any, Dict, cast

from ._base import Resource, seg


class Auth(Resource):
    """Users and sessions: ``/v1/auth`` (these POSTs carry no idempotency key: no credential scopes them)."""

    def register(self, *, email: str, password: str, nombre: str) -> Dict[str, Any]:
        body = {"email": email, "password": password, "nombre": nombre}
        return cast(Dict[str, Any], self._call("POST", "auth/register", json_body=body, idempotent=False))

    def login(self, *, email: str, password: str) -> Dict[str, Any]:
        body = {"email": email, "password": password}
        return cast(Dict[str, Any], self._call("POST", "auth/login", json_body=body, idempotent=False))

    def refresh(self, *, refresh_token: str) -> Dict[str, Any]:
        body = {"refresh_token": refresh_token}
        return cast(Dict[str, Any], self._call("POST", "auth/refresh", json_body=body, idempotent=False))

    def me(self) -> Dict[str, Any]:
        return cast(Dict[str, Any], self._call("GET", "auth/me"))


class Rut(Resource):
    def validate(self, rut: str) -> Dict[str, Any]:
        """``POST /rut/validate``: ``{valid, rut, formateado, dv_esperado}``."""
        return cast(Dict[str, Any], self._call("POST", "rut/validate", json_body={"rut": rut}))


class Issuers(Resource):
    """The SII's list of authorised electronic issuers (API §14): ``/v1/issuers``."""

    def retrieve(self, rut: str) -> Dict[str, Any]:
        """``GET /issuers/{rut}``: ``{rut, razon_social, resolucion, correo_intercambio}``; ``NotFoundError`` when not listed."""
        return cast(Dict[str, Any], self._call("GET", f"issuers/{seg(rut)}"))


class Health(Resource):
    def check(self) -> Dict[str, Any]:
        return cast(Dict[str, Any], self._call("GET", "health"))

"""Each refusal of the real server becomes the error class of what the caller does next."""

from __future__ import annotations

import uuid

import pytest
from support import SandboxServer, factura

import timbre
from timbre import AuthenticationError, ConflictError, PermissionDeniedError, Timbre


def test_an_unknown_key_is_an_authentication_error(server: SandboxServer) -> None:
    client = Timbre(api_key="sk_test_" + "x" * 32, base_url=server.base_url)
    with pytest.raises(AuthenticationError) as caught:
        client.dte.list().first_page()
    assert (caught.value.status, caught.value.code) == (401, "UNAUTHORIZED")
    assert caught.value.request_id and caught.value.request_id.startswith("req_")


def test_a_key_without_the_permission_is_a_permission_error(client: Timbre, server: SandboxServer) -> None:
    created = client.tokens.create({"name": "solo lectura", "permissions": ["dte:read"]})
    reader = Timbre(api_key=created["key"], base_url=server.base_url)
    try:
        with pytest.raises(timbre.PermissionError) as caught:
            reader.dte.emit(factura())
        assert isinstance(caught.value, PermissionDeniedError)
        assert (caught.value.status, caught.value.code) == (403, "FORBIDDEN")
        assert caught.value.required_permission == "dte:write"
    finally:
        assert client.tokens.revoke(created["id"])["revoked"] is True


def test_a_taken_email_is_a_conflict(server: SandboxServer) -> None:
    anonymous = Timbre(base_url=server.base_url)
    email = f"ana-{uuid.uuid4().hex[:8]}@example.com"
    anonymous.auth.register(email=email, password="una clave bien larga", nombre="Ana")
    with pytest.raises(ConflictError) as caught:
        anonymous.auth.register(email=email, password="una clave bien larga", nombre="Ana")
    assert (caught.value.status, caught.value.code) == (409, "CONFLICT")


def test_builtins_are_not_shadowed_by_star_imports() -> None:
    namespace: dict = {}
    exec("from timbre import *", namespace)  # noqa: S102
    assert "PermissionError" not in namespace and "ConnectionError" not in namespace
    assert timbre.PermissionError is PermissionDeniedError and timbre.ConnectionError is timbre.APIConnectionError

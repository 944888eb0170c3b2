"""The other resources, each called once against the real server: the paths, verbs and bodies are right."""

from __future__ import annotations

from support import SandboxServer, factura

from timbre import Timbre


def test_businesses_numerations_tokens_rut_health_and_me(client: Timbre, server: SandboxServer) -> None:
    assert [b["id"] for b in client.businesses.list()] == [server.business_id]
    assert client.businesses.retrieve(server.business_id)["rut"] == "76192083-9"
    numerations = list(client.numerations.list(server.business_id, tipo=33))
    assert numerations and all(n["tipo"] == 33 for n in numerations)
    assert client.numerations.retrieve(numerations[0]["id"])["id"] == numerations[0]["id"]
    issued = client.sandbox.numerations.create(tipo=33, cantidad=5)
    assert (issued["tipo"], issued["hasta"] - issued["desde"]) == (33, 4)
    assert any(key["business_id"] == server.business_id for key in client.tokens.list())
    assert client.rut.validate("76.192.083-9") == {**client.rut.validate("761920839"), "valid": True}
    issuer = client.issuers.retrieve("76.192.083-9")
    # in sandbox mode the list holds this Timbre's businesses with their intercambio addresses (the test server holds
    # more than one business of this RUT: the oldest is listed)
    assert issuer["rut"] == "76192083-9"
    own = client.businesses.retrieve(server.business_id)["intercambio"]["email"]
    assert issuer["correo_intercambio"].split("@")[1] == own.split("@")[1]
    assert client.health()["status"] == "ok"
    assert client.auth.me()["auth"]["type"] == "api_key"


def test_preview_status_summary_and_anular(client: Timbre) -> None:
    preview = client.dte.preview(factura(precio=1000))
    assert preview["totals"]["monto_total"] == 2380
    assert client.dte.preview_pdf(factura())[:5] == b"%PDF-"
    dte = client.dte.emit(factura())
    final = client.dte.wait_for_final_status(dte["id"], interval=0.2, timeout=60)
    assert final["estado"] == "ACEPTADO"
    note = client.dte.anular(dte["id"])
    assert note["tipo"] == 61 and note["monto_total"] == dte["monto_total"]
    assert client.dte.status(note["id"])["id"] == note["id"]
    summary = client.dte.summary(desde=dte["fecha"], hasta=dte["fecha"])
    assert isinstance(summary, dict) and summary


def test_dte_enviar_and_received(client: Timbre) -> None:
    from timbre import ConflictError, NotFoundError, ValidationError

    dte = client.dte.emit(factura())
    if client.dte.retrieve(dte["id"])["estado"] not in ("ACEPTADO", "ACEPTADO_CON_REPAROS"):
        try:
            client.dte.enviar(dte["id"])
            raise AssertionError("enviar before the SII accepted the document must be 409")
        except ConflictError as error:
            assert error.code == "CONFLICT"
    assert client.dte.wait_for_final_status(dte["id"], interval=0.2, timeout=60)["estado"] == "ACEPTADO"
    # the test environment mails only the inbound domain and MAIL_TEST_ALLOWLIST: answered at once, with the reason
    sent = client.dte.enviar(dte["id"], email="contabilidad@example.com")
    assert sent["estado"] == "SIN_CORREO" and sent["error"].startswith("SIN_CORREO")
    assert client.dte.retrieve(dte["id"])["intercambio"]["estado"] == "SIN_CORREO"
    try:
        client.received.create("<EnvioDTE>sin firma</EnvioDTE>")
        raise AssertionError("an unsigned envelope must be refused")
    except ValidationError as error:
        assert error.code == "ENVELOPE_INVALID"
    try:
        client.received.pdf("rcv_00000000000000000000000000")
        raise AssertionError("an unknown received document must be 404")
    except NotFoundError:
        pass
    try:
        client.issuers.retrieve("12345678-5")
        raise AssertionError("a RUT the SII's list does not hold must be 404")
    except NotFoundError:
        pass

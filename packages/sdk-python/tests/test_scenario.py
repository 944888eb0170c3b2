"""The scenario every SDK runs against the real server (issue 42): emit a factura, iterate a list across pages, a 404,
a validation error with its field errors, a retry after a dropped connection that emits once, and a real webhook
delivery verified (and a tampered one refused)."""

from __future__ import annotations

import json
import random
import time

import pytest
from support import DroppingProxy, SandboxServer, WebhookListener, factura, rut_with_dv

import timbre
from timbre import NotFoundError, Timbre, ValidationError, webhooks


def unique_rut() -> str:
    return rut_with_dv(random.randint(10_000_000, 29_999_999))


def test_emits_a_factura_and_downloads_its_pdf_and_xml(client: Timbre) -> None:
    dte = client.dte.emit(factura(precio=10000))

    assert dte["id"].startswith("dte_")
    assert dte["tipo"] == 33 and isinstance(dte["folio"], int)
    assert (dte["monto_neto"], dte["monto_iva"], dte["monto_total"]) == (20000, 3800, 23800)
    assert dte["estado"] in ("ENVIADO", "PENDIENTE", "ACEPTADO")
    assert client.last_response is not None and client.last_response.status in (201, 202)
    assert client.last_response.request_id and client.last_response.request_id.startswith("req_")
    assert client.dte.retrieve(dte["id"])["folio"] == dte["folio"]
    assert client.dte.pdf(dte["id"])[:5] == b"%PDF-"
    assert f"<Folio>{dte['folio']}</Folio>".encode() in client.dte.xml(dte["id"])


def test_list_iterates_across_pages(client: Timbre) -> None:
    rut = unique_rut()
    emitted = client.dte.batch([factura(rut, precio=1000 + n) for n in range(5)])
    assert all(result["success"] for result in emitted["results"])

    pages = list(client.dte.list(receptor_rut=rut, limit=2).pages())
    ids = [dte["id"] for dte in client.dte.list(receptor_rut=rut, limit=2)]

    assert [len(page.data) for page in pages] == [2, 2, 1]
    assert [page.pagination["page"] for page in pages] == [1, 2, 3]
    assert sorted(ids) == sorted(result["data"]["id"] for result in emitted["results"])
    assert client.dte.list(receptor_rut=rut, limit=2).first_page().pagination["total"] == 5


def test_an_unknown_document_is_not_found_with_status_and_code(client: Timbre) -> None:
    with pytest.raises(NotFoundError) as caught:
        client.dte.retrieve("dte_01aaaaaaaaaaaaaaaaaaaaaaaa")

    assert caught.value.status == 404
    assert caught.value.code == "NOT_FOUND"
    assert caught.value.request_id is not None and caught.value.request_id.startswith("req_")


def test_a_validation_error_carries_every_field_error(client: Timbre) -> None:
    body = factura()
    body["receptor"]["rut"] = "76192083-0"
    body["items"][0]["precio"] = -1
    del body["receptor"]["comuna"]

    with pytest.raises(ValidationError) as caught:
        client.dte.emit(body)

    error = caught.value
    assert (error.status, error.code) == (422, "VALIDATION_ERROR")
    reasons = {(issue["field"], issue["reason"]) for issue in error.errors}
    assert ("receptor.rut", "invalid_rut") in reasons
    assert ("receptor.comuna", "required") in reasons
    assert ("items[0].precio", "minimum") in reasons


def test_a_retry_after_a_dropped_connection_does_not_emit_twice(server: SandboxServer) -> None:
    proxy = DroppingProxy(server.base_url, drop=1)
    try:
        client = Timbre(api_key=server.api_key, base_url=proxy.base_url(), max_retries=2, initial_retry_delay=0.05)
        rut = unique_rut()

        dte = client.dte.emit(factura(rut))

        keys = proxy.idempotency_keys()
        assert len(keys) == 2 and keys[0] is not None and keys[0] == keys[1]
        assert client.last_response is not None and client.last_response.idempotent_replayed
        direct = Timbre(api_key=server.api_key, base_url=server.base_url)
        assert [d["id"] for d in direct.dte.list(receptor_rut=rut)] == [dte["id"]]
    finally:
        proxy.close()


def test_without_retries_a_dropped_connection_is_a_connection_error(server: SandboxServer) -> None:
    proxy = DroppingProxy(server.base_url, drop=1)
    try:
        client = Timbre(api_key=server.api_key, base_url=proxy.base_url(), max_retries=0)
        with pytest.raises(timbre.ConnectionError) as caught:
            client.dte.retrieve("dte_01aaaaaaaaaaaaaaaaaaaaaaaa")
        assert caught.value.code == "CONNECTION_ERROR" and caught.value.status is None
    finally:
        proxy.close()


def test_a_real_webhook_delivery_verifies_and_a_tampered_one_is_refused(client: Timbre, server: SandboxServer) -> None:
    listener = WebhookListener()
    try:
        business = client.businesses.update(server.business_id, {"webhook_url": listener.url})
        secret = business.get("webhook_secret") or client.businesses.rotate_webhook_secret(server.business_id)["webhook_secret"]
        assert secret.startswith("whsec_")
        client.dte.emit(factura(unique_rut()))

        body, headers = listener.deliveries.get(timeout=90)

        event = webhooks.verify(body, headers, secret)
        assert event["id"] == headers["webhook-id"] and event["event"].startswith("dte.")
        assert event["business_id"] == server.business_id
        tampered = body.replace(b'"test"', b'"live"')
        assert tampered != body
        with pytest.raises(webhooks.WebhookVerificationError):
            webhooks.verify(tampered, headers, secret)
        with pytest.raises(webhooks.WebhookVerificationError, match="too old"):
            webhooks.verify(body, headers, secret, now=int(headers["webhook-timestamp"]) + 301)
    finally:
        listener.close()


def test_events_list_with_their_deliveries_and_resend(client: Timbre, server: SandboxServer) -> None:
    client.dte.emit(factura(unique_rut()))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        events = client.events.list(event="dte.status_changed", limit=5).first_page().data
        if events:
            break
        time.sleep(0.5)
    assert events and events[0]["event"] == "dte.status_changed"
    assert isinstance(events[0]["deliveries"], list)
    listener = WebhookListener()  # a resend needs a webhook URL: a listener of this test's own
    try:
        client.businesses.update(server.business_id, {"webhook_url": listener.url})
        resent = client.events.resend(events[0]["id"])
        assert resent["id"] == events[0]["id"] and isinstance(resent["attempt"], int)
    finally:
        listener.close()
    json.dumps(events)  # plain dicts and lists all the way down

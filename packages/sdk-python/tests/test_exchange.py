"""The exchange against the real server: the supplier issues a factura to the tenant, the SII accepts it and the
supplier's delivery mails the tenant the EnvioDTE (kept by a loopback SMTP server); the tenant imports that file's
bytes (ISO-8859-1, never re-encoded), lists, accepts and claims."""

from __future__ import annotations

import glob
import os
import time
from typing import Any, Dict, List, Tuple

from support import SandboxServer, factura

from timbre import ConflictError, Timbre


def mailed_envelopes(server: SandboxServer, folio: int) -> List[bytes]:
    found = []
    for path in sorted(glob.glob(os.path.join(server.mail_dir, f"{server.intercambio_email}-*.xml"))):
        with open(path, "rb") as handle:
            content = handle.read()
        if f"<Folio>{folio}</Folio>".encode() in content:
            found.append(content)
    return found


def envelope_from_supplier(server: SandboxServer) -> Tuple[Dict[str, Any], bytes]:
    supplier = Timbre(api_key=server.supplier_api_key, base_url=server.base_url)
    body = factura("76192083-9")
    # the sandbox's list of issuers names the first-run business of that RUT: the tenant gets it as receptor.email
    body["receptor"]["email"] = server.intercambio_email
    dte = supplier.dte.emit(body)
    assert supplier.dte.wait_for_final_status(dte["id"], interval=0.2, timeout=60)["estado"] == "ACEPTADO"
    deadline = time.monotonic() + 30
    while not mailed_envelopes(server, dte["folio"]) and time.monotonic() < deadline:
        time.sleep(0.1)
    envelopes = mailed_envelopes(server, dte["folio"])
    assert envelopes, f"no EnvioDTE with folio {dte['folio']} was mailed to the tenant"
    return dict(dte), envelopes[0]


def test_received_bytes_imported_as_sent_then_accepted_and_claimed(client: Timbre, server: SandboxServer) -> None:
    dte, envelope = envelope_from_supplier(server)
    try:
        envelope.decode("utf-8")
        raise AssertionError("the envelope should hold ISO-8859-1 bytes")
    except UnicodeDecodeError:
        pass
    [result] = client.received.create(envelope)["results"]
    doc = result["data"]
    assert result["success"] and (doc["emisor"]["rut"], doc["folio"], doc["estado"]) == (server.supplier_rut, dte["folio"], "SIN_RESPUESTA")
    assert doc["verificacion"]["firma"] == "ok" and doc["plazo_hasta"] is not None
    [again] = client.received.create(envelope, reply_to="dte@proveedor.example")["results"]
    assert (again["duplicate"], again["data"]["id"]) == (True, doc["id"])
    assert doc["id"] in [d["id"] for d in client.received.list(emisor_rut=server.supplier_rut)]
    assert client.received.aceptar(doc["id"], {"recibo_mercaderias": True})["estado"] == "ACEPTADO"
    try:
        client.received.reclamar(doc["id"], {"accion": "RCD", "motivo": "tarde"})
        raise AssertionError("a decided document cannot be claimed")
    except ConflictError as error:
        assert error.status == 409

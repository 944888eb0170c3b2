"""Emit a factura electrónica (33), wait until the SII accepts or rejects it, and save its PDF and XML.

Run: TIMBRE_API_KEY=sk_test_… python3 emit_invoice.py   (TIMBRE_API_URL defaults to http://localhost:3000/v1)
Needs the `timbre` package: `pip install ../../packages/sdk-python` (or PYTHONPATH=../../packages/sdk-python/src).
"""

import os
import sys
from pathlib import Path

from timbre import Timbre, TimbreError, ValidationError
from timbre.types import EmitRequest

client = Timbre(
    api_key=os.environ.get("TIMBRE_API_KEY"),
    base_url=os.environ.get("TIMBRE_API_URL", "http://localhost:3000/v1"),
)
# The files go to OUT_DIR, by default `out/` beside this script (git-ignored), never the current folder.
out_dir = Path(os.environ.get("OUT_DIR") or Path(__file__).resolve().parent / "out")
out_dir.mkdir(parents=True, exist_ok=True)

invoice: EmitRequest = {  # a TypedDict: type checkers see a misspelt field or a missing one
    "tipo": 33,
    "receptor": {
        "rut": "76192083-9",
        "razon_social": "Cliente Ejemplo SpA",
        "giro": "Comercio al por menor",
        "direccion": "Av. Apoquindo 4500",
        "comuna": "Las Condes",
    },
    "items": [
        {"nombre": "Consultoría", "cantidad": 10, "precio": 45000, "unidad": "HORA"},
        {"nombre": "Licencia anual", "cantidad": 1, "precio": 120000, "descuento_porcentaje": 10},
    ],
    "forma_pago": 2,
}

try:
    dte = client.dte.emit(invoice)
    print(f"Emitted {dte['id']}: folio {dte['folio']}, total ${dte['monto_total']:,}, {dte['estado']}".replace(",", "."))

    final = client.dte.wait_for_final_status(dte["id"], interval=float(os.environ.get("POLL_INTERVAL_S", "3")))
    if final["estado"] == "RECHAZADO":
        print("The SII rejected the document:", final["sii"]["errores"], file=sys.stderr)
        sys.exit(1)
    pdf = out_dir / f"factura-{dte['folio']}.pdf"
    xml = out_dir / f"factura-{dte['folio']}.xml"
    pdf.write_bytes(client.dte.pdf(dte["id"]))
    xml.write_bytes(client.dte.xml(dte["id"]))  # keep the signed XML: it is the legal document
    print(f"{final['estado']}. Saved {pdf} and {xml}")
except ValidationError as error:
    print(f"Invalid request ({error.code}):", file=sys.stderr)
    for issue in error.errors:
        print(f"  {issue['field']}: {issue['reason']}", file=sys.stderr)
    sys.exit(1)
except TimbreError as error:
    print(f"{type(error).__name__} {error}", file=sys.stderr)
    sys.exit(1)

"""Standard Webhooks verification (and signing, for receivers' own tests) of Timbre's deliveries.

Headers ``webhook-id``, ``webhook-timestamp`` (unix seconds) and ``webhook-signature`` (``v1,<base64>``, several
space-separated during a secret rotation); the signature is HMAC-SHA256 over ``"<id>.<timestamp>.<raw body>"`` with
the bytes of the ``whsec_<base64>`` secret.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Dict, Mapping, Optional, Union

__all__ = ["WebhookVerificationError", "verify", "sign", "headers", "DEFAULT_TOLERANCE"]

#: Accepted distance between ``webhook-timestamp`` and now, in seconds.
DEFAULT_TOLERANCE = 300

Payload = Union[str, bytes, bytearray]


class WebhookVerificationError(Exception):
    """The signature, timestamp or body of a delivery is not acceptable: answer 400 and drop it."""


def verify(
    payload: Payload,
    headers: Mapping[str, Any],
    secret: str,
    *,
    tolerance: int = DEFAULT_TOLERANCE,
    now: Optional[float] = None,
) -> Dict[str, Any]:
    """Checks a delivery and returns its event as a dict. Pass the raw body exactly as received.

    ``headers`` is any mapping (a dict, ``http.client.HTTPMessage``, a framework's headers); names are matched
    case-insensitively. Raises :class:`WebhookVerificationError` on a missing header, a timestamp more than
    ``tolerance`` seconds old or ahead, or no matching signature. The comparison is timing-safe.
    """
    webhook_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not webhook_id or not timestamp or not signatures:
        raise WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature header.")
    if not timestamp.isdigit():
        raise WebhookVerificationError("Invalid webhook-timestamp header.")
    current = int(time.time() if now is None else now)
    sent = int(timestamp)
    if current - sent > tolerance:
        raise WebhookVerificationError("Webhook timestamp is too old.")
    if sent - current > tolerance:
        raise WebhookVerificationError("Webhook timestamp is in the future.")

    body = _bytes(payload)
    expected = _mac(secret, webhook_id, timestamp, body)
    matched = False
    for candidate in signatures.split(" "):
        version, _, value = candidate.partition(",")
        if version != "v1" or not value:
            continue
        try:
            given = base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            continue
        # Every candidate is compared, so the time taken does not tell which one matched.
        matched = hmac.compare_digest(given, expected) or matched
    if not matched:
        raise WebhookVerificationError("No matching webhook signature found.")
    try:
        event = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise WebhookVerificationError(f"The webhook body is not JSON: {error}") from error
    if not isinstance(event, dict):
        raise WebhookVerificationError("The webhook body is not a JSON object.")
    return event


def sign(webhook_id: str, timestamp: int, payload: Payload, secret: str) -> str:
    """The ``webhook-signature`` value (``v1,<base64>``) of a body, for receivers' own tests."""
    mac = _mac(secret, webhook_id, str(int(timestamp)), _bytes(payload))
    return "v1," + base64.b64encode(mac).decode("ascii")


def headers(webhook_id: str, timestamp: int, payload: Payload, secret: str) -> Dict[str, str]:
    """The three headers of a signed delivery, ready to send."""
    return {
        "webhook-id": webhook_id,
        "webhook-timestamp": str(int(timestamp)),
        "webhook-signature": sign(webhook_id, timestamp, payload, secret),
    }


def _mac(secret: str, webhook_id: str, timestamp: str, body: bytes) -> bytes:
    key = _secret_bytes(secret)
    return hmac.new(key, f"{webhook_id}.{timestamp}.".encode("utf-8") + body, hashlib.sha256).digest()


def _secret_bytes(secret: str) -> bytes:
    encoded = secret[len("whsec_"):] if secret.startswith("whsec_") else secret
    try:
        return base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError) as error:
        raise WebhookVerificationError("The webhook secret is not valid base64 after `whsec_`.") from error


def _bytes(payload: Payload) -> bytes:
    return payload.encode("utf-8") if isinstance(payload, str) else bytes(payload)


def _header(headers: Mapping[str, Any], name: str) -> Optional[str]:
    for key in headers.keys():
        if key.lower() == name:
            value = headers[key]
            return " ".join(value) if isinstance(value, (list, tuple)) else str(value)
    return None

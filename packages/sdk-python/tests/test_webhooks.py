"""Standard Webhooks verification with signatures made here (the real delivery is in test_scenario.py)."""

from __future__ import annotations

import base64
import time

import pytest

from timbre import webhooks
from timbre.webhooks import WebhookVerificationError

SECRET = "whsec_" + base64.b64encode(b"k" * 32).decode()
BODY = b'{"id":"evt_1","event":"dte.status_changed","data":{"folio":7}}'


def signed(at: int, secret: str = SECRET, body: bytes = BODY) -> dict:
    return webhooks.headers("evt_1", at, body, secret)


def test_a_signed_delivery_verifies_and_gives_the_event() -> None:
    assert webhooks.verify(BODY, signed(int(time.time())), SECRET)["data"] == {"folio": 7}


def test_header_names_are_matched_in_any_case_and_str_bodies_work() -> None:
    headers = {k.title(): v for k, v in signed(int(time.time())).items()}
    assert webhooks.verify(BODY.decode(), headers, SECRET)["id"] == "evt_1"


def test_any_of_several_signatures_may_match_during_a_rotation() -> None:
    now = int(time.time())
    other = "whsec_" + base64.b64encode(b"o" * 32).decode()
    headers = signed(now)
    headers["webhook-signature"] = f"{webhooks.sign('evt_1', now, BODY, other)} {headers['webhook-signature']}"
    assert webhooks.verify(BODY, headers, SECRET)["id"] == "evt_1"


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda h: h.update({"webhook-signature": "v1," + base64.b64encode(b"x" * 32).decode()}), "No matching"),
        (lambda h: h.update({"webhook-signature": "v2,abc"}), "No matching"),
        (lambda h: h.pop("webhook-id"), "Missing"),
        (lambda h: h.update({"webhook-timestamp": "soon"}), "Invalid webhook-timestamp"),
    ],
)
def test_bad_headers_are_refused(change, message: str) -> None:
    headers = signed(int(time.time()))
    change(headers)
    with pytest.raises(WebhookVerificationError, match=message):
        webhooks.verify(BODY, headers, SECRET)


def test_a_changed_body_or_another_secret_is_refused() -> None:
    headers = signed(int(time.time()))
    with pytest.raises(WebhookVerificationError):
        webhooks.verify(BODY.replace(b"7", b"8"), headers, SECRET)
    with pytest.raises(WebhookVerificationError):
        webhooks.verify(BODY, headers, "whsec_" + base64.b64encode(b"z" * 32).decode())


def test_timestamps_outside_five_minutes_are_refused() -> None:
    now = int(time.time())
    assert webhooks.verify(BODY, signed(now - 299), SECRET, now=now)
    with pytest.raises(WebhookVerificationError, match="too old"):
        webhooks.verify(BODY, signed(now - 301), SECRET, now=now)
    with pytest.raises(WebhookVerificationError, match="future"):
        webhooks.verify(BODY, signed(now + 301), SECRET, now=now)

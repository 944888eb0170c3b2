import { expect, test } from "bun:test";
import { imapErrorOf } from "./imap-errors.js";

test("IMAP failures map to the business object's fixed list", () => {
  const err = (fields: Record<string, unknown>) => Object.assign(new Error("x"), fields);
  expect(imapErrorOf(err({ authenticationFailed: true, serverResponseCode: "AUTHENTICATIONFAILED" }), "connect")).toBe("auth");
  expect(imapErrorOf(err({ code: "DEPTH_ZERO_SELF_SIGNED_CERT" }), "connect")).toBe("tls");
  expect(imapErrorOf(err({ code: "ERR_TLS_CERT_ALTNAME_INVALID" }), "connect")).toBe("tls");
  expect(imapErrorOf(err({ tlsFailed: true }), "connect")).toBe("tls"); // STARTTLS required, not offered
  expect(imapErrorOf(err({ code: "ECONNREFUSED" }), "connect")).toBe("unreachable");
  expect(imapErrorOf(err({ code: "GREETING_TIMEOUT" }), "connect")).toBe("unreachable");
  expect(imapErrorOf(err({ code: "NoConnection" }), "open")).toBe("unreachable");
  expect(imapErrorOf(err({ responseStatus: "NO", mailboxMissing: true }), "open")).toBe("mailbox");
  expect(imapErrorOf(err({ responseStatus: "NO" }), "open")).toBe("mailbox");
  expect(imapErrorOf(err({ responseStatus: "BAD" }), "fetch")).toBe("unreachable");
  expect(imapErrorOf("not even an error", "connect")).toBe("unreachable");
});

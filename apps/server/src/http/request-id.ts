import { newId } from "../ids.js";

/** Honours an incoming `Request-Id` of ≤ 64 safe characters, else mints `req_<ulid>`. */
export function requestIdFrom(headers: Headers): string {
  const incoming = headers.get("request-id")?.trim();
  if (incoming && incoming.length <= 64 && /^[A-Za-z0-9._:\-]+$/.test(incoming)) return incoming;
  return newId("request");
}

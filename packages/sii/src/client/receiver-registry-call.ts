import { buildReceiverRegistryRequest, type ReceiverRegistryOperation } from "../protocol/receiver-registry.js";
import type { ClientContext } from "./context.js";
import { sendHttp } from "./http.js";
import { readRegistryReturn } from "./parse-receiver-registry.js";
import { soapHeaders } from "./soap-call.js";

/**
 * Calls one operation of the registry of acceptances and claims (SOAP 1.1 document/literal, `SOAPAction: ""`) with
 * the DTE token as the `TOKEN` cookie, and returns the raw content of its `<return>`. Errors as
 * {@link readRegistryReturn}; timeouts and network failures as every call ({@link sendHttp}).
 *
 * @example
 * const inner = await callReceiverRegistry(ctx, token, "listarEventosHistDoc", { rutEmisor: "76354771", dvEmisor: "K", tipoDoc: "33", folio: "170" }, "listReceiverEvents");
 */
export async function callReceiverRegistry(
  ctx: ClientContext,
  token: string,
  service: ReceiverRegistryOperation,
  values: Readonly<Record<string, string>>,
  operation: string,
): Promise<string> {
  const body = new TextEncoder().encode(buildReceiverRegistryRequest(service, values));
  const answer = await sendHttp(
    ctx.fetch,
    {
      method: "POST",
      url: ctx.hosts.receiverRegistry,
      headers: soapHeaders(body.length, { Cookie: `TOKEN=${token}` }),
      body,
    },
    ctx.requestMs,
    operation,
    { readServerErrors: true },
  );
  return readRegistryReturn(answer, operation);
}

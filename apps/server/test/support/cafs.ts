/** CAFs for tests: genuine ones signed by the gateway's sandbox authority, and tampered variants. */
import { issueCaf } from "@timbre/core/caf";
import type { Harness } from "./harness.js";
import { chileToday } from "../../src/time.js";

export interface TestCafInput {
  rut?: string;
  tipo?: number;
  desde?: number;
  hasta?: number;
  fechaAutorizacion?: string;
  razonSocial?: string;
}

export async function sandboxAuthorityOf(h: Harness) {
  const authority = (await h.deps.sii()).sandboxAuthority;
  if (!authority) throw new Error("the harness is not in sandbox mode");
  return authority;
}

/** A CAF file (text) signed by the harness's sandbox authority. */
export async function sandboxCaf(h: Harness, input: TestCafInput = {}): Promise<string> {
  return issueCaf({
    authority: await sandboxAuthorityOf(h),
    rut: input.rut ?? "76192083-9",
    razonSocial: input.razonSocial ?? "Comercial Ejemplo SpA",
    tipo: input.tipo ?? 33,
    desde: input.desde ?? 1,
    hasta: input.hasta ?? 100,
    // today in Chile, as the SII dates a CAF (a UTC date is tomorrow there after 21:00)
    fechaAutorizacion: input.fechaAutorizacion ?? chileToday(new Date()),
  }).xml;
}

/** Replaces the `RSASK` of `xml` by the one of `other` (a genuine signature over a foreign key pair). */
export function swapPrivateKey(xml: string, other: string): string {
  const rsask = /<RSASK>[\s\S]*?<\/RSASK>/;
  const foreign = rsask.exec(other)?.[0];
  if (!foreign) throw new Error("no RSASK in the other CAF");
  return xml.replace(rsask, foreign);
}

export const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<AUTORIZACION><CAF version="1.0"><DA><RE>&lol3;</RE></DA></CAF></AUTORIZACION>`;

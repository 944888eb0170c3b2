/**
 * The documents of one verified envelope kept in a few statements, whatever their number (an envelope may hold up
 * to 2,000): verified ones already kept are found in one query and answered as duplicates, the rest inserted in one
 * statement, and the unverified copies a verified one supersedes marked in one more. Row by row, a 5 MiB envelope
 * held an embedded database's only connection (and the server's thread it runs on) for seconds.
 */
import { encodeLatin1, type ReceivedDte } from "@timbre/core";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Environment } from "../../db/api-keys.js";
import type { BusinessRow } from "../../db/businesses.js";
import { receivedDocuments, type ReceivedDocumentRow, type ReceivedState } from "../../db/received.js";
import type { Tx } from "../../db/tx.js";
import { newId } from "../../ids.js";
import { REGISTRY_TIPOS } from "./registry.js";

export interface KeepDocuments {
  business: BusinessRow;
  environment: Environment;
  documents: ReceivedDte[];
  at: Date;
  codEnvio: number;
  replyTo: string | null;
}

/** The state a newly kept document starts in. */
function initialState(d: ReceivedDte): ReceivedState {
  return REGISTRY_TIPOS.has(d.tipo) ? "SIN_RESPUESTA" : "NO_APLICA";
}

/** The DTE's bytes: ISO-8859-1 byte for byte when every character fits (the SII's encoding), else UTF-8 declared. */
function dteBytes(text: string): Uint8Array {
  // eslint-disable-next-line no-control-regex
  if (!/[^\u0000-\u00ff]/.test(text)) return encodeLatin1(text);
  return new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?>\n${text}`);
}

const keyOf = (d: { emisorRut: string; tipo: number; folio: number }): string => `${d.emisorRut}/${d.tipo}/${d.folio}`;
const docKey = (d: ReceivedDte): string => keyOf({ emisorRut: d.emisor.rut, tipo: d.tipo, folio: d.folio });

/** Inserted rows per statement: well under PostgreSQL's 65,535 parameters at ~26 columns a row. */
const ROWS_PER_INSERT = 1_000;

/** Keeps an envelope's documents; one `{ row, duplicate }` per document, in envelope order. */
export async function keepDocuments(tx: Tx, o: KeepDocuments): Promise<Array<{ row: ReceivedDocumentRow; duplicate: boolean }>> {
  const scope = and(eq(receivedDocuments.businessId, o.business.id), eq(receivedDocuments.environment, o.environment), eq(receivedDocuments.verified, true));
  const keptVerified = async (folios: number[]): Promise<Map<string, ReceivedDocumentRow>> => {
    if (folios.length === 0) return new Map();
    const rows = await tx.select().from(receivedDocuments).where(and(scope, inArray(receivedDocuments.folio, [...new Set(folios)])));
    return new Map(rows.map((r) => [keyOf(r), r]));
  };
  const verified = o.documents.filter((d) => d.verified);
  const already = await keptVerified(verified.map((d) => d.folio));
  const fresh = o.documents.filter((d) => !(d.verified && already.has(docKey(d))));
  const inserted = new Map<string, ReceivedDocumentRow>();
  for (let i = 0; i < fresh.length; i += ROWS_PER_INSERT) {
    const values = fresh.slice(i, i + ROWS_PER_INSERT).map((d) => {
      const { firma_variante, ...checks } = d.verificacion;
      return {
        id: newId("received"),
        businessId: o.business.id,
        environment: o.environment,
        emisorRut: d.emisor.rut,
        emisorRazonSocial: d.emisor.razonSocial,
        emisorGiro: d.emisor.giro,
        tipo: d.tipo,
        folio: d.folio,
        fecha: d.fecha,
        montoNeto: Math.trunc(d.montoNeto),
        montoExento: Math.trunc(d.montoExento),
        montoIva: Math.trunc(d.montoIva),
        montoTotal: Math.trunc(d.montoTotal),
        items: d.items,
        referencias: d.referencias,
        xml: dteBytes(d.xml),
        verified: d.verified,
        verificacion: { ...checks, ...(firma_variante ? { firma_variante } : {}) } as Record<string, string>,
        estado: initialState(d),
        eventos: [],
        recibidoAt: o.at,
        codEnvio: o.codEnvio,
        replyTo: o.replyTo,
        registryCheckAt: d.verified && REGISTRY_TIPOS.has(d.tipo) ? o.at : null,
        createdAt: o.at,
        updatedAt: o.at,
      };
    });
    // An envelope holds each (tipo, folio) once, so a key names one inserted row.
    for (const row of await tx.insert(receivedDocuments).values(values).onConflictDoNothing().returning()) inserted.set(keyOf(row), row);
  }
  // A verified document a concurrent import kept first: not inserted, answered as that one.
  const lost = fresh.filter((d) => !inserted.has(docKey(d)));
  const raced = await keptVerified(lost.map((d) => d.folio));
  const newlyVerified = [...inserted.values()].filter((r) => r.verified).map((r) => r.id);
  if (newlyVerified.length > 0) {
    await tx.execute(sql`
      update received_documents as old set superseded_by = new.id, updated_at = ${o.at.toISOString()}
      from received_documents as new
      where new.id in ${newlyVerified} and old.business_id = new.business_id and old.environment = new.environment
        and old.emisor_rut = new.emisor_rut and old.tipo = new.tipo and old.folio = new.folio
        and old.verified = false and old.superseded_by is null`);
  }
  return o.documents.map((d) => {
    const key = docKey(d);
    const mine = inserted.get(key);
    if (mine) return { row: mine, duplicate: false };
    return { row: (already.get(key) ?? raced.get(key))!, duplicate: true };
  });
}

/** Per-business answer numbers (`IdRespuesta`, `CodEnvio`), each counting from 1 (API.md §12). */
import { sql } from "drizzle-orm";
import { exchangeSequences } from "../../db/received.js";
import { rowsOf } from "../../db/rows.js";
import type { Executor } from "../../db/tx.js";

export async function nextSequence(tx: Executor, businessId: string, name: "id_respuesta" | "cod_envio"): Promise<number> {
  const result = await tx.execute(sql`
    insert into ${exchangeSequences} (business_id, name, value) values (${businessId}, ${name}, 1)
    on conflict (business_id, name) do update set value = ${exchangeSequences}.value + 1
    returning value`);
  return Number(rowsOf<{ value: number }>(result)[0]?.value);
}

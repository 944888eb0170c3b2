/** `Caratula` (BRIEF §6.2): identical in file and canonical form (RUTs, dates and numbers only). */
import type { Resolution } from "../document/types.js";

export interface CaratulaFields {
  rutEmisor: string;
  rutEnvia: string;
  rutReceptor: string;
  resolution: Resolution;
  timestamp: string;
  /** DTE count per tipo. */
  counts: ReadonlyMap<number, number>;
}

/**
 * The `Caratula` element, one `SubTotDTE` per tipo in ascending order.
 *
 * @example
 * writeCaratula({ rutEmisor, rutEnvia, rutReceptor: "60803000-K", resolution, timestamp, counts: new Map([[33, 1]]) })
 * // '<Caratula version="1.0"><RutEmisor>…</SubTotDTE></Caratula>'
 */
export function writeCaratula(f: CaratulaFields): string {
  let xml =
    `<Caratula version="1.0"><RutEmisor>${f.rutEmisor}</RutEmisor><RutEnvia>${f.rutEnvia}</RutEnvia>` +
    `<RutReceptor>${f.rutReceptor}</RutReceptor><FchResol>${f.resolution.fecha}</FchResol>` +
    `<NroResol>${f.resolution.numero}</NroResol><TmstFirmaEnv>${f.timestamp}</TmstFirmaEnv>`;
  for (const tipo of [...f.counts.keys()].sort((a, b) => a - b)) {
    xml += `<SubTotDTE><TpoDTE>${tipo}</TpoDTE><NroDTE>${f.counts.get(tipo) ?? 0}</NroDTE></SubTotDTE>`;
  }
  return `${xml}</Caratula>`;
}

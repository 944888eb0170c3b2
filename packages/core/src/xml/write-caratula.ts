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

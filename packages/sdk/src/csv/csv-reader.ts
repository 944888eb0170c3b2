/**
 * RFC 4180 reading: fields quoted with `"` may hold the separator, doubled quotes and line breaks; CRLF, LF or CR end
 * a record. The separator is the one of `,`, `;` and tab that the header line uses most (Excel in Chile writes `;`,
 * because its decimal separator is the comma).
 */

export type Separator = "," | ";" | "\t";

/** The separator the first line uses most, outside quotes; `,` when it uses none. */
export function detectSeparator(text: string): Separator {
  const counts: Record<Separator, number> = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (const ch of text.replace(/^[\r\n]+/, "")) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && (ch === "," || ch === ";" || ch === "\t")) counts[ch]++;
  }
  return (Object.keys(counts) as Separator[]).reduce((best, s) => (counts[s] > counts[best] ? s : best), ",");
}

/** The records of a CSV text, each a list of fields (unquoted, as written). A trailing line break adds no record. */
export function parseCsv(text: string, separator: Separator = detectSeparator(text)): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let i = 0;
  const endField = () => {
    record.push(field);
    field = "";
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === "") quoted = true;
    else if (ch === separator) endField();
    else if (ch === "\r" || ch === "\n") {
      endRecord();
      if (ch === "\r" && text[i + 1] === "\n") i++;
    } else field += ch;
    i++;
  }
  if (field !== "" || record.length > 0) endRecord();
  return records;
}

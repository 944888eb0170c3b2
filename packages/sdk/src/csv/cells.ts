/**
 * Cells as people in Chile type them in a form or a spreadsheet: numbers with a decimal comma and thousands dots,
 * dates day first, yes/no in Spanish. Each reader returns null for text that is not what it reads, so the caller can
 * say which cell is wrong instead of sending a guess.
 */

/**
 * A quantity, price or percentage: `2,5` and `2.5` are two and a half; `4.990` and `1.234.567` are thousands
 * separated by dots (how prices are written in Chile); `1.234,5` mixes both, and so does `1,234.5` the other way round
 * (when both marks appear, the last one is the decimal one). A `$` and spaces are ignored. The ambiguous `1.490` reads
 * as 1 490 — wherever a number is read this way its resulting amount is shown, so a misreading shows.
 */
export function parseAmount(text: string): number | null {
  let t = text.trim().replace(/[\s\u00a0$]/g, "");
  if (t === "") return null;
  const comma = t.lastIndexOf(",");
  const dot = t.lastIndexOf(".");
  if (comma >= 0 && dot >= 0) {
    const [thousands, decimal] = comma > dot ? [".", ","] : [",", "."];
    const at = t.lastIndexOf(decimal);
    const whole = t.slice(0, at);
    if (!groupedThousands(whole, thousands)) return null;
    t = `${whole.split(thousands).join("")}.${t.slice(at + 1)}`;
  } else if (comma >= 0) {
    if (t.indexOf(",") !== comma) return null; // "1,2,3"
    t = t.replace(",", ".");
  } else if (dot >= 0 && (t.indexOf(".") !== dot || /^-?\d{1,3}\.\d{3}$/.test(t))) {
    if (!groupedThousands(t, ".")) return null; // "1.2.3"
    t = t.split(".").join("");
  }
  if (!/^-?\d+(\.\d+)?$/.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

function groupedThousands(text: string, mark: string): boolean {
  if (!text.includes(mark)) return /^-?\d+$/.test(text);
  const escaped = mark === "." ? "\\." : mark;
  return new RegExp(`^-?\\d{1,3}(${escaped}\\d{3})+$`).test(text);
}

/**
 * A date as `YYYY-MM-DD` (what the API takes), or day first as Chilean spreadsheets show it: `25-11-2026`,
 * `25/11/2026`, `5/1/2026`; a time after it (`2026-11-25 00:00:00`, `2026-11-25T00:00:00.000Z`) is ignored. Null when it is not a calendar date.
 */
export function parseSheetDate(text: string): string | null {
  const t = text.trim().replace(/[ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/, "");
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  let [y, mo, d] = m ? [m[1], m[2], m[3]] : [];
  if (!m) {
    m = /^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$/.exec(t);
    if (!m) return null;
    [d, mo, y] = [m[1], m[2], m[3]];
  }
  const iso = `${y}-${mo!.padStart(2, "0")}-${d!.padStart(2, "0")}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? null : iso;
}

const YES = new Set(["si", "s", "x", "1", "true", "verdadero", "yes", "y"]);
const NO = new Set(["no", "n", "0", "false", "falso"]);

/** `sí`, `si`, `x`, `1`, `true`… are yes; `no`, `0`, `false`… are no; null for anything else. */
export function parseYesNo(text: string): boolean | null {
  const t = fold(text);
  return YES.has(t) ? true : NO.has(t) ? false : null;
}

/** Lower case, no accents, trimmed: how headers and words are compared. */
export function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").trim().toLowerCase();
}

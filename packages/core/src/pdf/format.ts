/** Chilean number, money and date formats for print: `$ 1.234.567`, `1.234,5`, `15 de enero de 2026`. */

const MONTHS = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
  "noviembre", "diciembre"];

const group = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ".");

/**
 * A number with thousands dots and a decimal comma, keeping the given decimals (trailing zeros dropped).
 *
 * @example
 * formatNumber("1234.50") // "1.234,5"; formatNumber(3) // "3"
 */
export function formatNumber(value: number | string): string {
  const text = typeof value === "number" ? String(value) : value.trim();
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return text;
  const decimals = (match[3] ?? "").replace(/0+$/, "");
  return `${match[1] ?? ""}${group(match[2] ?? "0")}${decimals ? `,${decimals}` : ""}`;
}

/**
 * Pesos with thousands dots: `$ 1.234.567` (negative as `-$ 1.234`).
 *
 * @example
 * formatMoney(1234567) // "$ 1.234.567"
 */
export function formatMoney(amount: number | string): string {
  const text = formatNumber(amount);
  return text.startsWith("-") ? `-$ ${text.slice(1)}` : `$ ${text}`;
}

/**
 * `YYYY-MM-DD` → `15 de enero de 2026` (other text unchanged).
 *
 * @example
 * formatDateWords("2026-01-15") // "15 de enero de 2026"
 */
export function formatDateWords(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  return m && month ? `${Number(m[3])} de ${month} de ${m[1]}` : date;
}

/**
 * `YYYY-MM-DD` → `15-01-2026` (other text unchanged).
 *
 * @example
 * formatDateShort("2026-01-15") // "15-01-2026"
 */
export function formatDateShort(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  return m ? `${m[3]}-${m[2]}-${m[1]}` : date;
}

/**
 * The largest boleta the API takes, as an emit/preview body: 1,000 lines (a boleta's maximum) with 80-character
 * names and descriptions as long as still keeps the JSON body under the 1 MB limit. `words: false` makes every
 * description one unbroken word (the wrapper then cuts it by width, the costliest text to lay out).
 */
export interface LargestBoletaBody {
  tipo: 39;
  receptor: { rut: string; razon_social: string };
  precios_brutos: true;
  items: Array<{ nombre: string; cantidad: number; precio: number; descripcion: string }>;
}

const LINES = 1000;
const NAME_LENGTH = 80;
/** With the name, quantity, price and JSON punctuation, ~1,045 bytes a line: 1,000 lines stay under 1,048,576. */
const DESCRIPTION_LENGTH = 880;
const WORDS = "Servicio de mantención preventiva y correctiva con repuestos originales, visita técnica en terreno, informe";

const sized = (text: string, n: number): string => text.repeat(Math.ceil(n / text.length)).slice(0, n);

export function largestBoleta(options: { words?: boolean } = {}): LargestBoletaBody {
  const words = options.words ?? true;
  return {
    tipo: 39,
    receptor: { rut: "66666666-6", razon_social: "Consumidor final" },
    precios_brutos: true,
    items: Array.from({ length: LINES }, (_, i) => ({
      nombre: sized(`Artículo ${i + 1} de la lista de precios `, NAME_LENGTH),
      cantidad: 1 + (i % 3),
      precio: 1990 + i,
      descripcion: words ? sized(`${WORDS} ${i} `, DESCRIPTION_LENGTH) : sized(`Referencia${i}`, DESCRIPTION_LENGTH),
    })),
  };
}

/**
 * Tiny DOM helpers: `h()` builds elements (attributes, `on*` listeners, children), `clear()` empties a node.
 * No inline styles anywhere: the dashboard runs under `Content-Security-Policy: default-src 'self'`.
 */
export type Child = Node | string | number | null | undefined | false | Child[];
export type AttrValue = string | number | boolean | null | undefined;
export type Attrs = { [name: string]: AttrValue | ((event: Event) => void) };

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [name, value] of Object.entries(attrs)) {
      if (typeof value === "function") el.addEventListener(name.slice(2).toLowerCase(), value);
      else setAttr(el, name, value);
    }
  }
  append(el, children);
  return el;
}

function setAttr(el: Element, name: string, value: AttrValue): void {
  if (value === null || value === undefined || value === false) return;
  if (name === "value" && (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement)) {
    el.value = String(value);
    return;
  }
  el.setAttribute(name, value === true ? "" : String(value));
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

export function replace(node: Node, ...children: Child[]): void {
  clear(node);
  append(node, children);
}

let counter = 0;
/** A unique element id for label/aria wiring. */
export function uid(prefix = "f"): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

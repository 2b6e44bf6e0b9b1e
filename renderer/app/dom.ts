/** Small DOM helpers shared by the panels. */

export function el<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (!e) throw new Error(`index.html is missing #${id}`);
  return e as T;
}

/** A new element with text and optional class and attributes. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, text = '', cls = '', attrs: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text) e.textContent = text;
  if (cls) e.className = cls;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

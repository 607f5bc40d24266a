// A tiny element builder. Content only ever reaches the DOM as text nodes or attribute values set
// through setAttribute; the one innerHTML in the view is the markdown renderer's output.

type Attrs = Record<string, string | number | boolean | undefined>;
type Child = Node | string | undefined | false | null;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === false) continue;
      if (k === 'class') el.className = String(v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  for (const c of children) if (c !== undefined && c !== false && c !== null) el.append(c);
  return el;
}

/**
 * The children with a space between each two: text that is read as words (an accessible name computed from
 * content, axe's "visible text" for WCAG 2.5.3) would otherwise run one element's last word into the next
 * one's first. In a flex container, as every row part is, a space between items is not rendered.
 */
export function spaced(...children: Child[]): Child[] {
  const out: Child[] = [];
  for (const c of children) {
    if (c === undefined || c === false || c === null) continue;
    if (out.length) out.push(' ');
    out.push(c);
  }
  return out;
}

export function byId<T extends HTMLElement = HTMLElement>(root: ParentNode, id: string): T {
  const el = root.querySelector<T>(`#${id}`);
  if (!el) throw new Error(`search view: #${id} is missing`);
  return el;
}

/** A codicon (the font is loaded by the view's HTML); decorative, so hidden from screen readers. */
export function icon(name: string, cls = ''): HTMLSpanElement {
  return h('span', { class: `codicon codicon-${name}${cls ? ` ${cls}` : ''}`, 'aria-hidden': 'true' });
}

/**
 * Links are never followed in the webview: a click (or middle click) on one becomes `open(url)`, and
 * dragging one out is refused.
 */
export function interceptLinks(root: HTMLElement, open: (url: string) => void): void {
  const intercept = (e: MouseEvent) => {
    const a = (e.target as Element | null)?.closest?.('a');
    if (!a) return;
    e.preventDefault();
    const href = a.getAttribute('href');
    if ((e.type === 'click' || e.button === 1) && href) open(href);
  };
  root.addEventListener('click', intercept);
  root.addEventListener('auxclick', intercept);
  root.addEventListener('dragstart', (e) => {
    if ((e.target as Element | null)?.closest?.('a')) e.preventDefault();
  });
}

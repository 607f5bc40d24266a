// The results region: summary line, coverage strip with the explainer's notes (its fixes and the
// repos/sources echo warnings among them: one source for what the CLI and the view say), and one card
// per result with its passages rendered as markdown.
import type { ViewOutcome, ViewResult } from '../../src/webview/protocol';
import { safeHref } from '../../src/webview/linkPolicy';
import { h, icon } from './dom';
import { TYPE_LABELS, TYPES } from './form';
import { renderMarkdown } from './markdown';

/** Result type -> codicon; a type this build does not know gets `question` and its raw name beside it. */
export const TYPE_ICONS: Record<string, string> = { doc: 'book', issue: 'issues', pull_request: 'git-pull-request', readme: 'repo' };
export const UNKNOWN_TYPE_ICON = 'question';
const COVERAGE_KNOWN = ['ok', 'degraded', 'unavailable', 'skipped'];

export function typeLabel(type: string): string {
  return TYPE_LABELS[type] ?? type;
}

/** Title, or the url when the source page had none (spec 2.2). */
export function resultTitle(r: Pick<ViewResult, 'title' | 'url'>): string {
  return r.title && r.title.trim() ? r.title : r.url;
}

function typeIcon(type: string): HTMLElement {
  const known = Object.prototype.hasOwnProperty.call(TYPE_ICONS, type);
  const name = known ? TYPE_ICONS[type]! : UNKNOWN_TYPE_ICON;
  const glyph = h('span', { class: `type-icon codicon codicon-${name} ${known ? `type-${type}` : 'type-other'}`, role: 'img', 'aria-label': typeLabel(type), title: typeLabel(type), 'data-type': type });
  return known ? glyph : h('span', { class: 'type-unknown' }, glyph, h('span', { class: 'type-raw' }, type.slice(0, 40)));
}

function coverageSection(o: ViewOutcome): HTMLElement {
  const types = [...TYPES, ...Object.keys(o.coverage).filter((t) => !(TYPES as readonly string[]).includes(t))];
  const strip = h('ul', { class: 'coverage-strip', 'aria-label': 'Coverage per result type' });
  for (const t of types) {
    const state = o.coverage[t];
    if (state === undefined) continue;
    const cls = COVERAGE_KNOWN.includes(state) ? state : 'other';
    const reason = o.notes.filter((n) => n.type === t).map((n) => n.text).join(' ');
    strip.append(h('li', { class: `cov cov-${cls}`, title: reason || undefined },
      h('span', { class: 'cov-type' }, typeLabel(t)), ' ', h('span', { class: 'cov-state' }, state)));
  }
  const notes = h('ul', { class: 'notes' });
  for (const n of o.notes) {
    notes.append(h('li', { class: `note note-${n.level === 'warning' ? 'warning' : 'info'}` },
      icon(n.level === 'warning' ? 'warning' : 'info', 'note-icon'),
      n.type ? h('span', { class: 'note-type' }, `${typeLabel(n.type)}: `) : undefined,
      n.text,
      n.fix ? h('button', { type: 'button', class: 'link-button fix', 'data-fix': n.fix.kind }, n.fix.label) : undefined));
  }
  return h('section', { class: 'coverage', 'aria-label': 'Coverage' }, strip, notes.childElementCount ? notes : undefined);
}

/** Renders a card's passages as markdown (once). Cards start as plain text when not rendered eagerly. */
export function upgradeCard(li: HTMLElement, r: ViewResult): void {
  if (!li.classList.contains('pending')) return;
  li.classList.remove('pending');
  const href = safeHref(r.url);
  li.querySelectorAll<HTMLElement>('.md.md-pending').forEach((body, i) => {
    body.classList.remove('md-pending');
    // Safe by construction: markdown-it with raw HTML off plus the link and attribute policy in markdown.ts.
    body.innerHTML = renderMarkdown(r.passages[i] ?? '', href);
  });
}

function resultCard(r: ViewResult, index: number, selected: boolean, eager: boolean): HTMLElement {
  const href = safeHref(r.url);
  const title = resultTitle(r);
  const titleEl = href
    ? h('a', { class: 'result-title', href }, title)
    : h('span', { class: 'result-title' }, title);
  const passages = h('div', { class: 'passages' });
  r.passages.forEach((p, i) => {
    const body = h('div', { class: eager ? 'md' : 'md md-pending' });
    // Safe by construction: markdown-it with raw HTML off plus the link and attribute policy in markdown.ts.
    if (eager) body.innerHTML = renderMarkdown(p, href);
    else body.textContent = p;
    passages.append(h('div', { class: 'passage' }, body,
      h('div', { class: 'passage-actions' },
        h('button', { type: 'button', class: 'link-button', 'data-act': 'copy-passage', 'data-p': i, 'aria-label': `Copy passage ${i + 1}` }, icon('copy'), ' Copy'),
        h('button', { type: 'button', class: 'link-button', 'data-act': 'insert-passage', 'data-p': i, 'aria-label': `Insert passage ${i + 1} at the cursor` }, icon('insert'), ' Insert'))));
  });
  return h('li', { class: eager ? 'result' : 'result pending', tabindex: selected ? 0 : -1, 'data-index': index, 'aria-label': `${typeLabel(r.type)}: ${title}` },
    h('div', { class: 'result-head' }, typeIcon(r.type), titleEl),
    h('div', { class: 'host' }, r.host || r.url),
    passages,
    h('div', { class: 'result-actions' },
      h('button', { type: 'button', 'data-act': 'open', disabled: !href, title: 'Open in the browser' }, icon('link-external'), ' Open'),
      h('button', { type: 'button', 'data-act': 'copy-link' }, icon('link'), ' Copy link'),
      r.passages.length ? h('button', { type: 'button', 'data-act': 'open-passages' }, icon('markdown'), ' Open as Markdown') : undefined));
}

/**
 * The whole results region for an outcome. The first `eager` results get their markdown now; the
 * others show their passages as text until upgradeCard (near the viewport, or when the browser is idle).
 */
export function renderOutcome(o: ViewOutcome, selected: number, eager = Number.POSITIVE_INFINITY): DocumentFragment {
  const frag = document.createDocumentFragment();
  const n = o.results.length;
  frag.append(h('p', { class: 'summary' },
    `${n} result${n === 1 ? '' : 's'} in ${o.ms} ms`,
    o.reranked ? h('span', { class: 'badge reranked', title: 'The ranked list went through the reranking stage' }, 'reranked') : undefined));
  frag.append(coverageSection(o));
  if (n === 0) {
    frag.append(h('div', { class: 'empty' },
      h('p', {}, `No results for “${o.params.query}”.`),
      h('p', {}, 'Try other words, fewer filters, or more result types; the coverage above says which types were searched.')));
    return frag;
  }
  const list = h('ol', { class: 'results', 'aria-label': 'Search results' });
  const sel = Math.min(selected, n - 1);
  o.results.forEach((r, i) => list.append(resultCard(r, i, i === sel, i < eager)));
  frag.append(list);
  return frag;
}

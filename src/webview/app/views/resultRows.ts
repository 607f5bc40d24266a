// One result row of the Search view (type icon, title, provenance, license, a one-line snippet, its actions and
// passages rendered as markdown), the coverage lines above the list, and what a row's action button posts.
import type { CoverageNote } from '../../../api/coverage';
import type { OutcomeResult, SearchOutcome } from '../../../search/session/outcome';
import type { FromWebview } from '../../protocol';
import { safeHref } from '../../linkPolicy';
import { REPOSITORY_FILTERS, requestedTypes } from '../../../api/params';
import { h, icon, spaced } from '../dom';
import { renderMarkdown } from '../markdown';

/** Result kind -> codicon; an unknown kind gets `question` and its raw name beside it. */
const TYPE_ICONS: Record<string, string> = {
  doc: 'book',
  issue: 'issues',
  pull_request: 'git-pull-request',
  readme: 'repo',
  web: 'globe',
};
const UNKNOWN_TYPE_ICON = 'question';
const KIND_WORDS: Record<string, string> = {
  doc: 'Documentation',
  issue: 'Issue',
  pull_request: 'Pull request',
  readme: 'README',
  web: 'Web page',
};

function kindLabel(type: string): string {
  return KIND_WORDS[type] ?? type;
}

/** Title; else the url's path (never the bare host); else the url. */
function resultTitle(r: Pick<OutcomeResult, 'title' | 'url'>): string {
  if (r.title && r.title.trim()) return r.title.trim();
  try {
    const u = new URL(r.url);
    const path = decodeURIComponent(u.pathname).replace(/\/+$/, '');
    if (path) return path.split('/').filter(Boolean).slice(-2).join('/') || r.url;
  } catch {
    /* not a URL: shown as it came */
  }
  return r.url;
}

/** A passage's markdown as one line of plain text, for the row's snippet. */
function plainSnippet(md: string, max = 240): string {
  const s = md
    .slice(0, 4000)
    .replace(/```[^\n]*\n/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/^\s*\|?\s*:?-{2,}.*$/gm, ' ')
    .replace(/[`*_~|]+/g, ' ')
    .replace(/<[^>\n]{0,200}>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function typeIcon(type: string): HTMLElement {
  const known = Object.prototype.hasOwnProperty.call(TYPE_ICONS, type);
  const glyph = h('span', {
    class: `type-icon codicon codicon-${known ? TYPE_ICONS[type]! : UNKNOWN_TYPE_ICON} ${known ? `type-${type}` : 'type-other'}`,
    role: 'img',
    'aria-label': kindLabel(type),
    title: kindLabel(type),
    'data-type': type,
  });
  return known
    ? glyph
    : h('span', { class: 'type-unknown' }, ...spaced(glyph, h('span', { class: 'type-raw' }, type.slice(0, 40))));
}

function actionButton(
  act: string,
  iconName: string,
  label: string,
  extra: Record<string, string | number | boolean> = {},
): HTMLButtonElement {
  return h(
    'button',
    { type: 'button', class: 'action', 'data-act': act, 'aria-label': label, title: label, ...extra },
    icon(iconName),
  );
}

/** A row's action buttons: built when the row is first hovered or focused, so a long list stays cheap to paint. */
export function rowActions(r: OutcomeResult, watchable = false): HTMLElement[] {
  const title = resultTitle(r);
  const q = `“${title.length > 80 ? `${title.slice(0, 79)}…` : title}”`;
  return [
    actionButton('open', 'link-external', `Open ${q}`, { disabled: !safeHref(r.url) }),
    actionButton('copy-link', 'link', `Copy Link to ${q}`),
    ...(r.passages.length
      ? [
          actionButton('copy-passage', 'copy', `Copy Passage of ${q}`, { 'data-p': 0 }),
          actionButton('insert-passage', 'insert', `Insert Passage of ${q} at Cursor`, { 'data-p': 0 }),
          actionButton('open-passages', 'markdown', `Open ${q} as Markdown`),
        ]
      : []),
    // Watches the search this result came from (a repository-scoped one).
    ...(watchable
      ? [actionButton('watch', 'eye', `Watch for a Fix: re-run the search that found ${q} and tell me what is new`)]
      : []),
  ];
}

/**
 * A row's accessible name: its kind (the icon's word), then exactly what the collapsed row shows, in the
 * same order (title, provenance, license, version badges, snippet). WCAG 2.5.3 (Label in Name): a voice
 * control user says what they see ("click <title>"), so nothing may come between the visible words.
 */
function rowName(r: OutcomeResult): string {
  const known = Object.prototype.hasOwnProperty.call(TYPE_ICONS, r.type);
  const snippet = r.passages[0] ? plainSnippet(r.passages[0].text) : '';
  return [
    `${known ? kindLabel(r.type) : r.type.slice(0, 40)}: ${resultTitle(r)}`,
    r.provenance,
    r.license,
    ...(r.versions ?? []).slice(0, 3).map((b) => b.label),
    snippet,
  ]
    .filter((x) => !!x)
    .join(', ');
}

/**
 * A row is a treeitem (HOUSE_STYLE 17): rows expand to their passages, as in VS Code's Search view. Its version
 * badges are added by addBadges, when the row is on screen (its name carries them from the start).
 */
export function row(r: OutcomeResult, index: number, count: number): HTMLElement {
  const title = resultTitle(r);
  const snippet = r.passages[0] ? plainSnippet(r.passages[0].text) : '';
  return h(
    'li',
    {
      class: 'row',
      role: 'treeitem',
      tabindex: -1,
      'data-index': index,
      'aria-level': 1,
      'aria-posinset': index + 1,
      'aria-setsize': count,
      'aria-selected': 'false',
      'aria-expanded': r.passages.length ? 'false' : undefined,
      'aria-label': rowName(r),
    },
    // Spaces between the parts, so that the words a row shows are the words of its name (rowName).
    ...spaced(
      h(
        'div',
        { class: 'row-main' },
        ...spaced(
          typeIcon(r.type),
          h('span', { class: 'row-title', title }, title),
          h('span', { class: 'row-actions' }),
        ),
      ),
      h(
        'div',
        { class: 'row-meta' },
        ...spaced(
          h('span', { class: 'provenance', title: r.url }, r.provenance),
          r.license ? h('span', { class: 'license', title: `License: ${r.license}` }, r.license) : undefined,
        ),
      ),
      snippet ? h('div', { class: 'row-snippet' }, snippet) : undefined,
    ),
  );
}

/**
 * A result's version badges; the tooltip (and the accessible name) quotes the sentence. One element a
 * badge: its icon is the stylesheet's (`data-verdict`), so badges cost the first paint little over plain rows.
 */
function versionBadges(r: OutcomeResult): HTMLElement {
  return h(
    'div',
    { class: 'row-versions' },
    ...spaced(
      ...(r.versions ?? []).slice(0, 3).map((b) =>
        h(
          'span',
          {
            class: `version-badge${b.highlight ? ' highlight' : ''}`,
            'data-verdict': b.verdict,
            title: `“${b.sentence}”`,
            'aria-label': `${b.label}: “${b.sentence}”`,
          },
          b.label,
        ),
      ),
    ),
  );
}

/** Adds a row's version badges after its meta line, with the space between the parts. */
export function addBadges(li: HTMLElement, r: OutcomeResult): void {
  if (!r.versions?.length || li.querySelector(':scope > .row-versions')) return;
  const meta = li.querySelector(':scope > .row-meta');
  meta?.after(' ', versionBadges(r));
}

/** The box a row's passages go in; empty until `fillPassages` renders them. */
export function passagesBox(r: OutcomeResult): HTMLElement {
  return h('div', { class: 'row-passages', role: 'group', 'aria-label': `Passages of ${resultTitle(r)}` });
}

/** Renders a row's passages as markdown into its box (once per row and outcome). */
export function fillPassages(box: HTMLElement, r: OutcomeResult, index: number): void {
  const base = safeHref(r.url);
  r.passages.forEach((p, i) => {
    const body = h('div', { class: 'md' });
    // Safe by construction: markdown-it with raw HTML off plus the link and attribute policy in markdown.ts.
    body.innerHTML = renderMarkdown(p.text, p.link && safeHref(p.link) ? p.link : base);
    const n = `passage ${i + 1} of “${resultTitle(r).slice(0, 80)}”`;
    // A tab stop of its own: focus on it shows its actions, so the keyboard reaches them.
    box.append(
      h(
        'div',
        {
          class: 'passage',
          'data-index': index,
          role: 'group',
          tabindex: 0,
          'aria-label': n.charAt(0).toUpperCase() + n.slice(1),
        },
        h(
          'div',
          { class: 'passage-actions' },
          p.link && safeHref(p.link)
            ? actionButton('open-passage', 'link-external', `Open ${n}`, { 'data-p': i })
            : undefined,
          actionButton('copy-passage', 'copy', `Copy ${n}`, { 'data-p': i }),
          actionButton('insert-passage', 'insert', `Insert ${n} at Cursor`, { 'data-p': i }),
        ),
        body,
      ),
    );
  });
  box.dataset.filled = '';
}

/** Rule 6 and the other coverage gaps in plain words, one line each; nothing when every requested type is ok. */
export function coverageLines(o: SearchOutcome): HTMLElement | undefined {
  const asked = requestedTypes(o.params);
  const lines: HTMLElement[] = [];
  const notes = o.notes.filter((n) => !(n.fix?.kind === 'add-sources'));
  for (const n of notes) {
    // A type the user did not ask for being skipped is what they asked for.
    if (n.type && o.coverage[n.type] === 'skipped' && !asked.includes(n.type) && !n.fix) continue;
    lines.push(noteLine(n, o));
  }
  return lines.length ? h('ul', { class: 'coverage-lines', 'aria-label': 'Coverage' }, ...lines) : undefined;
}

function noteLine(n: CoverageNote, o: SearchOutcome): HTMLElement {
  if (n.fix?.kind === 'drop-repo-filters') {
    const used = REPOSITORY_FILTERS.filter((f) => o.params[f] !== undefined);
    return h(
      'li',
      { class: 'coverage-line rule6' },
      icon('info', 'note-icon'),
      h('span', {}, `Documentation left out because of the repository filters (${used.join(', ')}).`),
      h(
        'span',
        { class: 'fixes' },
        h(
          'button',
          { type: 'button', class: 'link-button fix', 'data-fix': 'drop-repo-filters' },
          'Include documentation',
        ),
        h(
          'button',
          { type: 'button', class: 'link-button fix', 'data-fix': 'add-sources' },
          'Choose documentation sources…',
        ),
      ),
    );
  }
  return h(
    'li',
    { class: 'coverage-line' },
    icon(n.level === 'warning' ? 'warning' : 'info', 'note-icon'),
    h('span', {}, n.text),
  );
}

/** What a row's or a passage's action button posts; a passage opens at its own citation link when it has one. */
export function actionMessage(act: string, r: OutcomeResult, p: number): FromWebview | undefined {
  const passage = r.passages[p];
  switch (act) {
    case 'open':
      return { type: 'openLink', url: r.url };
    case 'open-passage':
      return { type: 'openLink', url: passage?.link ?? r.url };
    case 'copy-link':
      return { type: 'copy', what: 'link', text: r.url };
    case 'copy-passage':
      return passage && { type: 'copy', what: 'passage', text: passage.text };
    case 'insert-passage':
      return passage && { type: 'insert', text: passage.text };
    case 'open-passages':
      return {
        type: 'openPassages',
        id: r.id,
        title: resultTitle(r),
        url: r.url,
        passages: r.passages.map((x) => x.text),
      };
    case 'watch':
      return { type: 'watch' };
  }
  return undefined;
}

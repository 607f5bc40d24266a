// The form: query row, the Filters header (count, Clear filters) and the filter groups. It writes the
// inputs only when the form was set by something other than typing (formRev), reads them on input.
import { byId, h, icon } from '../dom';
import {
  activeFilterCount,
  FIELD_LABELS,
  FORM_TEXT_FIELDS,
  splitList,
  TYPE_LABELS,
  TYPES,
  type FormState,
  type TriState,
} from '../form';
import { formToParams } from '../form';
import type { ViewState } from '../state';
import { plainIssue } from '../words';

type StrField = 'repos' | 'sources' | 'k' | 'passages' | 'language' | 'topic' | 'license' | 'minStars' | 'maxStars';
/** Form field -> spec parameter name (the issues' `field`). */
const PARAM: Record<StrField | 'types' | 'archived' | 'fork' | 'skillsOnly' | 'query', string> = {
  query: 'query',
  types: 'types',
  repos: 'repos',
  sources: 'sources',
  k: 'k',
  passages: 'passages',
  language: 'language',
  topic: 'topic',
  license: 'license',
  minStars: 'min_stars',
  maxStars: 'max_stars',
  archived: 'archived',
  fork: 'fork',
  skillsOnly: 'skills',
};
const PARAMS = Object.values(PARAM);

export class FormView {
  readonly el: HTMLFormElement;
  readonly query: HTMLInputElement;
  private rev = -1;
  private last: Partial<Record<string, unknown>> = {};

  constructor() {
    const text = (field: StrField, placeholder = '', cls = '') =>
      h(
        'div',
        { class: `field ${cls}` },
        h('label', { for: `f-${field}` }, FIELD_LABELS[PARAM[field]]!),
        h('input', {
          id: `f-${field}`,
          type: 'text',
          'data-field': field,
          placeholder,
          spellcheck: 'false',
          autocomplete: 'off',
          'aria-describedby': `err-${PARAM[field]}`,
        }),
        h('div', { id: `err-${PARAM[field]}`, class: 'field-error', hidden: true }),
      );
    const tri = (field: 'archived' | 'fork', yes: string, no: string) =>
      h(
        'div',
        { class: 'field half' },
        h('label', { for: `f-${field}` }, FIELD_LABELS[field]!),
        h(
          'select',
          { id: `f-${field}`, 'data-field': field, 'aria-describedby': `err-${field}` },
          h('option', { value: 'any' }, 'Any'),
          h('option', { value: 'yes' }, yes),
          h('option', { value: 'no' }, no),
        ),
        h('div', { id: `err-${field}`, class: 'field-error', hidden: true }),
      );
    const types = h(
      'fieldset',
      { class: 'field types', 'aria-describedby': 'err-types' },
      h('legend', {}, 'Result types'),
    );
    for (const t of TYPES)
      types.append(
        h(
          'label',
          { class: 'check' },
          h('input', { type: 'checkbox', 'data-field': 'types', value: t }),
          TYPE_LABELS[t]!,
        ),
      );
    types.append(h('div', { id: 'err-types', class: 'field-error', hidden: true }));

    this.el = h(
      'form',
      { id: 'search-form', class: 'search-form', role: 'search', novalidate: true },
      h(
        'div',
        { class: 'query-row' },
        h('input', {
          id: 'q',
          type: 'search',
          'data-field': 'query',
          'aria-label': 'Search query',
          placeholder: 'Search documentation, issues, PRs…',
          autocomplete: 'off',
          spellcheck: 'false',
          'aria-describedby': 'err-query',
        }),
        h(
          'button',
          { type: 'submit', class: 'icon-button', id: 'run', 'aria-label': 'Search', title: 'Search (Enter)' },
          icon('search'),
        ),
        h(
          'button',
          {
            type: 'button',
            id: 'cancel',
            class: 'icon-button',
            'aria-label': 'Cancel search',
            title: 'Cancel (Escape)',
            hidden: true,
          },
          icon('debug-stop'),
        ),
      ),
      h('div', { id: 'err-query', class: 'field-error', hidden: true }),
      h(
        'div',
        { class: 'filters-head' },
        h(
          'button',
          {
            type: 'button',
            id: 'filters-toggle',
            class: 'filters-toggle',
            'aria-expanded': 'false',
            'aria-controls': 'filters-body',
          },
          icon('chevron-right', 'twisty'),
          'Filters',
          h('span', { id: 'filter-count', class: 'badge', hidden: true }),
        ),
        h('button', { type: 'button', id: 'clear-filters', class: 'link-button', hidden: true }, 'Clear filters'),
      ),
      h(
        'div',
        { id: 'filters-body', class: 'filter-grid', hidden: true },
        types,
        h(
          'div',
          { class: 'field' },
          h(
            'label',
            { class: 'check' },
            h('input', {
              id: 'f-skillsOnly',
              type: 'checkbox',
              'data-field': 'skillsOnly',
              'aria-describedby': 'err-skills',
            }),
            'Agent-skill files only',
          ),
          h('div', { id: 'err-skills', class: 'field-error', hidden: true }),
        ),
        text('sources', 'e.g. node-api', ''),
        h('div', {
          id: 'source-picker',
          class: 'source-picker',
          role: 'group',
          'aria-label': 'Known documentation sources',
        }),
        text('k', '10', 'half'),
        text('passages', '1', 'half'),
        h(
          'fieldset',
          { class: 'group repo-group', 'aria-describedby': 'repo-hint' },
          h('legend', {}, 'Repository filters (issues, pull requests, READMEs only)'),
          h(
            'p',
            { id: 'repo-hint', class: 'hint' },
            'Language, topic, license, stars, archived and forks leave documentation out unless Documentation sources are set.',
          ),
          text('repos', 'owner/repo, comma separated'),
          h('div', { id: 'ws-repos', class: 'ws-repos', hidden: true }),
          text('language', 'e.g. TypeScript', 'third'),
          text('topic', 'e.g. http, cli', 'third'),
          text('license', 'e.g. MIT', 'third'),
          text('minStars', '', 'half'),
          text('maxStars', '', 'half'),
          tri('archived', 'Only archived', 'Exclude archived'),
          tri('fork', 'Only forks', 'Exclude forks'),
        ),
      ),
      h('ul', { id: 'general-issues', class: 'general-issues', hidden: true }),
    );
    this.query = byId(this.el, 'q');
  }

  private field<T extends HTMLElement>(name: string): T {
    return byId<T>(this.el, `f-${name}`);
  }

  read(): FormState {
    const v = (key: StrField) => this.field<HTMLInputElement>(key).value;
    return {
      query: this.query.value,
      types: [...this.el.querySelectorAll<HTMLInputElement>('input[data-field="types"]')]
        .filter((c) => c.checked)
        .map((c) => c.value),
      repos: v('repos'),
      sources: v('sources'),
      k: v('k'),
      passages: v('passages'),
      language: v('language'),
      topic: v('topic'),
      license: v('license'),
      minStars: v('minStars'),
      maxStars: v('maxStars'),
      archived: this.field<HTMLSelectElement>('archived').value as TriState,
      fork: this.field<HTMLSelectElement>('fork').value as TriState,
      skillsOnly: this.field<HTMLInputElement>('skillsOnly').checked,
    };
  }

  private write(f: FormState): void {
    this.query.value = f.query;
    for (const key of FORM_TEXT_FIELDS) this.field<HTMLInputElement>(key).value = f[key];
    this.field<HTMLSelectElement>('archived').value = f.archived;
    this.field<HTMLSelectElement>('fork').value = f.fork;
    this.field<HTMLInputElement>('skillsOnly').checked = f.skillsOnly;
    for (const cb of this.el.querySelectorAll<HTMLInputElement>('input[data-field="types"]'))
      cb.checked = f.types.includes(cb.value);
  }

  private changed(key: string, value: unknown): boolean {
    if (this.last[key] === value) return false;
    this.last[key] = value;
    return true;
  }

  render(s: ViewState): void {
    if (s.formRev !== this.rev) {
      this.rev = s.formRev;
      this.write(s.form);
    }
    byId(this.el, 'cancel').hidden = !s.pending;
    const body = byId(this.el, 'filters-body');
    body.hidden = !s.filtersOpen;
    byId(this.el, 'filters-toggle').setAttribute('aria-expanded', String(s.filtersOpen));
    byId(this.el, 'filters-toggle').querySelector('.twisty')!.className =
      `codicon codicon-${s.filtersOpen ? 'chevron-down' : 'chevron-right'} twisty`;
    const n = activeFilterCount(s.form, s.defaults);
    const count = byId(this.el, 'filter-count');
    count.textContent = n ? String(n) : '';
    count.hidden = n === 0;
    byId(this.el, 'clear-filters').hidden = n === 0;
    if (this.changed('ws', `${s.form.repos}|${s.workspaceRepos.join()}`)) this.renderWorkspaceRepos(s);
    if (this.changed('src', `${s.form.sources}|${JSON.stringify(s.sources)}`)) this.renderSourcePicker(s);
    if (this.changed('issues', `${JSON.stringify(s.issues)}|${JSON.stringify(s.liveIssues)}|${JSON.stringify(s.form)}`))
      this.renderIssues(s);
  }

  private renderWorkspaceRepos(s: ViewState): void {
    const present = new Set(splitList(s.form.repos));
    const offer = s.workspaceRepos.filter((r) => !present.has(r));
    const box = byId(this.el, 'ws-repos');
    box.replaceChildren(
      ...(offer.length ? [h('span', { class: 'hint' }, 'This workspace:')] : []),
      ...offer.map((r) =>
        h(
          'button',
          { type: 'button', class: 'suggestion', 'data-add-repo': r, 'aria-label': `Add repository ${r}` },
          icon('add'),
          r,
        ),
      ),
    );
    box.hidden = offer.length === 0;
  }

  /** The ids used before and confirmed by the service, each marked indexed or not; a click toggles it in the field. */
  private renderSourcePicker(s: ViewState): void {
    const box = byId(this.el, 'source-picker');
    const chosen = new Set(splitList(s.form.sources));
    const ids = [...new Set([...Object.keys(s.sources), ...chosen])].sort();
    if (!ids.length) {
      box.replaceChildren(
        h(
          'span',
          { class: 'hint' },
          'Ids you search with appear here, marked indexed or not once the service has answered.',
        ),
      );
      return;
    }
    box.replaceChildren(
      ...ids.map((id) => {
        const state = s.sources[id];
        const word = state === true ? 'indexed' : state === false ? 'not indexed' : 'not checked yet';
        return h(
          'button',
          {
            type: 'button',
            class: `source-option source-${state === true ? 'ok' : state === false ? 'bad' : 'unknown'}`,
            'data-source': id,
            'aria-pressed': String(chosen.has(id)),
            title: `${id}: ${word}`,
            'aria-label': `${id}, ${word}`,
          },
          icon(chosen.has(id) ? 'check' : state === false ? 'warning' : 'book'),
          id,
          h('span', { class: 'source-state' }, word),
        );
      }),
    );
  }

  /** Inline messages in the form's words: the form's own, the live ones, and why the last search was refused. */
  private renderIssues(s: ViewState): void {
    const local = formToParams(s.form).issues;
    const all = [...local, ...s.liveIssues.filter((i) => i.field !== 'query'), ...s.issues].map(plainIssue);
    const byField = new Map<string, string[]>();
    const general: string[] = [];
    for (const i of all) {
      if (!PARAMS.includes(i.field)) {
        if (!general.includes(i.message)) general.push(i.message);
        continue;
      }
      const list = byField.get(i.field) ?? [];
      if (!list.includes(i.message)) list.push(i.message);
      byField.set(i.field, list);
    }
    for (const [field, param] of Object.entries(PARAM)) {
      const err = this.el.querySelector<HTMLElement>(`#err-${param}`);
      if (!err) continue;
      const msgs = byField.get(param) ?? [];
      err.textContent = msgs.join(' ');
      err.hidden = msgs.length === 0;
      const input =
        field === 'query'
          ? this.query
          : field === 'types'
            ? undefined
            : this.el.querySelector<HTMLElement>(`#f-${field}`);
      if (input) {
        if (msgs.length) input.setAttribute('aria-invalid', 'true');
        else input.removeAttribute('aria-invalid');
      }
    }
    const gen = byId(this.el, 'general-issues');
    gen.replaceChildren(...general.map((m) => h('li', {}, m)));
    gen.hidden = general.length === 0;
  }
}

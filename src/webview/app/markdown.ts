// Passages are markdown written by strangers: markdown-it with raw HTML off, and the only attributes emitted are
// href (http, https, mailto, resolved against the result's url), title and its own class names: no id or name (DOM
// clobbering), no style (the CSP forbids it), no src (images become links, so no tracking pixel fires).
import MarkdownIt from 'markdown-it';
import { safeHref } from '../linkPolicy';

type Token = MarkdownIt.Token;
type Renderer = InstanceType<typeof MarkdownIt>;
type RenderEnv = MarkdownIt.Env & { base?: string };

/** Resolves relative links when a passage carries none of its own base. */
const PROBE_BASE = 'https://base.invalid/';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A fence's info string is content too: keep a plain language name or nothing. */
export function languageClass(info: string): string | undefined {
  const lang = info.trim().split(/\s+/, 1)[0] ?? '';
  return /^[A-Za-z0-9_+#.-]{1,32}$/.test(lang) ? `language-${lang.toLowerCase()}` : undefined;
}

function resolve(href: string, env: RenderEnv): string | undefined {
  const base = env.base && safeHref(env.base) ? env.base : undefined;
  if (base) return safeHref(href, base);
  // No usable base: absolute links only, and anything relative stays text.
  return safeHref(href);
}

function fixLinks(tokens: Token[], env: RenderEnv): void {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.children) fixLinks(t.children, env);
    if (t.type === 'link_open') {
      const href = resolve(String(t.attrGet('href') ?? ''), env);
      if (href) {
        const title = t.attrGet('title');
        t.attrs = title
          ? [
              ['href', href],
              ['title', String(title)],
            ]
          : [['href', href]];
      } else {
        // Keep the words, drop the link: pair this open with its close and turn both into a span.
        t.tag = 'span';
        t.attrs = [['class', 'md-link-blocked']];
        let depth = 0;
        for (let j = i + 1; j < tokens.length; j++) {
          const u = tokens[j]!;
          if (u.type === 'link_open') depth++;
          else if (u.type === 'link_close') {
            if (depth === 0) {
              u.tag = 'span';
              break;
            }
            depth--;
          }
        }
      }
    } else if (t.type === 'image') {
      const src = resolve(String(t.attrGet('src') ?? ''), env);
      t.attrs = src ? [['src', src]] : [];
    } else if ((t.type === 'th_open' || t.type === 'td_open') && t.attrs) {
      const align = /text-align:\s*(left|right|center)/.exec(String(t.attrGet('style') ?? ''))?.[1];
      t.attrs = align ? [['class', `md-align-${align}`]] : null;
    } else if (t.attrs) {
      // Only an ordered list's start number may stay; anything else (a future plugin's, say) is dropped.
      t.attrs =
        t.type === 'ordered_list_open'
          ? t.attrs.filter(([name, value]) => name === 'start' && /^\d{1,9}$/.test(String(value)))
          : null;
    }
  }
}

function createRenderer(): Renderer {
  const md = new MarkdownIt({ html: false, linkify: true, typographer: false });
  // First gate: javascript:, vbscript:, data:, file: and every other scheme never become link tokens.
  md.validateLink = (url: string) => safeHref(url, PROBE_BASE) !== undefined;
  md.core.ruler.push('devindex_safe_attrs', (state) => {
    fixLinks(state.tokens, state.env as RenderEnv);
  });

  md.renderer.rules.fence = (tokens, idx) => {
    const t = tokens[idx]!;
    const cls = languageClass(t.info);
    // A tab stop: a code block wider than the side bar scrolls sideways, and the keyboard must reach it (axe: scrollable-region-focusable).
    return `<pre class="md-code" tabindex="0"><code${cls ? ` class="${cls}"` : ''}>${escapeHtml(t.content)}</code></pre>\n`;
  };
  // Tables scroll sideways too (display: block; overflow-x: auto in webview.css).
  md.renderer.rules.table_open = () => '<table tabindex="0">\n';
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const t = tokens[idx]!;
    const alt = self.renderInlineAsText(t.children ?? [], options, env) || 'image';
    const src = t.attrGet('src');
    const label = `<span class="md-image-label">image:</span> ${escapeHtml(alt)}`;
    return src
      ? `<a class="md-image" href="${escapeHtml(String(src))}">${label}</a>`
      : `<span class="md-image">${label}</span>`;
  };
  return md;
}

let renderer: Renderer | undefined;

/** Safe HTML for one passage; relative links resolve against `baseUrl` (the result's url). */
export function renderMarkdown(text: string, baseUrl?: string): string {
  renderer ??= createRenderer();
  const env: RenderEnv = baseUrl ? { base: baseUrl } : {};
  return renderer.render(text, env);
}

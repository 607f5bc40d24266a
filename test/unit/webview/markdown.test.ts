// The passage renderer against hostile markdown: assertions on the HTML it produces (markdown-it runs
// the same in Node as in the webview).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { languageClass, renderMarkdown } from '../../../src/webview/app/markdown';
import { HOSTILE } from './fixtures/hostile';

const BASE = 'https://docs.example.com/guide/page.html';

/** Every tag the renderer produced, with its attributes. */
function tags(html: string): Array<{ name: string; attrs: Array<[string, string]> }> {
  const out: Array<{ name: string; attrs: Array<[string, string]> }> = [];
  for (const m of html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    const attrs = [...m[2]!.matchAll(/\s+([^\s=>]+)(?:="([^"]*)")?/g)].map(
      (a) => [a[1]!, a[2] ?? ''] as [string, string],
    );
    out.push({ name: m[1]!.toLowerCase(), attrs });
  }
  return out;
}

const ALLOWED_TAGS = new Set([
  'p',
  'a',
  'span',
  'em',
  'strong',
  'code',
  'pre',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'blockquote',
  'hr',
  'br',
  's',
]);
const ALLOWED_ATTRS = new Set(['href', 'title', 'class', 'start', 'tabindex']);

describe('markdown renderer: hostile passages', () => {
  it('has a corpus of at least 30 hostile passages', () => {
    assert.ok(HOSTILE.length >= 30, `${HOSTILE.length}`);
  });

  for (const h of HOSTILE) {
    it(`neutralises: ${h.name}`, () => {
      const html = renderMarkdown(h.text, BASE);
      for (const t of tags(html)) {
        assert.ok(ALLOWED_TAGS.has(t.name), `unexpected <${t.name}> in ${html}`);
        for (const [name, value] of t.attrs) {
          assert.ok(ALLOWED_ATTRS.has(name.toLowerCase()), `unexpected attribute ${name} in ${html}`);
          if (name === 'href') assert.match(value, /^(https?:\/\/[^\s"]+|mailto:[^\s"]+)$/, `href ${value}`);
          if (name === 'class') assert.match(value, /^[a-z0-9 _+#.-]+$/i, `class ${value}`);
          // Code blocks and tables scroll sideways, so the keyboard can focus them; nothing else gets a tab stop.
          if (name.toLowerCase() === 'tabindex')
            assert.ok(
              value === '0' && (t.name === 'pre' || t.name === 'table'),
              `tabindex ${value} on <${t.name}> in ${html}`,
            );
        }
      }
      // Raw HTML arrives escaped, never as markup (escaped text has no raw '<', so every '<…>' left is
      // a tag the renderer made); no scheme but http(s)/mailto survives as a link.
      const markup = (html.match(/<[^>]*>/g) ?? []).join('');
      const names = markup.replace(/="[^"]*"/g, '=""');
      assert.doesNotMatch(markup, /<(script|img|svg|iframe|object|embed|style|link|meta|base|form|input|body)\b/i);
      assert.doesNotMatch(names, /\s(on[a-z]+|id|name|style|src|srcdoc|action|formaction)=/i);
      assert.doesNotMatch(markup, /href="\s*(javascript|vbscript|data|file|command|vscode):/i);
    });
  }

  it('escapes raw HTML as text rather than dropping it', () => {
    assert.equal(renderMarkdown('<script>alert(1)</script>'), '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n');
  });

  it('keeps the words of a refused link', () => {
    const html = renderMarkdown('[run me](command:workbench.action.terminal.new) and <vscode://file/x>', BASE);
    assert.doesNotMatch(html, /<a /);
    assert.match(html, /run me/);
  });

  it('keeps a hostile title attribute inside its quotes', () => {
    const html = renderMarkdown('[x](https://example.com "a\\" onmouseover=\\"alert(1)")');
    assert.match(
      html,
      /^<p><a href="https:\/\/example\.com\/" title="a&quot; onmouseover=&quot;alert\(1\)">x<\/a><\/p>\n$/,
    );
  });
});

describe('markdown renderer: what passages need', () => {
  it('renders tables with alignment as classes, not style attributes', () => {
    const html = renderMarkdown('| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |');
    assert.match(html, /<th class="md-align-left">a<\/th>/);
    assert.match(html, /<td class="md-align-center">2<\/td>/);
    assert.match(html, /<td class="md-align-right">3<\/td>/);
    assert.doesNotMatch(html, /style=/);
  });

  it('renders fenced code with its language class, escaped', () => {
    const html = renderMarkdown('```TypeScript\nconst a: Array<string> = [];\n```');
    assert.equal(
      html,
      '<pre class="md-code" tabindex="0"><code class="language-typescript">const a: Array&lt;string&gt; = [];\n</code></pre>\n',
    );
  });

  it('drops a language name that is not plain', () => {
    assert.equal(languageClass('js" onclick="x'), undefined);
    assert.equal(languageClass('c++ {.numberLines}'), 'language-c++');
    assert.equal(languageClass(''), undefined);
  });

  it('resolves relative links against the result url and drops them without one', () => {
    assert.match(
      renderMarkdown('[next](../api/next.html#top)', BASE),
      /href="https:\/\/docs\.example\.com\/api\/next\.html#top"/,
    );
    assert.match(
      renderMarkdown('[here](#options)', BASE),
      /href="https:\/\/docs\.example\.com\/guide\/page\.html#options"/,
    );
    assert.doesNotMatch(renderMarkdown('[next](../api/next.html)'), /<a /);
    assert.doesNotMatch(renderMarkdown('[next](next.html)', 'javascript:alert(1)'), /<a /, 'a hostile base is no base');
  });

  it('turns images into links (no image loads) and keeps the alt text', () => {
    const html = renderMarkdown('![diagram](img/d.png)', BASE);
    assert.equal(
      html,
      '<p><a class="md-image" href="https://docs.example.com/guide/img/d.png"><span class="md-image-label">image:</span> diagram</a></p>\n',
    );
  });

  it('linkifies bare http urls and mail addresses', () => {
    assert.match(
      renderMarkdown('see https://nodejs.org/api/ and ops@example.com'),
      /<a href="https:\/\/nodejs\.org\/api\/">https:\/\/nodejs\.org\/api\/<\/a> and <a href="mailto:ops@example\.com">ops@example\.com<\/a>/,
    );
  });

  it('never emits ids on headings', () => {
    assert.equal(renderMarkdown('# app'), '<h1>app</h1>\n');
  });
});

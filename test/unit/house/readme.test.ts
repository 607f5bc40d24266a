// Issue 32 §7: the README is the Marketplace page, a short tour for the person who installs the extension;
// the reference lives in docs/. It stays at most 300 lines, keeps the two quick-start commands (CI runs the
// test one, .ci/run), and every link into docs/ names a file that exists and, after `#`, one of its headings.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findRepoRoot } from '../../../sandbox/serverParts';

const root = findRepoRoot(__dirname) ?? '.';
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** GitHub's anchor for a heading: lower case, markdown and punctuation dropped, spaces to hyphens. */
function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown file's headings (outside fenced code), numbered as GitHub does for repeats. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      continue;
    }
    const m = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const slug = headingSlug(m[1]!);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  }
  return out;
}

describe('the README', () => {
  it('is at most 300 lines', () => {
    const lines = readme.replace(/\n$/, '').split('\n').length;
    assert.ok(lines <= 300, `README.md has ${lines} lines: move reference text into docs/ and link to it`);
  });

  it('keeps the quick start: one command runs the extension, one runs the tests (CI runs that one)', () => {
    assert.match(readme, /^npm ci && npm start +# runs the extension for real/m);
    assert.match(readme, /^npm ci && npm test +# runs every test tier/m);
    assert.match(readFileSync(join(root, '.ci', 'run'), 'utf8'), /^npm test$/m);
  });

  it('links into docs/ resolve to an existing file and heading', () => {
    const links = [...readme.matchAll(/\]\((docs\/[^)\s]+)\)/g)].map((m) => m[1]!);
    assert.ok(links.length >= 10, `the README links its reference in docs/ (found ${links.length} links)`);
    const problems: string[] = [];
    for (const link of links) {
      const [file, anchor] = link.split('#') as [string, string | undefined];
      const abs = join(root, file);
      if (!existsSync(abs)) {
        problems.push(`${link}: no file ${file}`);
        continue;
      }
      if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(readFileSync(abs, 'utf8')).has(anchor))
        problems.push(`${link}: no heading #${anchor} in ${file}`);
    }
    assert.deepEqual(problems, []);
  });

  it('links each reference file in docs/ that holds what the README once said', () => {
    for (const f of [
      'USAGE.md',
      'AGENT-JOBS.md',
      'SETTINGS.md',
      'TROUBLESHOOTING.md',
      'CLI.md',
      'AGENTS.md',
      'DEVELOPMENT.md',
    ]) {
      assert.match(readme, new RegExp(`\\]\\(docs/${f.replace('.', '\\.')}(#[^)]*)?\\)`), `README links docs/${f}`);
    }
  });

  it("the anchor rule is GitHub's", () => {
    assert.equal(headingSlug("Ask `@devindex` in VS Code's chat"), 'ask-devindex-in-vs-codes-chat');
    assert.equal(headingSlug('In the browser (vscode.dev, github.dev)'), 'in-the-browser-vscodedev-githubdev');
    assert.equal(
      headingSlug('Versions and watches: which fix you have, which one you lack'),
      'versions-and-watches-which-fix-you-have-which-one-you-lack',
    );
    assert.deepEqual([...anchorsOf('# A\n```\n# not a heading\n```\n## A\n')], ['a', 'a-1']);
  });
});

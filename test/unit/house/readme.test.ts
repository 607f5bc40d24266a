// The README is the Marketplace page: it opens for the person who installs the extension, and the reference lives in
// docs/. It stays at most 300 lines, keeps the two quick-start commands under their own heading (CI runs the test one,
// .ci/run), and every link into docs/ names a file that exists and, after `#`, one of its headings.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findRepoRoot } from '../../../sandbox/serverParts';
import { anchorsOf, headingSlug } from '../../support/markdown';

const root = findRepoRoot(__dirname) ?? '.';
const readme = readFileSync(join(root, 'README.md'), 'utf8');

describe('the README', () => {
  it('is at most 300 lines', () => {
    const lines = readme.replace(/\n$/, '').split('\n').length;
    assert.ok(lines <= 300, `README.md has ${lines} lines: move reference text into docs/ and link to it`);
  });

  it('opens for the person who installs it: a picture, then Get started before any other heading', () => {
    const headings = [...readme.matchAll(/^## (.+)$/gm)];
    assert.equal(headings[0]?.[1], 'Get started');
    const picture = readme.search(/!\[[^\]]+\]\(docs\/images\/search-view\.png\)/);
    assert.ok(picture > 0 && picture < headings[0]!.index!, 'the Search view picture comes before "Get started"');
    assert.match(readme.slice(headings[0]!.index!, headings[1]?.index), /Set API Key[^]*keyless/);
  });

  it('keeps the quick start under its own heading: one command runs the extension, one runs the tests (CI runs that one)', () => {
    const start = readme.search(/^npm ci && npm start +# runs the extension for real/m);
    assert.ok(start > 0, 'npm ci && npm start');
    assert.match(readme, /^npm ci && npm test +# runs every test tier/m);
    const above = [...readme.slice(0, start).matchAll(/^## (.+)$/gm)].pop()?.[1];
    assert.equal(above, 'Working on the extension');
    assert.match(readFileSync(join(root, '.ci', 'run'), 'utf8'), /^npm test$/m);
  });

  it('has no heading that speaks of how the project was made', () => {
    for (const [file, text] of [
      ['README.md', readme],
      ...['USAGE.md', 'ARCHITECTURE.md', 'TESTING.md'].map((f) => [f, readFileSync(join(root, 'docs', f), 'utf8')]),
    ] as const)
      for (const [, h] of text.matchAll(/^#{1,6} (.+)$/gm))
        assert.doesNotMatch(h!, /\bissues? (\d|were|said)|where the issues/i, `${file}: ${h}`);
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

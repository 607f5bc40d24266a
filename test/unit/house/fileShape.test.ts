// The house's numbers for the shape of src/ (and sandbox/'s headers and issue numbers): few fragments, no file past
// 400 lines, short headers, no re-export-only file, lines that fit the page. Each check names the files that break it.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { findRepoRoot } from '../../../sandbox/serverParts';
import { sources } from '../../support/sourceImports';

const root = findRepoRoot(__dirname) ?? '.';
const read = (dir: string) =>
  sources(join(root, dir)).map((f) => ({ path: relative(root, f).replace(/\\/g, '/'), text: readFileSync(f, 'utf8') }));
const lines = (text: string) => text.replace(/\n$/, '').split('\n');

/** The `//` lines at the top of a file, before its first line of code. */
export function headerLines(text: string): number {
  let n = 0;
  for (const l of lines(text)) {
    if (l.startsWith('//')) n++;
    else break;
  }
  return n;
}

/** A file whose every statement is an `export … from` (a barrel: it only names code that lives elsewhere). */
export function onlyReExports(text: string): boolean {
  const code = text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
    .trim();
  if (!code) return false;
  return code
    .split(';')
    .every((s) => !s.trim() || /^export\s+(type\s+)?(\*|\{[^}]*\})\s+from\s+['"][^'"]+['"]$/.test(s.trim()));
}

/** Lines over 140 characters that hold no link (a URL may not be wrapped). */
export function longLines(text: string): number {
  return lines(text).filter((l) => l.length > 140 && !/https?:\/\//.test(l)).length;
}

describe('house: the shape of src/ and sandbox/', () => {
  const src = read('src');
  const sandbox = read('sandbox');

  it('the checks find what they are meant to find', () => {
    assert.equal(headerLines('// a\n// b\nimport x;\n// c\n'), 2);
    assert.equal(onlyReExports("// barrel\nexport { a } from './a';\nexport * from './b';\n"), true);
    assert.equal(onlyReExports("export { a } from './a';\nexport const b = 1;\n"), false);
    assert.equal(longLines(`// ${'x'.repeat(140)}\n// see https://example.com/${'y'.repeat(140)}\n`), 1);
  });

  it('at most 20 files under 30 lines in src/', () => {
    const small = src.filter((f) => lines(f.text).length < 30).map((f) => `${f.path} (${lines(f.text).length})`);
    assert.ok(small.length <= 20, `${small.length} files under 30 lines:\n${small.join('\n')}`);
  });

  it('no file over 400 lines in src/', () => {
    const big = src.filter((f) => lines(f.text).length > 400);
    assert.deepEqual(
      big.map((f) => `${f.path} (${lines(f.text).length})`),
      [],
    );
  });

  it('file headers of at most three lines', () => {
    const long = [...src, ...sandbox].filter((f) => headerLines(f.text) > 3);
    assert.deepEqual(
      long.map((f) => `${f.path} (${headerLines(f.text)})`),
      [],
    );
  });

  it('no file that only re-exports another, no export * in src/', () => {
    assert.deepEqual(
      src.filter((f) => onlyReExports(f.text) || /^export \* from/m.test(f.text)).map((f) => f.path),
      [],
    );
  });

  it('no issue numbers in the code (history lives in git and the CHANGELOG)', () => {
    const hits = [...src, ...sandbox].flatMap((f) =>
      lines(f.text)
        .map((l, i) => ({ l, i }))
        .filter(({ l }) => /\b[Ii]ssues? \d+\b/.test(l) && /\/\/|\*/.test(l))
        .map(({ i }) => `${f.path}:${i + 1}`),
    );
    assert.deepEqual(hits, []);
  });

  it('at most 20 lines over 140 characters in src/, links aside', () => {
    const found = src.filter((f) => longLines(f.text) > 0).map((f) => `${f.path} (${longLines(f.text)})`);
    const total = src.reduce((n, f) => n + longLines(f.text), 0);
    assert.ok(total <= 20, `${total} long lines:\n${found.join('\n')}`);
  });
});

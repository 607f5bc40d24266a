// Checks the fixture corpus in sandbox/corpus against the format contract of docs/ARCHITECTURE.md
// ("Corpus format") and the corpus's content minimums, so a malformed edit fails here rather than
// as a puzzling search result in the sandbox, the HTTP tests or the newcomer's demo.
import { test, describe } from 'node:test';
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

function findRepoRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = join(dir, '..');
    if (parent === dir) throw new Error(`no package.json above ${start}`);
    dir = parent;
  }
}

const root = findRepoRoot(__dirname);
const corpusDir = join(root, 'sandbox', 'corpus');

interface Source {
  id: string;
  name: string;
  baseUrl: string;
}
interface RepoTypes {
  issue: boolean;
  pullRequest: boolean;
  readme: boolean;
}
interface Repo {
  repo: string;
  indexed: boolean;
  types: RepoTypes;
  language: string;
  topics: string[];
  license: string;
  stars: number;
  archived: boolean;
  fork: boolean;
}
type Kind = 'doc' | 'skill' | 'readme' | 'issue' | 'pull_request';
interface CorpusFile {
  kind: Kind;
  rel: string;
  text: string;
  owner?: string;
  sourceId?: string;
}

function walk(dir: string, acc: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, acc);
    else acc.push(p);
  }
  return acc;
}

function posix(p: string): string {
  return p.split(sep).join('/');
}

function readJson(name: string): unknown {
  return JSON.parse(readFileSync(join(corpusDir, name), 'utf8')) as unknown;
}

const sources = readJson('sources.json') as Source[];
const repos = readJson('repos.json') as Repo[];
const sourceIds = new Set(Array.isArray(sources) ? sources.map((s) => s.id) : []);
const repoBySlug = new Map(Array.isArray(repos) ? repos.map((r) => [r.repo, r]) : []);

/** Every file under docs/ and repos/, classified by the path rules of the format. */
function loadFiles(): { files: CorpusFile[]; problems: string[] } {
  const files: CorpusFile[] = [];
  const problems: string[] = [];
  for (const abs of walk(join(corpusDir, 'docs'))) {
    const rel = posix(relative(corpusDir, abs));
    const parts = rel.split('/');
    const sourceId = parts[1] ?? '';
    const text = readFileSync(abs, 'utf8');
    if (!rel.endsWith('.md')) {
      problems.push(`${rel}: only .md files belong under docs/`);
      continue;
    }
    if (!sourceIds.has(sourceId)) {
      problems.push(`${rel}: folder ${sourceId} is not a source id in sources.json`);
      continue;
    }
    if (parts[2] === 'skills') {
      if (parts.length !== 5 || parts[4] !== 'SKILL.md')
        problems.push(`${rel}: skill files must be docs/<source>/skills/<name>/SKILL.md`);
      files.push({ kind: 'skill', rel, text, sourceId });
    } else {
      const path = parts.slice(2).join('/');
      if (!/^[a-z0-9][a-z0-9._/-]*\.md$/.test(path)) problems.push(`${rel}: doc path must be lower-case and URL-safe`);
      files.push({ kind: 'doc', rel, text, sourceId });
    }
  }
  for (const owner of readdirSync(join(corpusDir, 'repos')).sort()) {
    for (const name of readdirSync(join(corpusDir, 'repos', owner)).sort()) {
      const slug = `${owner}/${name}`;
      const base = join(corpusDir, 'repos', owner, name);
      if (!repoBySlug.has(slug)) problems.push(`repos/${slug}: folder not listed in repos.json`);
      for (const abs of walk(base)) {
        const rel = posix(relative(corpusDir, abs));
        const inRepo = posix(relative(base, abs));
        const text = readFileSync(abs, 'utf8');
        const m = /^(issues|pulls)\/([^/]+)\.md$/.exec(inRepo);
        if (inRepo === 'README.md') files.push({ kind: 'readme', rel, text, owner: slug });
        else if (m) {
          if (!/^[1-9][0-9]*$/.test(m[2] ?? '')) problems.push(`${rel}: ${m[1]} file name must be a positive integer`);
          files.push({ kind: m[1] === 'issues' ? 'issue' : 'pull_request', rel, text, owner: slug });
        } else problems.push(`${rel}: not README.md, issues/<n>.md or pulls/<n>.md`);
      }
    }
  }
  return { files, problems };
}

const { files, problems: pathProblems } = loadFiles();

const typeKey = { readme: 'readme', issue: 'issue', pull_request: 'pullRequest' } as const;

/** Whether the sandbox may return this file at all (indexed repository and type). */
function searchable(f: CorpusFile): boolean {
  if (f.kind === 'doc' || f.kind === 'skill') return true;
  const r = repoBySlug.get(f.owner ?? '');
  return !!r && r.indexed && r.types[typeKey[f.kind]];
}

function title(text: string): string | undefined {
  const first = text.split('\n', 1)[0] ?? '';
  return first.startsWith('# ') ? first.slice(2).trim() : undefined;
}

/** Fenced blocks with their info strings; `open` is set when a fence is never closed. */
function fences(text: string): { langs: string[]; open?: number } {
  const langs: string[] = [];
  let current: { ch: string; len: number; line: number } | undefined;
  text.split('\n').forEach((line, i) => {
    const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!m) return;
    const run = m[1] ?? '';
    const rest = (m[2] ?? '').trim();
    if (!current) {
      current = { ch: run[0] ?? '`', len: run.length, line: i + 1 };
      langs.push(rest.split(/\s+/)[0] ?? '');
    } else if (run[0] === current.ch && run.length >= current.len && rest === '') {
      current = undefined;
    }
  });
  return { langs, open: current?.line };
}

function stripFences(text: string): string {
  return text.replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1[ \t]*$/gm, '');
}

function hasTable(text: string): boolean {
  return /^\|.*\|[ \t]*\n\|[ \t:|-]*-{3,}[ \t:|-]*\|[ \t]*$/m.test(stripFences(text));
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

describe('corpus: sources.json', () => {
  test('is an array of at least 3 sources with id, name and baseUrl', () => {
    assert.ok(Array.isArray(sources), 'sources.json must be a JSON array');
    assert.ok(sources.length >= 3, `expected at least 3 sources, got ${sources.length}`);
    for (const s of sources) {
      assert.deepEqual(Object.keys(s).sort(), ['baseUrl', 'id', 'name'], JSON.stringify(s));
      assert.match(s.id, /^[a-z0-9][a-z0-9-]{0,63}$/, `source id ${s.id}`);
      assert.ok(s.name.trim().length > 0, `source ${s.id} has an empty name`);
      const u = new URL(s.baseUrl);
      assert.equal(u.protocol, 'https:', `source ${s.id} baseUrl must be https`);
      assert.ok(s.baseUrl.endsWith('/'), `source ${s.id} baseUrl must end with / so paths append`);
    }
    assert.equal(sourceIds.size, sources.length, 'source ids must be unique');
  });
});

describe('corpus: repos.json', () => {
  test('every entry has the documented shape, with camel-case pullRequest', () => {
    assert.ok(Array.isArray(repos), 'repos.json must be a JSON array');
    assert.ok(repos.length >= 7, `expected at least 7 repositories, got ${repos.length}`);
    for (const r of repos) {
      assert.deepEqual(
        Object.keys(r).sort(),
        ['archived', 'fork', 'indexed', 'language', 'license', 'repo', 'stars', 'topics', 'types'],
        r.repo,
      );
      assert.match(r.repo, /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/);
      assert.deepEqual(Object.keys(r.types).sort(), ['issue', 'pullRequest', 'readme'], `${r.repo} types`);
      for (const v of Object.values(r.types)) assert.equal(typeof v, 'boolean', `${r.repo} types`);
      for (const k of ['indexed', 'archived', 'fork'] as const) assert.equal(typeof r[k], 'boolean', `${r.repo}.${k}`);
      assert.ok(Number.isInteger(r.stars) && r.stars >= 0, `${r.repo}.stars must be an integer >= 0`);
      assert.ok(r.language.length > 0 && r.license.length > 0, `${r.repo} language/license`);
      assert.ok(
        Array.isArray(r.topics) && r.topics.length > 0 && r.topics.every((t) => /^[a-z0-9-]+$/.test(t)),
        `${r.repo}.topics must be non-empty lower-case slugs`,
      );
      if (!r.indexed)
        assert.deepEqual(
          r.types,
          { issue: false, pullRequest: false, readme: false },
          `${r.repo} is not indexed, so no type can be indexed`,
        );
    }
    assert.equal(repoBySlug.size, repos.length, 'repository slugs must be unique');
  });

  test('includes a not-indexed repository, a partially indexed one and an archived fork', () => {
    const notIndexed = repos.filter((r) => !r.indexed);
    const partial = repos.filter(
      (r) => r.indexed && Object.values(r.types).some(Boolean) && !Object.values(r.types).every(Boolean),
    );
    const archivedFork = repos.filter((r) => r.archived && r.fork && r.indexed);
    assert.ok(notIndexed.length >= 1, 'no repository with indexed: false');
    assert.ok(partial.length >= 1, 'no repository with only some types indexed');
    assert.ok(archivedFork.length >= 1, 'no indexed archived fork');
    for (const r of notIndexed) {
      assert.ok(
        files.some((f) => f.owner === r.repo),
        `${r.repo} is not indexed but has no files to prove it never matches`,
      );
    }
  });

  test('spreads languages, licenses and stars', () => {
    const languages = new Set(repos.map((r) => r.language));
    for (const l of ['TypeScript', 'Python', 'Rust', 'Go']) assert.ok(languages.has(l), `no ${l} repository`);
    const licenses = new Set(repos.map((r) => r.license));
    for (const l of ['MIT', 'Apache-2.0', 'GPL-3.0']) assert.ok(licenses.has(l), `no ${l} repository`);
    const stars = repos.map((r) => r.stars);
    assert.ok(Math.min(...stars) < 100, 'no repository with fewer than 100 stars');
    assert.ok(Math.max(...stars) >= 10_000, 'no repository with 10,000 stars or more');
  });

  test('every repository folder is listed and every listed repository has a folder', () => {
    assert.deepEqual(pathProblems, []);
    for (const r of repos) {
      assert.ok(existsSync(join(corpusDir, 'repos', ...r.repo.split('/'))), `repos/${r.repo} missing`);
    }
  });
});

describe('corpus: documents', () => {
  const searchableFiles = files.filter(searchable);
  const count = (k: Kind) => files.filter((f) => f.kind === k).length;

  test('meets the minimum counts', () => {
    assert.ok(files.length >= 75, `expected at least 75 documents, got ${files.length}`);
    assert.ok(count('doc') >= 24, `expected at least 24 doc pages, got ${count('doc')}`);
    assert.ok(count('skill') >= 3, `expected at least 3 skill files, got ${count('skill')}`);
    assert.ok(count('issue') >= 15, `expected at least 15 issues, got ${count('issue')}`);
    assert.ok(count('pull_request') >= 8, `expected at least 8 pull requests, got ${count('pull_request')}`);
    for (const id of sourceIds) {
      assert.ok(
        files.some((f) => f.kind === 'doc' && f.sourceId === id),
        `source ${id} has no doc page`,
      );
    }
    const contributing = new Set(searchableFiles.filter((f) => f.owner).map((f) => f.owner));
    assert.ok(
      contributing.size >= 6,
      `expected at least 6 indexed repositories with documents, got ${contributing.size}`,
    );
  });

  test('a partially indexed repository has a file of a type that is not indexed', () => {
    // Keeps the "types" trap in place: the sandbox must not return these files.
    const trap = files.filter((f) => f.owner && !searchable(f) && repoBySlug.get(f.owner)?.indexed);
    assert.ok(trap.length >= 1, 'no file under a non-indexed type of an indexed repository');
  });

  test('titles: repository files and skills have one, at least 2 doc pages have none', () => {
    for (const f of files) {
      if (f.kind !== 'doc') assert.ok(title(f.text), `${f.rel} must start with a "# " title line`);
      const t = title(f.text);
      if (t !== undefined) assert.ok(t.length > 0 && t.length <= 120, `${f.rel}: title must be 1-120 characters`);
    }
    const untitled = files.filter((f) => f.kind === 'doc' && title(f.text) === undefined);
    assert.ok(untitled.length >= 2, `expected at least 2 untitled doc pages, got ${untitled.length}`);
    for (const f of untitled)
      assert.doesNotMatch(f.text.split('\n', 1)[0] ?? '', /^#/, `${f.rel}: an untitled page should open with prose`);
  });

  test('files are clean UTF-8 markdown with LF endings and closed code fences', () => {
    for (const f of files) {
      assert.ok(!f.text.startsWith('\uFEFF'), `${f.rel} has a BOM`);
      assert.ok(!f.text.includes('\r'), `${f.rel} has CR characters`);
      assert.ok(!f.text.includes('\uFFFD'), `${f.rel} is not valid UTF-8`);
      assert.ok(f.text.endsWith('\n'), `${f.rel} must end with a newline`);
      assert.equal(
        fences(f.text).open,
        undefined,
        `${f.rel}: code fence opened on line ${fences(f.text).open} is never closed`,
      );
      assert.ok(words(f.text) >= 40, `${f.rel} is too short to be a realistic document`);
    }
  });

  test('many documents have markdown tables and language-tagged code blocks', () => {
    const withTable = files.filter((f) => hasTable(f.text));
    const withCode = files.filter((f) => fences(f.text).langs.some((l) => l.length > 0));
    assert.ok(withTable.length >= 30, `expected at least 30 documents with a table, got ${withTable.length}`);
    assert.ok(withCode.length >= 50, `expected at least 50 documents with a tagged code block, got ${withCode.length}`);
    const langs = new Set(files.flatMap((f) => fences(f.text).langs));
    for (const l of ['ts', 'js', 'json', 'sh', 'py', 'rust', 'go', 'text'])
      assert.ok(langs.has(l), `no code block tagged ${l}`);
    for (const kind of ['doc', 'issue', 'pull_request', 'readme'] as const) {
      assert.ok(
        withTable.some((f) => f.kind === kind),
        `no ${kind} with a table`,
      );
    }
  });

  test('lengths vary: mostly 150-700 words, some long documents with several headings', () => {
    const mid = files.filter((f) => words(f.text) >= 150 && words(f.text) <= 700).length;
    assert.ok(mid * 2 > files.length, `only ${mid} of ${files.length} documents have 150-700 words`);
    const long = files.filter((f) => words(f.text) >= 1500 && (f.text.match(/^## /gm) ?? []).length >= 4);
    assert.ok(long.length >= 3, `expected at least 3 documents of 1,500+ words with 4+ headings, got ${long.length}`);
  });

  test('topics overlap: demo queries find both docs and repository evidence', () => {
    const queries: string[][] = [
      ['retry-after', '429'],
      ['keep-alive', 'timeout', 'pool'],
      ['zod', 'unknown', 'strict'],
      ['webview', 'content security policy'],
      ['timeout', 'flaky'],
      ['rate limit'],
    ];
    for (const terms of queries) {
      const hits = searchableFiles.filter((f) => terms.every((t) => f.text.toLowerCase().includes(t)));
      assert.ok(
        hits.some((f) => f.kind === 'doc'),
        `no doc page contains all of ${terms.join(', ')}`,
      );
      assert.ok(
        hits.some((f) => f.kind === 'issue' || f.kind === 'pull_request'),
        `no indexed issue or pull request contains all of ${terms.join(', ')}`,
      );
    }
  });

  test('hostile but realistic passages are present in indexed issues', () => {
    const issues = searchableFiles.filter((f) => f.kind === 'issue');
    const scriptInFence = issues.some((f) => {
      const blocks = f.text.match(/^```[^\n]*\n[\s\S]*?^```$/gm) ?? [];
      return blocks.some((b) => b.includes('<script>alert(1)</script>'));
    });
    assert.ok(scriptInFence, 'no indexed issue quotes <script>alert(1)</script> in a code block');
    assert.ok(
      issues.some((f) => f.text.includes('[click](javascript:alert(1))')),
      'no indexed issue with a javascript: link',
    );
  });

  test('the corpus README names the special repositories', () => {
    const readme = readFileSync(join(corpusDir, 'README.md'), 'utf8');
    for (const r of repos.filter(
      (x) => !x.indexed || (x.archived && x.fork) || !Object.values(x.types).every(Boolean),
    )) {
      assert.ok(readme.includes(r.repo), `sandbox/corpus/README.md does not mention ${r.repo}`);
    }
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CheckedDependency, FixesOutcome } from '../../../src/fixes/report';
import { neededVersion, reportRows, summaryLine } from '../../../src/fixesView/fixRows';
import { fixDiagnostics, nameRange } from '../../../src/fixesView/fixDiagnostics';
import { workspaceDependencies } from '../../../src/fixesView/manifestLines';
import { mementoCache, FIXES_CACHE_KEY } from '../../../src/fixesView/mementoCache';
import { fixesText } from '../../../src/tools/fixesText';

const fetchline: CheckedDependency = {
  name: 'fetchline',
  ecosystem: 'npm',
  installed: '3.2.0',
  repository: 'fetchline/fetchline',
  manifest: { file: 'package.json', line: 6 },
  fixes: [
    {
      id: 'issue:fetchline/fetchline#472',
      url: 'https://github.com/fetchline/fetchline/issues/472',
      title: 'Retry-After ignored',
      kind: 'issue',
      fixedIn: '3.3.0',
    },
    {
      id: 'pr:fetchline/fetchline#476',
      url: 'https://github.com/fetchline/fetchline/pull/476',
      title: 'Honour Retry-After',
      kind: 'pull_request',
      fixedIn: '3.10.0',
    },
  ],
  affecting: [],
};
const trialrun: CheckedDependency = {
  name: 'trialrun',
  ecosystem: 'npm',
  installed: '1.0.0',
  repository: 'trialrun/trialrun',
  manifest: { file: 'package.json', line: 8 },
  fixes: [],
  affecting: [
    {
      id: 'issue:trialrun/trialrun#1240',
      url: 'https://github.com/trialrun/trialrun/issues/1240',
      title: 'Hangs on exit',
      kind: 'issue',
      affects: '1.0.x',
    },
  ],
};
const keel: CheckedDependency = {
  ...trialrun,
  name: 'keel-schema',
  installed: '2.6.0',
  repository: 'keelhq/keel-schema',
  affecting: [],
};

const outcome = (o: Partial<FixesOutcome['report']> = {}, stop?: FixesOutcome['stop']): FixesOutcome => ({
  report: { dependencies: [keel, trialrun, fetchline], skipped: [], unchecked: [], searches: 3, ...o },
  ...(stop ? { stop } : {}),
  fromCache: 0,
});

describe('Dependency Fixes rows', () => {
  it('a row per dependency with something to tell, fixes first: installed → fixed-in and how many', () => {
    const { dependencies, notes } = reportRows(outcome());
    assert.deepEqual(
      dependencies.map((d) => [d.label, d.description, d.contextValue]),
      [
        ['fetchline', '3.2.0 → 3.10.0 · 2 fixes', 'dependency;fixes'],
        ['trialrun', '1.0.0 · 1 open bug affecting it', 'dependency;affecting'],
      ],
    );
    assert.equal(dependencies[0]!.accessible, 'fetchline: 3.2.0 installed lacks 2 fixes, all in 3.10.0');
    assert.deepEqual(notes, []);
  });

  it('the newest fixed-in is compared by number, not as text', () => {
    assert.equal(neededVersion(fetchline), '3.10.0');
  });

  it('the skipped and the unchecked each in one line; a keyless quota stop offers the key', () => {
    const { notes } = reportRows(
      outcome(
        {
          skipped: [
            { name: 'gitlab-only', reason: 'repository on GitLab' },
            { name: 'no-repository', reason: 'its manifest names no repository' },
          ],
          unchecked: [{ name: 'shapeshift', reason: 'not checked: the service is rate limiting searches' }],
        },
        {
          reason: 'rate-limited',
          message: 'keyless daily quota used up',
          keyless: true,
          signupUrl: 'https://firecrawl.dev/k/x',
        },
      ),
    );
    assert.deepEqual(
      notes.map((n) => [n.label, n.contextValue]),
      [
        [
          'Skipped 2 dependencies: gitlab-only (repository on GitLab), no-repository (its manifest names no repository)',
          'note;skipped',
        ],
        [
          'Not checked (the search quota ran out): shapeshift (not checked: the service is rate limiting searches)',
          'note;unchecked;quota',
        ],
      ],
    );
    assert.match(notes[1]!.accessible, /Set an API key/);
  });

  it('nothing lacking says so in one row; the summary names the folder and the searches', () => {
    const o = outcome({ dependencies: [keel] });
    assert.equal(reportRows(o).notes[0]!.label, 'No fixes you lack in 1 dependency checked');
    assert.equal(
      summaryLine(outcome(), 'deps-fixture'),
      'deps-fixture: 1 dependency with fixes you lack (3 dependencies checked, 3 searches)',
    );
  });
});

describe('Dependency Fixes diagnostics', () => {
  it('one per dependency to tell about, on its manifest line, over the name', () => {
    const lines = [
      '{',
      '  "dependencies": {',
      '',
      '',
      '',
      '    "fetchline": "^2.1.0",',
      '',
      '    "trialrun": "^1.0.0"',
    ];
    const d = fixDiagnostics(outcome().report, (file, line) => (file === 'package.json' ? lines[line] : undefined));
    assert.deepEqual(
      d.map((x) => [x.file, x.line, x.start, x.end, x.key]),
      [
        ['package.json', 7, 5, 13, 'npm:trialrun'],
        ['package.json', 5, 5, 14, 'npm:fetchline'],
      ],
    );
    assert.equal(d[1]!.message, 'fetchline 3.2.0 lacks 2 fixes (in 3.10.0): Retry-After ignored; Honour Retry-After');
    assert.equal(d[0]!.message, '1 known bug affects 1.0.0, not fixed yet');
  });

  it('finds the name in go.mod, requirements.txt (PEP 503 names) and Cargo.toml; else the line without its indent', () => {
    assert.deepEqual(
      nameRange('\tgithub.com/gridworks/tollgate/v2 v2.1.0', {
        name: 'github.com/gridworks/tollgate/v2',
        ecosystem: 'go',
      }),
      { start: 1, end: 33 },
    );
    assert.deepEqual(nameRange('Http_Well==1.0', { name: 'http-well', ecosystem: 'pypi' }), { start: 0, end: 9 });
    assert.deepEqual(nameRange('ratelane = "0.4"', { name: 'ratelane', ecosystem: 'cargo' }), { start: 0, end: 8 });
    assert.deepEqual(nameRange('  "fetchline-extra": "1"', { name: 'fetchline', ecosystem: 'npm' }), {
      start: 2,
      end: 24,
    });
  });
});

describe("the browser's dependency list for a check", () => {
  it('places each dependency on its manifest line and words why one is skipped', async () => {
    const files: Record<string, string> = {
      'package.json': '{\n  "dependencies": {\n    "fetchline": "^2.1.0",\n    "gitlab-only": "^1"\n  }\n}',
      'requirements.txt': 'requests\nhttp_well==1.0\n',
    };
    const w = await workspaceDependencies(
      'vscode-vfs://github/a/b',
      [
        { ecosystem: 'npm', name: 'fetchline', slug: 'fetchline/fetchline', version: '3.2.0' },
        { ecosystem: 'npm', name: 'gitlab-only', reason: 'not-on-github' },
        { ecosystem: 'pypi', name: 'http-well', slug: 'httpwell/httpwell', version: '1.0' },
      ],
      async (f) => files[f],
    );
    assert.deepEqual(
      w.dependencies.map((d) => [d.name, d.manifest.file, d.manifest.line, d.repository ?? d.skipReason]),
      [
        ['fetchline', 'package.json', 3, 'fetchline/fetchline'],
        ['gitlab-only', 'package.json', 4, 'repository not on GitHub'],
        ['http-well', 'requirements.txt', 2, 'httpwell/httpwell'],
      ],
    );
  });
});

describe('the fixes cache in globalState', () => {
  it('keeps answers per key, drops those older than a day on write', async () => {
    const data = new Map<string, unknown>();
    const store = {
      get: <T>(k: string) => data.get(k) as T,
      update: async (k: string, v: unknown) => void data.set(k, v),
    };
    let now = 1_000_000_000;
    const cache = mementoCache(store, () => now);
    const key = { service: 's', ecosystem: 'npm', name: 'a', repository: 'a/a', installed: '1' };
    await cache.save([{ key, value: { at: now, fixes: [], affecting: [] } }]);
    assert.deepEqual(await cache.get(key), { at: now, fixes: [], affecting: [] });
    now += 25 * 3600_000;
    await cache.save([{ key: { ...key, name: 'b' }, value: { at: now, fixes: [], affecting: [] } }]);
    assert.deepEqual(Object.keys(data.get(FIXES_CACHE_KEY) as object).length, 1);
    assert.equal(await cache.get(key), undefined);
  });
});

describe('the fixes report for a model', () => {
  it('says where it comes from first, then each fix with its URL, then what was left out and how to go on', () => {
    const t = fixesText(
      outcome(
        {
          skipped: [{ name: 'gitlab-only', reason: 'repository on GitLab' }],
          unchecked: [{ name: 'shapeshift', reason: 'x' }],
        },
        {
          reason: 'rate-limited',
          message: 'keyless daily quota used up',
          keyless: true,
          signupUrl: 'https://firecrawl.dev/k/x',
        },
      ),
      '/p',
      12_000,
    );
    const lines = t.split('\n');
    assert.match(lines[0]!, /^Fixes check of \/p: 3 dependencies checked, 3 searches/);
    assert.match(
      t,
      /fetchline 3\.2\.0 installed \(npm, github\.com\/fetchline\/fetchline, package\.json:6\)\n- fixed in 3\.3\.0: Retry-After ignored \[issue\] https:\/\/github\.com\/fetchline\/fetchline\/issues\/472/,
    );
    assert.match(t, /- affects 1\.0\.x, no fix stated: Hangs on exit/);
    assert.match(t, /No fix lacking: keel-schema 2\.6\.0\./);
    assert.match(
      t,
      /Not checked \(keyless daily quota used up\): shapeshift\. Tell the user: .*Set API Key.*https:\/\/firecrawl\.dev\/k\/x/,
    );
  });

  it('is bounded, and names the dependencies it left out', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ ...fetchline, name: `pkg${i}` }));
    const t = fixesText(outcome({ dependencies: many }), '/p', 2000);
    assert.ok(t.length <= 2000, `${t.length}`);
    assert.match(t, /more dependencies with fixes not shown \(size limit\): .*pkg39\. Call again with dependencies/);
  });
});

// Server-side validation of developer search (spec 4.1 and section 8): every bound on both sides of
// its edge, in the GET and the POST form, unknown parameters, and the two accepted extras.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox } from '../../sandbox/server';
import { type Sandbox } from '../../sandbox/serverParts';
import { get, post, smallCorpus, type Query, type Reply } from './sandboxHelpers';

const PATH = '/v2/search/developer';
let sb: Sandbox;
before(async () => {
  sb = await startSandbox({
    port: 0,
    wire: 'spec',
    quiet: true,
    corpusDir: smallCorpus(),
    rateLimit: 0,
    keylessRateLimit: 0,
  });
});
after(async () => {
  await sb.close();
});

function assertBad(r: Reply, field: string, pattern: RegExp): void {
  assert.equal(r.status, 400, r.text);
  assert.equal(r.json.success, false);
  assert.equal(r.json.error, 'Bad Request');
  assert.ok(Array.isArray(r.json.details), 'details lists the issues');
  const issue = (r.json.details as Array<{ path: Array<string | number>; message: string; code: string }>).find(
    (d) => d.path[0] === field,
  );
  assert.ok(issue, `an issue for ${field} in ${r.text}`);
  assert.equal(typeof issue.code, 'string');
  assert.match(issue.message, pattern);
}
const ok = (r: Reply): void => {
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.success, true);
};
const q = (extra: Query): Query =>
  Array.isArray(extra) ? [['query', 'zephyr'], ...extra] : { query: 'zephyr', ...extra };

describe('sandbox validation: GET bounds', () => {
  it('query is required and at least 1 character', async () => {
    assertBad(await get(sb.url, PATH, {}), 'query', /query is required/);
    assertBad(await get(sb.url, PATH, { query: '' }), 'query', /query must be at least 1 character/);
    ok(await get(sb.url, PATH, { query: 'z' }));
  });

  const intCases: Array<[string, number, number | undefined]> = [
    ['k', 1, 100],
    ['passages', 1, 5],
    ['min_stars', 0, undefined],
    ['max_stars', 0, undefined],
  ];
  for (const [field, min, max] of intCases) {
    it(`${field}: integer from ${min}${max === undefined ? '' : ` to ${max}`}`, async () => {
      ok(await get(sb.url, PATH, q({ [field]: min })));
      assertBad(
        await get(sb.url, PATH, q({ [field]: min - 1 })),
        field,
        new RegExp(`${field} must be at least ${min} \\(got ${min - 1}\\)`),
      );
      if (max !== undefined) {
        ok(await get(sb.url, PATH, q({ [field]: max })));
        assertBad(
          await get(sb.url, PATH, q({ [field]: max + 1 })),
          field,
          new RegExp(`${field} must be at most ${max} \\(got ${max + 1}\\)`),
        );
      } else ok(await get(sb.url, PATH, q({ [field]: 1_000_000 })));
      assertBad(await get(sb.url, PATH, q({ [field]: '2.5' })), field, new RegExp(`${field} must be an integer`));
      assertBad(
        await get(sb.url, PATH, q({ [field]: 'ten' })),
        field,
        new RegExp(`${field} must be an integer \\(got "ten"\\)`),
      );
      assertBad(
        await get(
          sb.url,
          PATH,
          q([
            [field, '2'],
            [field, '3'],
          ]),
        ),
        field,
        new RegExp(`${field} must be an integer`),
      );
    });
  }

  it('types: only doc, issue, pull_request, readme', async () => {
    ok(await get(sb.url, PATH, q([['types', 'doc,issue,pull_request,readme']])));
    assertBad(
      await get(sb.url, PATH, q({ types: 'issues' })),
      'types',
      /one of doc, issue, pull_request, readme \(got "issues"\)/,
    );
    assertBad(
      await get(
        sb.url,
        PATH,
        q([
          ['types', 'doc'],
          ['types', 'pr'],
        ]),
      ),
      'types',
      /\(got "pr"\)/,
    );
  });

  it('sources: at most 20 ids, each 1 to 512 characters', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`);
    ok(await get(sb.url, PATH, q([['sources', ids(20).join(',')]])));
    assertBad(await get(sb.url, PATH, q([['sources', ids(21).join(',')]])), 'sources', /at most 20 ids \(got 21\)/);
    ok(await get(sb.url, PATH, q({ sources: 'x'.repeat(512) })));
    assertBad(
      await get(sb.url, PATH, q({ sources: 'x'.repeat(513) })),
      'sources',
      /1 to 512 characters long \(got 513 characters\)/,
    );
    assertBad(await get(sb.url, PATH, q({ sources: 'alpha-docs,' })), 'sources', /1 to 512 characters long \(got ""\)/);
  });

  it('repos: slugs <owner>/<repo>', async () => {
    ok(await get(sb.url, PATH, q({ repos: 'acme/widgets,a.b/c-d_e' })));
    for (const bad of ['acme', 'acme/widgets/extra', '/widgets', 'acme/']) {
      assertBad(await get(sb.url, PATH, q({ repos: bad })), 'repos', /slug <owner>\/<repo>/);
    }
  });

  it('skills: only the value "only"', async () => {
    ok(await get(sb.url, PATH, q({ skills: 'only' })));
    assertBad(await get(sb.url, PATH, q({ skills: 'all' })), 'skills', /skills must be "only" \(got "all"\)/);
  });

  it('archived and fork: true or false', async () => {
    for (const field of ['archived', 'fork']) {
      ok(await get(sb.url, PATH, q({ [field]: 'true' })));
      ok(await get(sb.url, PATH, q({ [field]: 'false' })));
      assertBad(
        await get(sb.url, PATH, q({ [field]: 'yes' })),
        field,
        new RegExp(`${field} must be true or false \\(got "yes"\\)`),
      );
    }
  });

  it('language, topic and license take any string', async () => {
    ok(await get(sb.url, PATH, q({ language: 'C++', topic: 'a b', license: '' })));
  });

  it('rejects an unknown parameter and accepts origin and integration', async () => {
    const r = await get(sb.url, PATH, q({ limit: 5 }));
    assert.equal(r.status, 400);
    assert.deepEqual(r.json.details, [
      { code: 'unrecognized_keys', keys: ['limit'], path: [], message: 'Unrecognized parameter: limit' },
    ]);
    ok(await get(sb.url, PATH, q({ origin: 'js-sdk@4.0.0', integration: 'vscode' })));
  });

  it('reports every failing field at once', async () => {
    const r = await get(sb.url, PATH, { query: '', k: 0, passages: 9 });
    assert.deepEqual((r.json.details as Array<{ path: string[] }>).map((d) => d.path[0]).sort(), [
      'k',
      'passages',
      'query',
    ]);
  });
});

describe('sandbox validation: POST body', () => {
  it('applies the same bounds to a JSON body', async () => {
    ok(
      await post(sb.url, PATH, {
        query: 'zephyr',
        k: 100,
        passages: 5,
        sources: Array.from({ length: 20 }, (_, i) => `s${i}`),
        min_stars: 0,
      }),
    );
    assertBad(await post(sb.url, PATH, { query: 'zephyr', k: 101 }), 'k', /at most 100/);
    assertBad(await post(sb.url, PATH, { query: 'zephyr', passages: 0 }), 'passages', /at least 1/);
    assertBad(await post(sb.url, PATH, { query: 'zephyr', sources: [''] }), 'sources', /1 to 512/);
    assertBad(await post(sb.url, PATH, { query: 'zephyr', max_stars: -1 }), 'max_stars', /at least 0/);
  });

  it('takes JSON types strictly: numbers, booleans and arrays must be JSON values', async () => {
    assertBad(await post(sb.url, PATH, { query: 'zephyr', k: '10' }), 'k', /k must be an integer \(got "10"\)/);
    assertBad(await post(sb.url, PATH, { query: 'zephyr', archived: 'true' }), 'archived', /true or false/);
    assertBad(await post(sb.url, PATH, { query: 'zephyr', types: 'doc' }), 'types', /array of strings/);
    assertBad(await post(sb.url, PATH, { query: 42 }), 'query', /query must be a string \(got 42\)/);
  });

  it('rejects an unknown key and accepts origin and integration (the official SDK sends origin)', async () => {
    const r = await post(sb.url, PATH, { query: 'zephyr', limit: 3, scrapeOptions: {} });
    assert.equal(r.status, 400);
    assert.deepEqual(r.json.details[0].keys, ['limit', 'scrapeOptions']);
    ok(await post(sb.url, PATH, { query: 'zephyr', origin: 'js-sdk@4.3.0', integration: 'x' }));
    assertBad(await post(sb.url, PATH, { query: 'zephyr', origin: 7 }), 'origin', /origin must be a string/);
  });

  it('answers 400 to a body that is not JSON or not an object', async () => {
    const bad = await post(sb.url, PATH, '{"query":');
    assert.equal(bad.status, 400);
    assert.equal(bad.json.error, 'Bad Request');
    assert.equal(bad.json.details[0].code, 'invalid_json');
    for (const body of ['[]', '"zephyr"', '']) {
      const r = await post(sb.url, PATH, body);
      assert.equal(r.status, 400, body);
      assert.match(r.json.details[0].message, /must be a JSON object/);
    }
  });

  it('answers 413 to a body over the size limit', async () => {
    const r = await post(sb.url, PATH, { query: 'x'.repeat(1024 * 1024 + 10) });
    assert.equal(r.status, 413);
    assert.deepEqual(r.json, { success: false, error: 'Payload Too Large' });
  });
});

describe('sandbox: paths', () => {
  it('answers 404 Not Found for unknown paths and methods', async () => {
    for (const path of ['/v2/search/developer/search', '/v2/developer/search', '/v1/search', '/']) {
      const r = await get(sb.url, path, { query: 'x' });
      assert.equal(r.status, 404, path);
      assert.deepEqual(r.json, { success: false, error: 'Not Found' });
    }
    const put = await fetch(`${sb.url}${PATH}?query=x`, { method: 'PUT' });
    assert.equal(put.status, 404);
    await put.text();
    const control = await get(sb.url, '/__sandbox/requests');
    assert.equal(control.status, 404, 'control endpoints exist only in test mode');
  });
});

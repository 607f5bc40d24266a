// dist/sandbox.js as a spawned process: first line, --corpus, --key, --faults, the rate-limit flags,
// flag errors, and a clean exit on SIGTERM and SIGINT. Needs the product bundles (build with --bundles).
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { get, post, repoRoot, smallCorpus } from './sandboxHelpers';

const bin = (): string => {
  const p = join(repoRoot(), 'dist', 'sandbox.js');
  assert.ok(existsSync(p), `${p} missing: build with node scripts/build.mjs`);
  return p;
};

interface Running {
  child: ChildProcess;
  firstLine: string;
  url: string;
  exited: Promise<number | null>;
}

function start(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, [bin(), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no first line within 30 s; stderr: ${err}`));
    }, 30_000);
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        const firstLine = out.slice(0, nl);
        resolve({ child, firstLine, url: firstLine.replace(/^sandbox listening on /, ''), exited });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before listening: ${err}`));
    });
  });
}

function bounded<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      t = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(t));
}

describe('sandbox CLI', () => {
  it('the production flags: --keyless-daily, --keyless-retry-after, --license-keyed (keyed-only license), --passage-budget, --threads-disabled', async () => {
    const key = { authorization: 'Bearer cli-key-19' };
    const s = await start([
      '--port',
      '0',
      '--key',
      'cli-key-19',
      '--license-keyed',
      '--keyless-daily',
      '1',
      '--keyless-retry-after',
      '--passage-budget',
      '3',
      '--threads-disabled',
      '--agent-speed',
      '50',
    ]);
    try {
      const q = { query: 'retry', types: 'issue,readme', k: 10, passages: 2 };
      const first = await get(s.url, '/v2/search/developer', q);
      assert.equal(first.status, 200);
      assert.ok(
        first.json.results.every((x: { license?: unknown }) => x.license === undefined),
        'no license for a keyless caller',
      );
      assert.equal(first.json.passage_budget_applied, 10, '--passage-budget 3 (raised to one passage a result)');
      const over = await get(s.url, '/v2/search/developer', q);
      assert.equal(over.status, 429, '--keyless-daily 1');
      assert.equal(over.headers.get('retry-after'), String(over.json.retry_after_seconds), '--keyless-retry-after');
      const keyed = await get(s.url, '/v2/search/developer', q, key);
      assert.ok(keyed.json.results.some((x: { license?: unknown }) => x.license !== undefined));
      const started = await post(s.url, '/v2/agent', { prompt: 'p' }, key);
      assert.equal(started.status, 200);
      const followUp = await post(s.url, '/v2/agent', { prompt: 'p', threadId: started.json.threadId }, key);
      assert.equal(followUp.json.code, 'threads_disabled', '--threads-disabled');
    } finally {
      s.child.kill('SIGTERM');
    }
    assert.equal(await bounded(s.exited, 15_000, 'exit'), 0);
  });

  it('prints the listening line first, serves the given corpus and keys, and exits 0 on SIGTERM', async () => {
    const s = await start([
      '--port',
      '0',
      '--wire',
      'spec',
      '--corpus',
      smallCorpus(),
      '--key',
      'cli-key-1',
      '--key',
      'cli-key-2',
      '--faults',
      '--keyless-rate-limit',
      '2',
      '--rate-limit',
      '3',
    ]);
    try {
      assert.match(s.firstLine, /^sandbox listening on http:\/\/127\.0\.0\.1:\d+$/);
      assert.notEqual(s.url.endsWith(':0'), true);
      const r = await get(s.url, '/v2/search/developer', { query: 'quokka' });
      assert.equal(r.json.results[0].id, 'doc:alpha-docs/guide/retries', 'the fixture corpus is served');
      assert.equal(
        (await get(s.url, '/v2/search/developer', { query: 'x' }, { authorization: 'Bearer cli-key-2' })).status,
        200,
      );
      assert.equal(
        (await get(s.url, '/v2/search/developer', { query: 'x' }, { authorization: 'Bearer cli-key-3' })).status,
        401,
      );
      assert.equal((await get(s.url, '/v2/search/developer', { query: 'x' })).status, 200);
      assert.equal((await get(s.url, '/v2/search/developer', { query: 'x' })).status, 429, '--keyless-rate-limit 2');
      assert.equal(
        (await post(s.url, '/__sandbox/faults', { faults: [] })).status,
        200,
        '--faults enables the control endpoints',
      );
    } finally {
      s.child.kill('SIGTERM');
    }
    assert.equal(await bounded(s.exited, 15_000, 'exit after SIGTERM'), 0);
  });

  it("serves the production wire by default and the specification's with --wire spec", async () => {
    const prod = await start(['--port', '0', '--corpus', smallCorpus()]);
    const spec = await start(['--port', '0', '--corpus', smallCorpus(), '--wire', 'spec']);
    try {
      const p = await get(prod.url, '/v2/search/developer', { query: 'quokka' });
      assert.equal(p.json.results[0].type, undefined, 'production results carry no type');
      assert.match(p.json.results[0].id, /^doc:https:\/\//, 'production doc ids are doc:<url>');
      assert.equal(p.json.coverage, undefined);
      const s = await get(spec.url, '/v2/search/developer', { query: 'quokka' });
      assert.equal(s.json.results[0].type, 'doc');
      assert.equal(s.json.results[0].id, 'doc:alpha-docs/guide/retries');
      assert.ok(s.json.coverage);
    } finally {
      prod.child.kill('SIGTERM');
      spec.child.kill('SIGTERM');
    }
    await bounded(Promise.all([prod.exited, spec.exited]), 15_000, 'exit after SIGTERM');
  });

  it('exits 0 on SIGINT, and has no control endpoints without --faults', async () => {
    const s = await start(['--port', '0', '--corpus', smallCorpus()]);
    try {
      assert.equal((await get(s.url, '/__sandbox/requests')).status, 404);
    } finally {
      s.child.kill('SIGINT');
    }
    assert.equal(await bounded(s.exited, 15_000, 'exit after SIGINT'), 0);
  });

  it('rejects a bad flag with exit code 2', async () => {
    for (const args of [['--port', 'abc'], ['--nope'], ['--rate-limit', '-1'], ['--wire', 'staging']]) {
      const child = spawn(process.execPath, [bin(), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (c: Buffer) => {
        err += c.toString();
      });
      const code = await bounded(
        new Promise<number | null>((resolve) => child.on('exit', resolve)),
        15_000,
        args.join(' '),
      );
      assert.equal(code, 2, args.join(' '));
      assert.match(err, /^sandbox: /);
    }
  });
});

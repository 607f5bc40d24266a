// `node dist/cli.js` as a process against the sandbox: threads, chat answers, approvals and
// the thread errors on the production wire, the same commands on the specification wire, and the
// keyless daily quota and refusals. Build with --bundles first.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../sandbox/server';
import { type Sandbox } from '../../sandbox/serverParts';
import { runCliProcess } from './cliProcess';

const KEY = 'sandbox-cli-today-key-0001';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe('devindex agent: threads, chat answers and approvals (production wire)', () => {
  let sb: Sandbox;
  let dir: string;
  // DEVINDEX_POLL_MS: the follower's schedule in test time (a waiting run is noticed when its trace goes quiet).
  const env = () => ({
    DEVINDEX_API_KEY: KEY,
    DEVINDEX_BASE_URL: sb.url,
    DEVINDEX_CONFIG_DIR: dir,
    DEVINDEX_POLL_MS: '250',
  });
  const agent = (...args: string[]) => runCliProcess(['agent', ...args], env());

  before(async () => {
    sb = await startSandbox({ port: 0, keys: [KEY], faults: true, agentSpeed: 50, quiet: true, wire: 'production' });
    dir = mkdtempSync(join(tmpdir(), 'devindex-cli-today-'));
  });
  after(async () => {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a chat run prints its answer and suggestions; --continue asks a follow-up as turn 2; agent thread lists both turns', async () => {
    const first = await agent('start', 'How does fetchline retry?', '--mode', 'chat', '--wait');
    assert.equal(first.code, 0, first.err);
    const thread = new RegExp(`thread (${UUID.source}), turn 1`).exec(first.out)?.[1];
    assert.ok(thread, first.out);
    assert.match(first.out, /suggested follow-ups:\n {2}.+: devindex agent start --thread [0-9a-f-]{36} '.+'/);
    assert.doesNotMatch(first.out, /^null$/m);

    const second = await agent('start', 'And the default?', '--continue', '--mode', 'chat', '--wait');
    assert.equal(second.code, 0, second.err);
    assert.match(second.out, new RegExp(`thread ${thread}, turn 2`));

    const t = await agent('thread', thread!);
    assert.equal(t.code, 0, t.err);
    assert.match(t.out, /turn 1 .*How does fetchline retry\?/);
    assert.match(t.out, /turn 2 .*And the default\?/);

    const status = await agent('status', new RegExp(`Started agent job (${UUID.source})`).exec(second.out)![1]!);
    assert.match(status.out, /answer:\n {2}\S/);
    assert.match(status.out, new RegExp(`thread: +${thread}, turn 2`));
  });

  test('a run that waits: --wait stops with the approve and decline commands; --approve starts the next turn, which finishes with its paid calls', async () => {
    const w = await agent('start', 'Open an issue for this APPROVAL', '--wait');
    assert.equal(w.code, 1, w.err);
    assert.match(w.out, /waits for your approval; it goes on only once you answer/);
    assert.match(
      w.out,
      /waiting for: +approval of 2 paid calls \(at least 10 credits\): github issues\/create, github issues\/add-labels/,
    );
    assert.match(w.out, /call \S+: github issues\/create \(about 10 credits\)/);
    assert.match(w.out, /call \S+: github issues\/add-labels \(no estimate\)/);
    const cmd = /approve: devindex agent start --thread (\S+) --approve (\S+)/.exec(w.out);
    assert.ok(cmd, w.out);
    const job = new RegExp(`Started agent job (${UUID.source})`).exec(w.out)![1]!;
    const st = await agent('status', job);
    assert.match(st.out, /status: +waiting for your approval \(the service's status: processing\)/);
    const ok = await agent('start', '--thread', cmd[1]!, '--approve', cmd[2]!, '--wait');
    assert.equal(ok.code, 0, `${ok.out}\n${ok.err}`);
    const next = new RegExp(
      `Approved ${cmd[2]}; agent job (${UUID.source}) goes on \\(thread ${cmd[1]}, turn 2\\)`,
    ).exec(ok.out);
    assert.ok(next, ok.out);
    assert.notEqual(next[1], job, "the answer is the thread's next turn");
    assert.match(ok.out, /completed/);
    assert.match(ok.out, /paid calls: +2 paid calls, 30 credits/);
    const before = await agent('status', job);
    assert.doesNotMatch(before.out, /waiting for your approval/, 'the answered turn no longer waits');
  });

  // Before the terms test: once this key's team accepted the terms, nothing is skipped any more.
  test('a finished run with paid calls names the provider it skipped, its terms and how to include it', async () => {
    const r = await agent('start', 'PAID-CALLS: download counts', '--toolkits', 'devdata', '--wait');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /paid calls: +2 paid calls, 30 credits/);
    assert.match(r.out, /skipped: +\S.* was skipped: its data terms \(version \S+\) are not accepted/);
    assert.match(
      r.out,
      / {2}terms: https:\/\/\S+\n {2}to include it next time: accept its terms there, or start with --on-terms ask/,
    );
  });

  test('terms: status says so first even though the turn completed; --approve without --accept-terms is exit 2, with it the terms are accepted, then approved', async () => {
    const w = await agent('start', 'Compare APPROVAL-TERMS providers', '--mode', 'chat', '--wait');
    assert.equal(w.code, 1, w.err);
    const job = new RegExp(`Started agent job (${UUID.source})`).exec(w.out)![1]!;
    const st = await agent('status', job);
    assert.match(st.out, /status: +waiting for your approval \(the service's status: completed\)/);
    assert.match(st.out, /data terms, version \S+: https:\/\//);
    const cmd =
      /agree: +read the terms above, then: devindex agent start --thread (\S+) --approve (\S+) --accept-terms/.exec(
        st.out,
      );
    assert.ok(cmd, st.out);
    const refused = await agent('start', '--thread', cmd[1]!, '--approve', cmd[2]!);
    assert.equal(refused.code, 2, refused.err);
    assert.match(
      refused.err,
      /asks you to accept data terms:[\s\S]*run the same command with --accept-terms \(nothing was sent\)/,
    );
    const ok = await agent('start', '--thread', cmd[1]!, '--approve', cmd[2]!, '--accept-terms');
    assert.equal(ok.code, 0, `${ok.out}\n${ok.err}`);
    assert.match(ok.err, /accepted .* data terms.* for your team/);
    assert.match(ok.out, new RegExp(`Approved ${cmd[2]}; agent job ${UUID.source} goes on`));
  });

  test('a follow-up while a turn runs is exit 1 naming the running job; an unknown thread is exit 1 with its words', async () => {
    const started = await agent('start', 'A SLOW survey of retry libraries');
    const thread = new RegExp(`thread (${UUID.source})`).exec(started.out)![1]!;
    const job = new RegExp(`Started agent job (${UUID.source})`).exec(started.out)![1]!;
    const busy = await agent('start', 'and then?', '--thread', thread);
    assert.equal(busy.code, 1);
    assert.match(busy.err, new RegExp(`a turn of this thread is still running \\(job ${job}\\)`));
    await agent('cancel', job);
    const unknown = await agent('start', 'and then?', '--thread', '9d0c7a52-2f1e-4c8b-9a44-6f1b3c2d1e00');
    assert.equal(unknown.code, 1);
    assert.match(unknown.err, /no thread 9d0c7a52-2f1e-4c8b-9a44-6f1b3c2d1e00 for this API key/);
  });

  test('a trace prints an assistant.message as text and folds usage.recorded away', async () => {
    const r = await agent('start', 'Explain retries', '--mode', 'chat', '--wait');
    assert.equal(r.code, 0, r.err);
    const job = new RegExp(`Started agent job (${UUID.source})`).exec(r.out)![1]!;
    const t = await agent('trace', job);
    assert.match(t.out, /: answer: \S/);
    assert.doesNotMatch(t.out, /usage/);
    assert.doesNotMatch(t.out, /\{"text":/);
    const j = await agent('trace', job, '--json');
    assert.match(j.out, /"usage\.recorded"/, 'kept in the JSON');
  });
});

describe('devindex agent with the new options (specification wire)', () => {
  let sb: Sandbox;
  let dir: string;
  before(async () => {
    sb = await startSandbox({ port: 0, keys: [KEY], faults: true, agentSpeed: 50, quiet: true, wire: 'spec' });
    dir = mkdtempSync(join(tmpdir(), 'devindex-cli-today-spec-'));
  });
  after(async () => {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a start without thread fields prints no thread and --continue says nothing is remembered', async () => {
    const env = { DEVINDEX_API_KEY: KEY, DEVINDEX_BASE_URL: sb.url, DEVINDEX_CONFIG_DIR: dir };
    const r = await runCliProcess(['agent', 'start', 'Collect things', '--wait'], env);
    assert.equal(r.code, 0, r.err);
    assert.doesNotMatch(r.out, /thread/);
    const c = await runCliProcess(['agent', 'start', 'more', '--continue'], env);
    assert.equal(c.code, 2);
    assert.match(c.err, /no thread started by this CLI .* is remembered/);
  });
});

describe('devindex search: the keyless daily quota and refusals', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({
      port: 0,
      keys: [KEY],
      faults: true,
      quiet: true,
      keylessDaily: 1,
      keylessRateLimit: 0,
      rateLimit: 0,
    });
  });
  after(async () => {
    await sb.close();
  });
  beforeEach(async () => {
    await fetch(`${sb.url}/__sandbox/keyless`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refuse: null, reset: true }),
    });
  });

  test('over the quota: human time, never seconds, one request, and the way out is DEVINDEX_API_KEY; with a key the search goes on', async () => {
    const env = { DEVINDEX_BASE_URL: sb.url };
    assert.equal((await runCliProcess(['search', 'retry'], env)).code, 0);
    const started = Date.now();
    const over = await runCliProcess(['search', 'retry'], env);
    assert.equal(over.code, 1);
    assert.match(over.err, /Keyless searches are used up until \d\d:\d\d( tomorrow)? \(in \d+ (h|min|s)\)/);
    assert.match(over.err, /set DEVINDEX_API_KEY/);
    assert.doesNotMatch(over.err, /\d{4,} s|retrying/);
    assert.ok(Date.now() - started < 10_000, 'not waited');
    const keyed = await runCliProcess(['search', 'retry'], { ...env, DEVINDEX_API_KEY: KEY });
    assert.equal(keyed.code, 0, keyed.err);
  });

  test("a keyless 403 says keyless access is refused for this network and never speaks of the user's key", async () => {
    await fetch(`${sb.url}/__sandbox/keyless`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refuse: 'suspicious' }),
    });
    const r = await runCliProcess(['search', 'retry'], { DEVINDEX_BASE_URL: sb.url });
    assert.equal(r.code, 1);
    assert.match(r.err, /refuses keyless searches from this network because its address looks like a proxy or VPN/);
    assert.match(r.err, /set DEVINDEX_API_KEY/);
    assert.doesNotMatch(r.err, /lacks permission|replace the API key/);
  });
});

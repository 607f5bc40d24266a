// `node dist/cli.js agent …` as a separate process against the sandbox (build with --bundles first).
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VERSION } from '../../src/api/version';
import { startSandbox } from '../../sandbox/server';
import { findRepoRoot, type Sandbox } from '../../sandbox/serverParts';
import { until } from '../support/until';

const KEY = 'sandbox-cli-agent-key';
const UUID_UNKNOWN = '123e4567-e89b-42d3-a456-426614174000';
const WIRES = ['production', 'spec'] as const;
let sb: Sandbox;
let cli: string;
let dir: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, 'agent', ...args],
      {
        env: { PATH: process.env.PATH, DEVINDEX_API_KEY: KEY, DEVINDEX_BASE_URL: sb.url, ...env },
        timeout: 30_000,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 99) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Reads the job's status through the CLI until the run has ended (the sandbox runs it at agentSpeed 50). */
function ended(id: string): Promise<string> {
  return until(
    async () => (JSON.parse((await run(['status', id, '--json'])).stdout) as { status: string }).status,
    (s) => ['completed', 'failed', 'cancelled'].includes(s),
    { timeoutMs: 20_000, message: (s) => `job ${id} still ${s}` },
  );
}

async function requests(): Promise<Array<{ method: string; path: string }>> {
  const r = await fetch(`${sb.url}/__sandbox/requests`, { signal: AbortSignal.timeout(5000) });
  return ((await r.json()) as { requests: Array<{ method: string; path: string }> }).requests;
}

for (const wire of WIRES) {
  describe(`devindex agent against the sandbox (${wire} wire)`, () => {
    before(async () => {
      const root = findRepoRoot(__dirname);
      assert.ok(root, 'repository root');
      cli = join(root, 'dist', 'cli.js');
      assert.ok(existsSync(cli), 'dist/cli.js exists (build with --bundles)');
      sb = await startSandbox({ port: 0, keys: [KEY], faults: true, agentSpeed: 50, quiet: true, wire });
      dir = mkdtempSync(join(tmpdir(), 'devindex-agent-cli-'));
    });

    after(async () => {
      await sb.close();
      rmSync(dir, { recursive: true, force: true });
    });

    beforeEach(async () => {
      await fetch(`${sb.url}/__sandbox/faults`, { method: 'DELETE' });
      await fetch(`${sb.url}/__sandbox/requests`, { method: 'DELETE' });
    });

    test('start --wait follows the run to completion and exits 0', async () => {
      const schema = join(dir, 'schema.json');
      writeFileSync(schema, JSON.stringify({ type: 'object', properties: { libraries: { type: 'array' } } }));
      const r = await run([
        'start',
        'Find HTTP client libraries',
        '--urls',
        'https://a.example/,https://b.example/',
        '--schema',
        schema,
        '--max-credits',
        '400',
        '--effort',
        'low',
        '--wait',
      ]);
      assert.equal(r.code, 0, r.stderr);
      // The production wire opens a thread with every start, and the line says which.
      assert.match(
        r.stdout,
        wire === 'production'
          ? /^Started agent job [0-9a-f-]{36} \(thread [0-9a-f-]{36}, turn 1\)\n/
          : /^Started agent job [0-9a-f-]{36}\n/,
      );
      const lines = r.stdout.split('\n');
      const started = lines.findIndex((l) => l.includes('run started'));
      const finished = lines.findIndex((l) => l.includes('run finished: succeeded'));
      assert.ok(started > 0 && finished > started);
      assert.ok(
        lines.findIndex((l) => l.includes('parent_finished')) > finished,
        'late events are printed after run.finished',
      );
      assert.match(r.stdout, /Agent job "Find HTTP client libraries" completed using \d+ credits\./);
      assert.match(r.stdout, /"libraries"/);
      const posts = (await requests()).filter((q) => q.method === 'POST');
      assert.equal(posts.length, 1);
    });

    test('start --wait on a refused run exits 1 and says why', async () => {
      const r = await run(['start', 'please REFUSE', '--wait']);
      assert.equal(r.code, 1);
      assert.match(
        r.stdout,
        /The agent declined job "please REFUSE" and it is not billed; rephrase the prompt and start it again\.\n/,
      );
      assert.match(r.stdout, /The service said: The agent refused the task/, "the service's reason on its own line");
    });

    test('start --wait --json prints one JSON object per line, ending with the job record', async () => {
      const r = await run(['start', 'json please', '--max-credits', '40', '--wait', '--json']);
      assert.equal(r.code, 1, 'a credit-limited run is not a completed one');
      const objs = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.equal(typeof objs[0]!.id, 'string');
      assert.ok(objs.some((o) => o.type === 'run.finished' && o.outcome === 'credit_limit_reached'));
      const last = objs.at(-1)!;
      assert.equal(last.status, 'failed');
      assert.equal(last.creditsUsed, 0);
    });

    test('invalid input exits 2 and sends nothing', async () => {
      const bad: string[][] = [
        ['status', 'not-a-uuid'],
        ['cancel', '42'],
        ['trace', 'x'],
        ['snapshot', UUID_UNKNOWN, 'bad id'],
        ['start', 'x'.repeat(10_001)],
        ['start', 'ok', '--urls', 'ftp://a.example/'],
        ['start', 'ok', '--max-credits', '0'],
        ['start', 'ok', '--effort', 'huge'],
        ['start', 'ok', '--schema', join(dir, 'missing.json')],
        ['status'],
        ['frobnicate'],
        ['list', '--before', 'yesterday'],
      ];
      for (const args of bad) {
        const r = await run(args);
        assert.equal(r.code, 2, `${args.join(' ').slice(0, 60)}: ${r.stderr}`);
        assert.match(r.stderr, /^devindex agent: /);
        assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
      }
      const status = await run(['status', 'not-a-uuid']);
      assert.match(status.stderr, /Invalid job ID format\. Job ID must be a valid UUID\./);
      const long = await run(['start', 'x'.repeat(10_001)]);
      assert.match(long.stderr, /prompt is 10001 characters; the maximum is 10,000/);
      const noKey = await run(['list'], { DEVINDEX_API_KEY: '' });
      assert.equal(noKey.code, 2);
      assert.match(noKey.stderr, /DEVINDEX_API_KEY/);
      assert.deepEqual(await requests(), []);
    });

    test('service errors exit 1 with the service message and status, no stack', async () => {
      const r = await run(['status', UUID_UNKNOWN]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /^devindex agent: Agent job not found \(HTTP 404\): /);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
      assert.ok(!r.stderr.includes(KEY));
    });

    test('start after an injected 504: exit 1, one POST, told to look in the job list', async () => {
      await fetch(`${sb.url}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ faults: [{ kind: 'status', status: 504, body: 'empty', path: '/v2/agent' }] }),
      });
      const r = await run(['start', 'once']);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /may have been created/);
      assert.match(r.stderr, /devindex agent list/);
      assert.equal((await requests()).filter((q) => q.method === 'POST').length, 1);
    });

    test('status, trace, snapshot, cancel and list on a real job, human and --json', async () => {
      const started = await run(['start', 'inspect me SLOW', '--json']);
      assert.equal(started.code, 0, started.stderr);
      const id = (JSON.parse(started.stdout) as { id: string }).id;
      const submitted = (await requests()).filter((r) => r.method === 'POST' && r.path === '/v2/agent') as Array<{
        body?: { origin?: unknown };
      }>;
      assert.deepEqual(
        submitted.map((r) => r.body?.origin),
        [`devindex-cli@${VERSION}`],
        'the CLI names itself as origin',
      );
      const cancel = await run(['cancel', id]);
      assert.equal(cancel.code, 0, cancel.stderr);
      assert.match(cancel.stdout, /Cancel requested/);
      const again = await run(['cancel', id]);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /Agent is already cancelled \(HTTP 409\): .*keep polling/);

      const done = JSON.parse((await run(['start', 'finish me', '--json'])).stdout) as { id: string };
      assert.equal(await ended(done.id), 'completed');
      const human = await run(['status', done.id]);
      assert.match(human.stdout, /status:\s+completed/);
      const trace = await run(['trace', done.id, '--json']);
      const events = (
        JSON.parse(trace.stdout) as {
          events: Array<{ type: string; artifact?: { snapshotId: string; artifactId: string } }>;
        }
      ).events;
      const snapId = events.filter((e) => e.artifact?.artifactId === 'result').at(-1)!.artifact!.snapshotId;
      const snap = await run(['snapshot', done.id, snapId]);
      assert.equal(snap.code, 0, snap.stderr);
      assert.equal((JSON.parse(snap.stdout) as { items: unknown[] }).items.length, 5);
      const traceText = await run(['trace', done.id]);
      assert.match(traceText.stdout, /orchestrator: agent started/);
      assert.match(
        traceText.stdout,
        /^\S+ {4}researcher-1: agent started$/m,
        'subagents are indented under their parent',
      );
      const list = await run(['list']);
      assert.equal(list.code, 0);
      assert.ok(list.stdout.includes(done.id) && list.stdout.includes(id));
      const legacy = await run(['trace', '00000000-0000-4000-8000-000000000001']);
      assert.equal(legacy.code, 1);
      assert.match(legacy.stderr, /this job has no trace/);
    });

    test('Ctrl+C during start --wait stops following, says the job keeps running, and leaves it running', async () => {
      const child = execFile(process.execPath, [cli, 'agent', 'start', 'long survey SLOW', '--wait'], {
        env: { PATH: process.env.PATH, DEVINDEX_API_KEY: KEY, DEVINDEX_BASE_URL: sb.url },
        timeout: 30_000,
      });
      let stdout = '';
      let stderr = '';
      child.stdout!.on('data', (c: Buffer) => {
        stdout += c.toString();
        // Interrupt once the job exists and its first events have been printed.
        if (/Started agent job/.test(stdout) && stdout.split('\n').length > 3 && !child.killed) child.kill('SIGINT');
      });
      child.stderr!.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 130, stderr);
      const id = /Started agent job ([0-9a-f-]{36})/.exec(stdout)?.[1];
      assert.ok(id, stdout);
      assert.match(stderr, new RegExp(`stopped following job ${id}; it keeps running \\(devindex agent status ${id}`));
      const deletes = (await requests()).filter((r) => r.method === 'DELETE');
      assert.equal(deletes.length, 0, 'the interrupt did not cancel the job');
      const status = await run(['status', id, '--json']);
      assert.equal(status.code, 0, status.stderr);
      assert.equal((JSON.parse(status.stdout) as { status: string }).status, 'processing');
    });

    test('Ctrl+C after the submission was sent: exit 130, the job may exist, look for it with agent list', async () => {
      // The answer to the POST is held back, so the interrupt lands while the request is out.
      await fetch(`${sb.url}/__sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ faults: [{ kind: 'slow', ms: 4000, path: '/v2/agent' }] }),
      });
      const child = execFile(process.execPath, [cli, 'agent', 'start', 'interrupted start'], {
        env: { PATH: process.env.PATH, DEVINDEX_API_KEY: KEY, DEVINDEX_BASE_URL: sb.url },
        timeout: 30_000,
      });
      let stderr = '';
      child.stderr!.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      // Interrupt once the sandbox has the POST.
      await until(requests, (qs) => qs.some((r) => r.method === 'POST'), {
        timeoutMs: 5_000,
        stepMs: 50,
        message: () => 'the sandbox has the POST',
      });
      child.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 130, stderr);
      assert.match(stderr, /may have been created/);
      assert.match(stderr, /devindex agent list/);
      assert.equal((await requests()).filter((q) => q.method === 'POST').length, 1, 'never sent again');
    });

    test('list shows cancelled jobs and every job of the first page', async () => {
      const started = JSON.parse((await run(['start', 'to cancel SLOW', '--json'])).stdout) as { id: string };
      assert.equal((await run(['cancel', started.id])).code, 0);
      await ended(started.id);
      const list = await run(['list']);
      assert.equal(list.code, 0, list.stderr);
      const line = list.stdout.split('\n').find((l) => l.includes(started.id));
      assert.match(line ?? '', wire === 'production' ? /\scancelled\s/ : /\sfailed\s/);
    });

    if (wire === 'production') {
      test('production: status --partial prints the partial result of a credit-limited run', async () => {
        const started = JSON.parse(
          (await run(['start', 'partial please', '--max-credits', '50', '--json'])).stdout,
        ) as { id: string };
        await ended(started.id);
        const human = await run(['status', started.id]);
        assert.match(human.stdout, /status:\s+failed/);
        assert.match(
          human.stdout,
          /partial result: kept by the service \(print it with devindex agent status [0-9a-f-]{36} --partial\)/,
        );
        assert.doesNotMatch(
          human.stdout,
          /effort:/,
          'effort only when the run specified it (the SDK: absent on default runs)',
        );
        assert.doesNotMatch(human.stdout, /^id:/m, 'production sends no id');
        const partial = await run(['status', started.id, '--partial']);
        assert.equal(partial.code, 0, partial.stderr);
        assert.ok((JSON.parse(partial.stdout) as { items: unknown[] }).items.length >= 1);
        const none = await run(['status', UUID_UNKNOWN, '--partial']);
        assert.equal(none.code, 1);
        const waited = await run(['start', 'partial while waiting', '--max-credits', '50', '--wait']);
        assert.equal(waited.code, 1, waited.stderr);
        assert.match(
          waited.stdout,
          /credit ceiling of 50 credits[\s\S]*What it gathered before it stopped is kept: devindex agent status [0-9a-f-]{36} --partial\n$/,
        );
      });

      test('production: an unknown model is refused before sending (exit 2) unless DEVINDEX_AGENT_MODELS allows it', async () => {
        const r = await run(['start', 'p', '--model', 'spark-9']);
        assert.equal(r.code, 2);
        assert.match(r.stderr, /model "spark-9" is not one the service accepts/);
        assert.deepEqual(await requests(), []);
        const allowed = await run(['start', 'p', '--model', 'spark-9'], { DEVINDEX_AGENT_MODELS: 'spark-9' });
        assert.equal(allowed.code, 1, 'sent, and the service refused it');
        assert.match(allowed.stderr, /HTTP 400/);
      });

      test('production: an invalid JSON Schema file is refused by the service with its reason', async () => {
        const schema = join(dir, 'bad-schema.json');
        writeFileSync(schema, JSON.stringify({ type: 'OBJECT' }));
        const r = await run(['start', 'p', '--schema', schema]);
        assert.equal(r.code, 1);
        assert.match(r.stderr, /Invalid JSON schema: .*the service refused the schema/);
        const nullSchema = join(dir, 'null-schema.json');
        writeFileSync(nullSchema, 'null');
        assert.equal((await run(['start', 'p', '--schema', nullSchema])).code, 0);
      });
    }
  });
}

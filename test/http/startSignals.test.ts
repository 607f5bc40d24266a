// `npm start` ends by any signal as it does by Ctrl+C: closing its terminal (SIGHUP), a
// process manager's SIGTERM, and the SIGTERM npm forwards to its `sh -c`, which dash does not pass
// on. test/fixtures/sessionDriver.mjs is start.mjs's lifecycle (scripts/vscode/session.mjs's Session
// with closeOnSignals()) with real children: the sandbox, and a stand-in for code-server in its own
// process group with a child of its own. After the signal every one of them is gone, the ports are
// free and the run folder is removed.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { findRepoRoot } from '../../sandbox/serverParts';

const ROOT = findRepoRoot(__dirname) ?? process.cwd();
const DRIVER = join(ROOT, 'test', 'fixtures', 'sessionDriver.mjs');

interface Started {
  sandboxUrl: string;
  standInPort: number;
  pids: number[];
  dir: string;
}

const started: Started[] = [];
// A failing run must not leave its processes behind: whatever is still alive is killed by its pid.
after(() => {
  for (const pid of started.flatMap((i) => i.pids)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
});

function start(viaShell: boolean): Promise<{
  proc: ChildProcess;
  info: Started;
  exited: Promise<{ code: number | null; signal: string | null }>;
  err: () => string;
}> {
  // As npm runs a script: `sh -c "node …"`; the shell is the process npm signals.
  const proc = viaShell
    ? spawn('/bin/sh', ['-c', `"${process.execPath}" "${DRIVER}"; echo "sh: node ended" >&2`], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, [DRIVER], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
    proc.once('exit', (code, signal) => r({ code, signal })),
  );
  const info = new Promise<Started>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(JSON.parse(out) as Started);
    });
    void exited.then((e) => reject(new Error(`driver exited early (${e.signal ?? e.code}): ${err}`)));
    setTimeout(() => reject(new Error(`driver did not start in 30 s: ${err}`)), 30_000).unref();
  });
  return info.then((i) => {
    started.push(i);
    return { proc, info: i, exited, err: () => err };
  });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const portOpen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function gone(info: Started): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && info.pids.some(alive)) await sleep(100);
  assert.deepEqual(info.pids.filter(alive), [], 'the script and every process it started have ended');
  const sandboxPort = Number(new URL(info.sandboxUrl).port);
  assert.equal(await portOpen(sandboxPort), false, `the sandbox's port ${sandboxPort} is free`);
  assert.equal(await portOpen(info.standInPort), false, `code-server's port ${info.standInPort} is free`);
  assert.equal(existsSync(info.dir), false, 'the run folder is removed');
}

describe('npm start: every signal that ends it stops what it started', { concurrency: 1 }, () => {
  for (const [sig, code] of [
    ['SIGHUP', 129],
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`${sig} to the start script: exit ${code}, sandbox and code-server gone, ports free`, async () => {
      const { proc, info, exited, err } = await start(false);
      assert.equal(info.pids.every(alive), true);
      assert.equal(await portOpen(info.standInPort), true);
      proc.kill(sig);
      const e = await exited;
      assert.equal(e.code, code, err());
      assert.match(err(), new RegExp(`\\[session\\] ${sig}: stopping what this session started`));
      await gone(info);
    });
  }

  it('SIGTERM to the `sh -c` npm runs (dash dies without passing it on): the orphaned script stops everything', async () => {
    const { proc, info, exited } = await start(true);
    proc.kill('SIGTERM');
    await exited;
    await gone(info);
  });
});

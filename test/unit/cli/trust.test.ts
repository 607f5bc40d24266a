// The CLI's side of trust: every server string sanitised (stdout and stderr), one line per error, --timeout,
// bounded and escaped --json, exit codes for keys that cannot be sent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../../src/api/errors';
import { exitCodeFor, jsonForTerminal, printError } from '../../../src/cli/common';
import { parseTimeoutSeconds, sanitizeForTerminal, terminalLine, type CliIo } from '../../../src/cli/cliBase';
import { extractTimeout, runCli } from '../../../src/cli/main';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

function io(env: NodeJS.ProcessEnv = {}): CliIo & { o: string; e: string } {
  const r = {
    o: '',
    e: '',
    env,
    out(s: string) {
      r.o += s;
    },
    err(s: string) {
      r.e += s;
    },
  };
  return r;
}

describe('terminal sanitiser', () => {
  const hostile = [
    'clear\u001b[2J\u001b[H',
    'title\u001b]0;pwned\u0007',
    'clip\u001b]52;c;ZXZpbA==\u0007',
    'link\u001b]8;;https://evil\u001b\\click\u001b]8;;\u001b\\',
    '8bit\u009b31m',
    'dcs\u001bPq#0;2;0;0;0\u001b\\',
    'osc8bit\u009d0;t\u009c',
    'bidi\u202eexe.txt',
    'reset\u001bc',
    'bell\u0007',
  ];
  for (const h of hostile) {
    it(`strips ${JSON.stringify(h)}`, () => {
      const s = sanitizeForTerminal(h);
      assert.doesNotMatch(s, CONTROL, JSON.stringify(s));
    });
  }
  it('keeps the words around the sequences', () => {
    assert.equal(sanitizeForTerminal('link\u001b]8;;https://evil\u001b\\click\u001b]8;;\u001b\\'), 'linkclick');
  });
  it('terminalLine makes one line', () => assert.equal(terminalLine('a\nb\r\nc\u2028d'), 'a b c d'));
});

describe('printError: server text on stderr is sanitised and one line (finding 4)', () => {
  it('a hostile error string cannot reach the terminal raw', () => {
    const i = io();
    const e = new ApiError({
      kind: 'http',
      status: 500,
      message: 'boom\u001b]52;c;ZXZpbA==\u0007\n[devindex] forged\u001b[2J (HTTP 500): try again later',
    });
    assert.equal(printError(i, e), 1);
    assert.doesNotMatch(i.e, CONTROL);
    assert.equal(i.e.split('\n').length, 2, 'one line and its newline');
  });
  it('keys that cannot be sent and plain-http refusals are usage errors (exit 2), nothing was sent', () => {
    assert.equal(exitCodeFor(new ApiError({ kind: 'invalid-key', message: 'x' })), 2);
    assert.equal(exitCodeFor(new ApiError({ kind: 'insecure-transport', message: 'x' })), 2);
  });
});

describe('--json for a terminal', () => {
  it('escapes C1 controls and bidi overrides that JSON.stringify leaves raw; the JSON still parses to the same value', () => {
    const v = { t: 'a\u009b31mb\u202ec\u2028' };
    const s = jsonForTerminal(v, 2);
    assert.doesNotMatch(s, CONTROL);
    assert.deepEqual(JSON.parse(s), v);
  });
  it('is bounded in depth', () => {
    let deep: unknown = 0;
    for (let i = 0; i < 20_000; i++) deep = [deep];
    assert.match(jsonForTerminal(deep), /nested deeper than/);
  });
});

describe('--timeout SECONDS (per attempt)', () => {
  it('is taken out of argv anywhere before --, in both forms', () => {
    assert.deepEqual(extractTimeout(['search', 'q', '--timeout', '2.5', '--json']), {
      argv: ['search', 'q', '--json'],
      timeoutMs: 2500,
    });
    assert.deepEqual(extractTimeout(['--timeout=10', 'agent', 'list']), { argv: ['agent', 'list'], timeoutMs: 10_000 });
    assert.deepEqual(extractTimeout(['search', '--', '--timeout', '3']), {
      argv: ['search', '--', '--timeout', '3'],
      timeoutMs: undefined,
    });
  });
  it('bad values are usage errors naming the bound', async () => {
    assert.throws(() => parseTimeoutSeconds('0'), /0\.1 to 300/);
    assert.throws(() => parseTimeoutSeconds('301'), /0\.1 to 300/);
    assert.throws(() => parseTimeoutSeconds('-5'), /0\.1 to 300/);
    const i = io();
    assert.equal(await runCli(['search', 'q', '--timeout'], i), 2);
    assert.match(i.e, /--timeout needs a number of seconds/);
  });
  it('the help names it and the worst case total', async () => {
    const i = io();
    await runCli(['--help'], i);
    assert.match(i.o, /--timeout SECONDS/);
    assert.match(i.o, /5 x SECONDS/);
    assert.match(i.o, /HTTPS_PROXY/);
    assert.match(i.o, /NODE_EXTRA_CA_CERTS/);
  });
});

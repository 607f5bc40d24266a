import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, validationError } from '../../../src/api/errors';
import {
  booleanFlag,
  DEFAULT_BASE_URL,
  exitCodeFor,
  numberFlag,
  parseCliArgs,
  printError,
  readApiKey,
  resolveBaseUrl,
  splitList,
} from '../../../src/cli/common';
import { sanitizeForTerminal, UsageError } from '../../../src/cli/cliBase';

describe('cli/common', () => {
  it('base URL: --base-url, else DEVINDEX_BASE_URL, else production', () => {
    assert.equal(
      resolveBaseUrl('http://127.0.0.1:1', { DEVINDEX_BASE_URL: 'http://127.0.0.1:2' }),
      'http://127.0.0.1:1',
    );
    assert.equal(resolveBaseUrl(undefined, { DEVINDEX_BASE_URL: 'http://127.0.0.1:2' }), 'http://127.0.0.1:2');
    assert.equal(resolveBaseUrl(undefined, { DEVINDEX_BASE_URL: '  ' }), DEFAULT_BASE_URL);
    assert.equal(resolveBaseUrl(undefined, {}), 'https://api.firecrawl.dev');
    assert.throws(() => resolveBaseUrl('nope', {}), UsageError);
  });

  it('key from DEVINDEX_API_KEY, blank means none', () => {
    assert.equal(readApiKey({ DEVINDEX_API_KEY: ' k1 ' }), 'k1');
    assert.equal(readApiKey({ DEVINDEX_API_KEY: '' }), undefined);
    assert.equal(readApiKey({}), undefined);
  });

  it('exit codes: 2 for usage and validation, 1 for everything else', () => {
    assert.equal(exitCodeFor(new UsageError('x')), 2);
    assert.equal(exitCodeFor(validationError([{ field: 'k', message: 'k bad' }])), 2);
    assert.equal(exitCodeFor(new ApiError({ kind: 'http', status: 500, message: 'm' })), 1);
    assert.equal(exitCodeFor(new Error('boom')), 1);
  });

  it('printError prints one line per validation issue and never a stack', () => {
    const lines: string[] = [];
    const io = {
      out: () => undefined,
      err: (s: string) => {
        lines.push(s);
      },
      env: {},
    };
    assert.equal(
      printError(
        io,
        validationError([
          { field: 'k', message: 'k bad' },
          { field: 'passages', message: 'passages bad' },
        ]),
        'devindex agent',
      ),
      2,
    );
    assert.deepEqual(lines, ['devindex agent: k bad\n', 'devindex agent: passages bad\n']);
    lines.length = 0;
    assert.equal(printError(io, new Error('boom')), 1);
    assert.deepEqual(lines, ['devindex: boom\n']);
  });

  it('parseCliArgs turns parse errors into UsageError', () => {
    assert.throws(
      () => parseCliArgs(['--nope'], { k: { type: 'string' } }),
      (e: Error) => e instanceof UsageError && /--nope/.test(e.message),
    );
    const r = parseCliArgs(['a', '--k', '3'], { k: { type: 'string' } });
    assert.deepEqual({ ...r.values }, { k: '3' });
    assert.deepEqual(r.positionals, ['a']);
  });

  it('flag converters', () => {
    assert.deepEqual(splitList(['a,b', ' c ', ',']), ['a', 'b', 'c']);
    assert.equal(splitList(undefined), undefined);
    assert.equal(numberFlag('12'), 12);
    assert.equal(numberFlag('-3'), -3);
    assert.equal(numberFlag('1e2'), 100);
    assert.equal(numberFlag('12abc') as unknown, '12abc');
    assert.equal(booleanFlag('True'), true);
    assert.equal(booleanFlag('false'), false);
    assert.equal(booleanFlag('1') as unknown, '1');
  });

  it('sanitizeForTerminal strips escape and control sequences, keeps newlines and tabs', () => {
    assert.equal(sanitizeForTerminal('a\u001b[2J\u001b]0;title\u0007b\tc\nd\u0000\u009b'), 'ab\tc\nd');
  });
});

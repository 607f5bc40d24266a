import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, errorFromResponse, validationError } from '../../../src/api/errors';
import { parseErrorBody, parseRetryAfter } from '../../../src/api/errorBody';

const json = (error: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ success: false, error, ...extra });
const from = (status: number, bodyText: string, extra: Partial<Parameters<typeof errorFromResponse>[0]> = {}) =>
  errorFromResponse({ status, bodyText, nowMs: 0, attempts: 1, ...extra });

describe('errorFromResponse: every row of spec 7.1 that search can meet', () => {
  const rows: Array<[number, string, boolean, RegExp]> = [
    [400, 'Bad Request', false, /check the parameters/],
    [401, 'Unauthorized: Invalid token', false, /set or replace the API key/],
    [402, 'Payment Required: Insufficient credits', false, /credits|billing/],
    [403, 'Forbidden', false, /lacks permission/],
    [403, 'SCRAPE_PROMPT_INJECTION_DETECTED', false, /retry without checkPromptInjection/],
    [404, 'Not Found', false, /does not exist/],
    [408, 'Request Timeout', true, /try again/],
    [409, 'Conflict', false, /state/],
    [413, 'Payload Too Large', false, /too large/],
    [422, 'Unprocessable Entity', false, /schema/],
    [429, 'Rate limit exceeded', true, /rate limit/],
    [429, 'Concurrency limit reached', true, /concurrent browser limit/],
    [500, 'Internal Server Error', true, /try again later/],
    [502, 'Bad Gateway', true, /upstream/],
    [503, 'Service Unavailable', true, /temporarily unavailable/],
    [504, 'Gateway Timeout', true, /gateway timed out/],
  ];
  it('401 advice names no front end: the editor and the CLI each say where their key comes from', () => {
    const e = from(401, json('Unauthorized: Invalid token'));
    assert.doesNotMatch(e.message, /DEVINDEX_API_KEY|command/);
  });
  for (const [status, error, retryable, advice] of rows) {
    it(`${status} ${error}: retryable=${retryable}`, () => {
      const e = from(status, json(error, { code: 'E1' }));
      assert.ok(e instanceof ApiError);
      assert.equal(e.kind, 'http');
      assert.equal(e.status, status);
      assert.equal(e.error, error);
      assert.equal(e.code, 'E1');
      assert.equal(e.retryable, retryable);
      assert.ok(e.message.startsWith(`${error} (HTTP ${status}): `), e.message);
      assert.match(e.message, advice);
    });
  }

  it('429 rate limit and concurrency limit give different advice', () => {
    assert.notEqual(
      from(429, json('Rate limit exceeded')).message.split(': ').at(-1),
      from(429, json('Concurrency limit reached')).message.split(': ').at(-1),
    );
  });

  it('other statuses are not retryable (the Retryable column decides, not "5xx")', () => {
    assert.equal(from(501, json('Not Implemented')).retryable, false);
    assert.equal(from(418, '').retryable, false);
  });

  it('400 keeps details and lists the fields in the message', () => {
    const details = [{ path: ['k'], message: 'k must be at most 100' }];
    const e = from(400, json('Bad Request', { details }));
    assert.deepEqual(e.details, details);
    assert.match(e.message, /\[k: k must be at most 100\]/);
  });
});

describe('errorFromResponse: bodies that are not the documented shape', () => {
  it('empty body (502/504 from upstream)', () => {
    for (const status of [502, 504]) {
      const e = from(status, '');
      assert.equal(e.error, undefined);
      assert.equal(e.retryable, true);
      assert.match(
        e.message,
        new RegExp(`^(Bad Gateway|Gateway Timeout): the service sent an empty body \\(HTTP ${status}\\)`),
      );
    }
  });

  it('HTML proxy page: names it and its title, never dumps the markup', () => {
    const e = from(502, '<html><head><title>502 Bad Gateway</title></head><body><h1>nginx</h1></body></html>', {
      contentType: 'text/html',
    });
    assert.match(e.message, /an HTML page \("502 Bad Gateway"\) \(HTTP 502\)/);
    assert.ok(!e.message.includes('<'));
  });

  it('detail or title instead of error', () => {
    assert.equal(from(504, JSON.stringify({ detail: 'upstream timed out' })).error, 'upstream timed out');
    assert.equal(
      from(503, JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503 })).error,
      'Service Unavailable',
    );
    assert.match(
      from(504, JSON.stringify({ detail: 'upstream timed out' })).message,
      /^upstream timed out \(HTTP 504\)/,
    );
  });

  it('no success field: the error string still counts', () => {
    const e = from(404, JSON.stringify({ error: 'Agent job not found' }));
    assert.equal(e.error, 'Agent job not found');
    assert.match(e.message, /^Agent job not found \(HTTP 404\)/);
  });

  it('truncated JSON', () => {
    const e = from(500, '{"success":false,"error":"Internal Ser');
    assert.equal(e.error, undefined);
    assert.match(e.message, /truncated or malformed JSON \(HTTP 500\)/);
  });

  it('plain text and JSON without any message', () => {
    assert.match(
      from(503, 'upstream connect error\nmore').message,
      /a non-JSON body \("upstream connect error"\) \(HTTP 503\)/,
    );
    assert.match(from(500, '{"ok":false}').message, /JSON body without an error message \(HTTP 500\)/);
    assert.equal(parseErrorBody('[1,2]', undefined).shape, 'a JSON body of an unexpected shape');
  });

  it('redacts the key when a proxy echoes it back', () => {
    const e = from(401, json('Unauthorized: Bearer sk-secret-123 rejected'), {
      redact: (s) => s.split('sk-secret-123').join('[redacted]'),
    });
    assert.ok(!e.message.includes('sk-secret-123'));
    assert.ok(!e.error!.includes('sk-secret-123'));
  });
});

describe('parseRetryAfter', () => {
  it('seconds, HTTP-date, past date, garbage', () => {
    assert.equal(parseRetryAfter('3', 0), 3000);
    assert.equal(parseRetryAfter(' 0 ', 0), 0);
    assert.equal(parseRetryAfter('1.5', 0), 1500);
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:07 GMT', now), 7000);
    assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });

  it('is carried on the error', () => {
    assert.equal(from(429, json('Rate limit exceeded'), { retryAfter: '7' }).retryAfterMs, 7000);
  });
});

it('validationError lists each issue and keeps them', () => {
  const e = validationError([
    { field: 'k', message: 'k must be from 1 to 100; got 0' },
    { field: 'passages', message: 'passages must be from 1 to 5; got 9' },
  ]);
  assert.equal(e.kind, 'validation');
  assert.equal(e.attempts, 0);
  assert.equal(e.issues!.length, 2);
  assert.equal(
    e.message,
    'invalid search parameters: k must be from 1 to 100; got 0; passages must be from 1 to 5; got 9',
  );
});

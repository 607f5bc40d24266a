// The keyless daily quota and keyless refusals, in human time and with the way out.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DevIndexClient } from '../../../src/api/client';
import { errorFromResponse } from '../../../src/api/errors';
import type { Clock } from '../../../src/api/retry';
import { durationWords } from '../../../src/words/duration';
import { untilWords } from '../../../src/words/waitWords';
import { HttpTransport } from '../../../src/api/http';

const T0 = Date.UTC(2026, 10, 25, 21, 0, 0); // 25 Nov 2026, 21:00 UTC

describe('waits in human time', () => {
  it('says the clock time, the day and the length, never a day in seconds', () => {
    assert.equal(untilWords(T0 + 13 * 3_600_000, T0, { timeZone: 'UTC' }), '10:00 tomorrow (in 13 h)');
    assert.equal(untilWords(T0 + 45 * 60_000, T0, { timeZone: 'UTC' }), '21:45 (in 45 min)');
    assert.equal(untilWords(T0 + 3 * 86_400_000, T0, { timeZone: 'UTC' }), '21:00 on Sat 28 Nov (in 3 d)');
    // The same instant in another zone is another clock time and day.
    assert.equal(untilWords(T0 + 3 * 3_600_000, T0, { timeZone: 'Asia/Tokyo' }), '09:00 (in 3 h)');
    assert.equal(durationWords(86_400_000), '24 h');
    assert.equal(durationWords(30_000), '30 s');
  });
});

/** A client over a transport stand-in that answers every request the same way. */
function clientAnswering(status: number, body: unknown, headers: Record<string, string> = {}, key?: string) {
  let sent = 0;
  let slept = 0;
  const clock: Clock = {
    now: () => T0,
    sleep: async (ms) => {
      slept += ms;
    },
  };
  const client = new DevIndexClient({
    transport: new HttpTransport(),
    baseUrl: 'https://api.example.com',
    clock,
    random: () => 0,
    timeZone: 'UTC',
    apiKey: () => key,
    requestId: () => 'rid-0001',
  });
  (client as unknown as { transport: unknown }).transport = {
    send: async () => {
      sent++;
      return { status, headers, bodyText: JSON.stringify(body) };
    },
    close: async () => undefined,
  };
  return { client, sent: () => sent, slept: () => slept };
}

const QUOTA = {
  success: false,
  error: "You've hit Firecrawl's keyless free tier rate limit for today.",
  reason: 'requests',
  retry_after_seconds: 13 * 3600,
};

describe('the keyless daily quota', () => {
  it('a keyless 429 with a day-long retry_after_seconds is said in human time, never waited, never retried', async () => {
    const c = clientAnswering(429, QUOTA, {
      'www-authenticate': 'Bearer resource_metadata="https://api.example.com/.well-known"',
    });
    const e = (await c.client.search({ query: 'retry' }).catch((x: unknown) => x)) as {
      kind: string;
      message: string;
      resetAt: number;
      quota: string;
    };
    assert.equal(e.kind, 'keyless-quota');
    assert.equal(
      e.message,
      'Keyless searches are used up until 10:00 tomorrow (in 13 h); an API key is not limited by the keyless quota (request id rid-0001)',
    );
    assert.equal(e.resetAt, T0 + 13 * 3_600_000);
    assert.equal(c.sent(), 1);
    assert.equal(c.slept(), 0);
    assert.doesNotMatch(e.message, /46800|86400| s before/);
  });

  it('reason "credits" is said as keyless credits used up; a Retry-After header is read first', async () => {
    const c = clientAnswering(429, { ...QUOTA, reason: 'credits' }, { 'retry-after': '3600' });
    const e = (await c.client.search({ query: 'retry' }).catch((x: unknown) => x)) as { kind: string; message: string };
    assert.equal(e.kind, 'keyless-quota');
    assert.equal(
      e.message,
      'Keyless search credits are used up until 22:00 (in 60 min); an API key is not limited by the keyless quota (request id rid-0001)',
    );
  });

  it('with a key, the same long 429 is a rate limit in human time, not the keyless quota', async () => {
    const c = clientAnswering(
      429,
      { success: false, error: 'Rate limit exceeded', retry_after_seconds: 7200 },
      {},
      'fc-0123456789abcdef',
    );
    const e = (await c.client.search({ query: 'retry' }).catch((x: unknown) => x)) as { kind: string; message: string };
    assert.equal(e.kind, 'retry-after-too-long');
    assert.match(e.message, /wait until 23:00 \(in 2 h\)/);
    assert.doesNotMatch(e.message, /[Kk]eyless/);
  });
});

describe('keyless refusals', () => {
  it('a keyless 403 (proxy or VPN address) says keyless access is refused for this network and that a key fixes it', async () => {
    const c = clientAnswering(403, {
      success: false,
      error: 'Keyless access denied: your IP address looks suspicious.',
    });
    const e = (await c.client.search({ query: 'retry' }).catch((x: unknown) => x)) as { kind: string; message: string };
    assert.equal(e.kind, 'keyless-refused');
    assert.match(
      e.message,
      /refuses keyless searches from this network because its address looks like a proxy or VPN; searches with an API key work from any network/,
    );
    assert.doesNotMatch(e.message, /key lacks permission|replace the API key/);
  });

  it('a keyless 401 says the same, never "set or replace the API key"', async () => {
    const c = clientAnswering(401, { success: false, error: 'Unauthorized' });
    const e = (await c.client.search({ query: 'retry' }).catch((x: unknown) => x)) as { kind: string; message: string };
    assert.equal(e.kind, 'keyless-refused');
    assert.match(e.message, /refuses keyless searches from this network .* or has keyless access switched off/);
    assert.doesNotMatch(e.message, /replace the API key/);
  });

  it("with a key set, 401 and 403 keep today's words", async () => {
    const e401 = (await clientAnswering(401, { success: false, error: 'Unauthorized' }, {}, 'fc-0123456789abcdef')
      .client.search({ query: 'q' })
      .catch((x: unknown) => x)) as { kind: string; message: string };
    assert.equal(e401.kind, 'http');
    assert.match(e401.message, /set or replace the API key/);
    const e403 = errorFromResponse({ status: 403, bodyText: '{"error":"Forbidden"}', nowMs: 0, attempts: 1 });
    assert.match(e403.message, /the API key lacks permission/);
  });
});

// `devindex agent` and the service as it is today: threads and follow-ups, chat answers
// and suggestions, a run that waits for an approval, and the thread errors, on a scripted client.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestSpec } from '../../../src/api/client';
import { errorFromResponse } from '../../../src/api/errors';
import { runAgentCommand } from '../../../src/cli/agentCommand';
import { shellQuote } from '../../../src/cli/agentFormat';
import { configDir } from '../../../src/cli/cliState';
import { fakeClient } from '../../support/fakeClient';
import {
  APPROVAL_ID,
  ENDED_WAITING_STATUS,
  PAID_STATUS,
  REQUIRES_ACTION,
  TERMS_APPROVAL,
  THREAD_ID,
  WAITING_STATUS,
  WAITING_THREAD_RUN,
} from '../../support/sdkShapes';

const JOB = '123e4567-e89b-42d3-a456-426614174000';
const JOB2 = '223e4567-e89b-42d3-a456-426614174000';
const THREAD = '9d0c7a52-2f1e-4c8b-9a44-6f1b3c2d1e00';

type Answer = (spec: RequestSpec<unknown>) => unknown;

function cli(answer: Answer, env: Record<string, string> = {}) {
  const { client: fake, seen } = fakeClient(answer);
  let out = '';
  let err = '';
  const dir = mkdtempSync(join(tmpdir(), 'devindex-cli-'));
  const io = {
    out: (s: string) => {
      out += s;
    },
    err: (s: string) => {
      err += s;
    },
    env: { DEVINDEX_API_KEY: 'k', DEVINDEX_CONFIG_DIR: dir, ...env },
  };
  const clock = { t: 0 };
  const run = (args: string[]) =>
    runAgentCommand(args, io, {
      createClient: () => fake,
      now: () => clock.t,
      sleep: async (ms) => {
        clock.t += ms;
      },
      maxWaitMs: 600_000,
    });
  return { run, seen, out: () => out, err: () => err, dir, done: () => rmSync(dir, { recursive: true, force: true }) };
}

const started = (turn = 1, id = JOB) => ({ success: true, id, threadId: THREAD, threadTurn: turn });
const chatRecord = {
  success: true,
  status: 'completed',
  mode: 'chat',
  data: null,
  threadId: THREAD,
  threadTurn: 1,
  creditsUsed: 12,
  message: '## Retries\n\nUse `retry: 3`.\n',
  suggestions: [
    { label: 'Show an example', prompt: 'Show an example of retry' },
    { label: 'Defaults', prompt: "What's the default?" },
  ],
};

describe('devindex agent: threads and follow-ups', () => {
  it('start prints the thread and turn, and remembers the thread for --continue in the config folder, readable by the user alone', async () => {
    const c = cli(() => started());
    try {
      assert.equal(await c.run(['start', 'How do retries work?', '--mode', 'chat']), 0);
      assert.match(c.out(), new RegExp(`Started agent job ${JOB} \\(thread ${THREAD}, turn 1\\)`));
      assert.deepEqual(c.seen[0]!.body, { prompt: 'How do retries work?', mode: 'chat' });
      const file = join(c.dir, 'last-thread.json');
      assert.equal(JSON.parse(readFileSync(file, 'utf8'))['https://api.example.com'].threadId, THREAD);
      assert.equal(statSync(file).mode & 0o077, 0);
      assert.equal(await c.run(['start', 'and the defaults?', '--continue']), 0);
      assert.deepEqual(c.seen[1]!.body, { prompt: 'and the defaults?', threadId: THREAD });
    } finally {
      c.done();
    }
  });

  it('--thread sends a follow-up in that thread; --continue with nothing remembered is exit 2 naming --thread', async () => {
    const c = cli(() => started(2, JOB2));
    try {
      assert.equal(await c.run(['start', 'more', '--thread', THREAD]), 0);
      assert.deepEqual(c.seen[0]!.body, { prompt: 'more', threadId: THREAD });
      assert.match(c.out(), /turn 2/);
      const fresh = cli(() => started());
      try {
        assert.equal(await fresh.run(['start', 'more', '--continue']), 2);
        assert.match(
          fresh.err(),
          /--continue: no thread started by this CLI on https:\/\/api\.example\.com is remembered; pass --thread ID/,
        );
        assert.equal(fresh.seen.length, 0);
      } finally {
        fresh.done();
      }
    } finally {
      c.done();
    }
  });

  it('--mode outside chat|extract is exit 2 naming the field and the values', async () => {
    const c = cli(() => started());
    try {
      assert.equal(await c.run(['start', 'p', '--mode', 'talk']), 2);
      assert.match(c.err(), /mode must be one of chat, extract; got "talk"/);
      assert.equal(c.seen.length, 0);
    } finally {
      c.done();
    }
  });

  for (const [status, code, words] of [
    [404, 'thread_not_found', /no thread 9d0c7a52-2f1e-4c8b-9a44-6f1b3c2d1e00 for this API key/],
    [409, 'thread_busy', new RegExp(`a turn of this thread is still running \\(job ${JOB}\\)`)],
    [410, 'thread_expired', /has expired on the service.*start a new job with the prompt/],
  ] as const) {
    it(`an unknown, busy or expired thread is exit 1 with its words: ${code}`, async () => {
      const c = cli(() =>
        errorFromResponse({
          status,
          bodyText: JSON.stringify({ success: false, code, error: code, runId: JOB }),
          nowMs: 0,
          attempts: 1,
        }),
      );
      try {
        assert.equal(await c.run(['start', 'again', '--thread', THREAD]), 1);
        assert.match(c.err(), words);
      } finally {
        c.done();
      }
    });
  }

  it('agent thread prints the turns in order with the follow-up command', async () => {
    const c = cli(() => ({
      success: true,
      thread: {
        id: THREAD,
        status: 'idle',
        runs: [
          { id: JOB2, turn: 2, mode: 'chat', prompt: 'and the defaults?', status: 'succeeded' },
          { id: JOB, turn: 1, mode: 'extract', prompt: 'How do retries work?', status: 'credit_limit_reached' },
        ],
      },
    }));
    try {
      assert.equal(await c.run(['thread', THREAD]), 0);
      const lines = c.out().split('\n');
      assert.match(lines[0]!, new RegExp(`^thread ${THREAD}: idle`));
      assert.match(lines[1]!, new RegExp(`turn 1 +credit_limit_reached +extract +${JOB} +How do retries work\\?`));
      assert.match(lines[2]!, new RegExp(`turn 2 +succeeded +chat +${JOB2} +and the defaults\\?`));
      assert.match(c.out(), new RegExp(`Ask a follow-up: devindex agent start --thread ${THREAD} "<prompt>"`));
      assert.equal(c.seen[0]!.path, `/v2/agent/threads/${THREAD}`);
    } finally {
      c.done();
    }
  });
});

describe('devindex agent status: chat answers, suggestions and approvals', () => {
  it('prints the answer, the thread and turn, and each suggestion with the command that asks it', async () => {
    const c = cli(() => chatRecord);
    try {
      assert.equal(await c.run(['status', JOB]), 0);
      const o = c.out();
      assert.match(o, new RegExp(`thread: +${THREAD}, turn 1`));
      assert.match(o, /answer:\n {2}## Retries\n {2}\n {2}Use `retry: 3`\./);
      assert.match(
        o,
        new RegExp(`Show an example: devindex agent start --thread ${THREAD} 'Show an example of retry'`),
      );
      assert.match(o, new RegExp(`Defaults: devindex agent start --thread ${THREAD} 'What'\\\\''s the default\\?'`));
      assert.doesNotMatch(o, /data:/);
    } finally {
      c.done();
    }
  });

  it('a waiting run says so first, with each call, its estimate and the sum, and the --approve / --decline commands; approving sends exchange.approve in its thread', async () => {
    const c = cli((spec) =>
      spec.method === 'POST'
        ? started()
        : spec.path.includes('/threads/')
          ? { success: true, thread: { id: THREAD, status: 'idle', runs: [] } }
          : WAITING_STATUS,
    );
    try {
      assert.equal(await c.run(['status', JOB]), 0);
      const o = c.out();
      assert.match(o, /status: +waiting for your approval \(the service's status: processing\)/);
      assert.match(
        o,
        /waiting for: +approval of 2 paid calls \(at least 5 credits\): github search_issues, stackexchange search/,
      );
      assert.match(
        o,
        /call call_1: github search_issues \(about 5 credits\) \{"q":"retry backoff","repo":"undici\/undici"\}/,
      );
      assert.match(o, /call call_2: stackexchange search \(no estimate\)/);
      assert.match(o, /in all: at least 5 credits/);
      assert.match(
        o,
        new RegExp(
          `approve: devindex agent start --thread ${THREAD_ID} --approve ${APPROVAL_ID} \\[--calls ID,ID\\] \\[--always\\]`,
        ),
      );
      assert.match(o, new RegExp(`decline: devindex agent start --thread ${THREAD_ID} --decline ${APPROVAL_ID}`));
      assert.equal(
        await c.run(['start', '--thread', THREAD_ID, '--approve', APPROVAL_ID, '--calls', 'call_1', '--always']),
        0,
      );
      assert.deepEqual(c.seen.at(-1)!.body, {
        prompt: 'Approved.',
        threadId: THREAD_ID,
        exchange: { approve: { approvalId: APPROVAL_ID, callIds: ['call_1'], always: true } },
      });
      assert.match(c.out(), new RegExp(`Approved ${APPROVAL_ID}; agent job ${JOB} goes on`));
    } finally {
      c.done();
    }
  });

  it('a terms approval is approved only with --accept-terms: without it exit 2 and the terms are shown; with it terms/accept runs first', async () => {
    const thread = {
      success: true,
      thread: {
        id: THREAD_ID,
        status: 'idle',
        runs: [
          {
            ...WAITING_THREAD_RUN,
            status: 'succeeded',
            pendingApproval: TERMS_APPROVAL,
            exchange: ENDED_WAITING_STATUS.exchange,
          },
        ],
      },
    };
    const c = cli((spec) =>
      spec.path === '/v2/scrape'
        ? {
            success: true,
            alexandria: [{ provider: 'firecrawl', capability: 'terms/accept', creditsCost: 0, data: {} }],
            creditsCost: 0,
          }
        : spec.method === 'POST'
          ? started()
          : spec.path.includes('/threads/')
            ? thread
            : ENDED_WAITING_STATUS,
    );
    try {
      assert.equal(await c.run(['status', JOB]), 0);
      assert.match(
        c.out(),
        /status: +waiting for your approval \(the service's status: completed\)/,
        'a turn that ended waiting says waiting first',
      );
      assert.match(c.out(), /Crunchbase data terms, version 2026-10: https:\/\/firecrawl\.dev\/terms\/crunchbase/);
      assert.match(c.out(), /agree: +read the terms above, then: devindex agent start .* --accept-terms/);
      assert.equal(await c.run(['start', '--thread', THREAD_ID, '--approve', APPROVAL_ID]), 2);
      assert.match(
        c.err(),
        /asks you to accept data terms:\n {2}Crunchbase data terms, version 2026-10: https:\/\/firecrawl\.dev\/terms\/crunchbase\nRead them; to agree, run the same command with --accept-terms \(nothing was sent\)/,
      );
      assert.equal(c.seen.filter((r) => r.method === 'POST').length, 0, 'nothing accepted, nothing approved');
      assert.equal(await c.run(['start', '--thread', THREAD_ID, '--approve', APPROVAL_ID, '--accept-terms']), 0);
      const posts = c.seen.filter((r) => r.method === 'POST');
      assert.deepEqual(
        posts.map((r) => r.path),
        ['/v2/scrape', '/v2/agent'],
        'accept first, then approve',
      );
      assert.deepEqual(posts[0]!.body, { alexandria: [REQUIRES_ACTION.providers[0]!.accept] });
      assert.deepEqual(posts[1]!.body, {
        prompt: 'Approved.',
        threadId: THREAD_ID,
        exchange: { approve: { approvalId: APPROVAL_ID } },
      });
    } finally {
      c.done();
    }
  });

  it('paid calls: the start options turn them on (enabled: true); bounds and requireApproval without chat are refused before sending, exit 2', async () => {
    const c = cli(() => started());
    try {
      assert.equal(
        await c.run(['start', 'find it', '--toolkits', 'github,slack', '--max-calls', '5', '--on-terms', 'ask']),
        0,
      );
      assert.deepEqual(c.seen.at(-1)!.body, {
        prompt: 'find it',
        exchange: { enabled: true, toolkits: ['github', 'slack'], maxCalls: 5, onTermsRequired: 'ask' },
      });
      assert.equal(await c.run(['start', 'find it', '--mode', 'chat', '--require-approval']), 0);
      assert.deepEqual(c.seen.at(-1)!.body, {
        prompt: 'find it',
        mode: 'chat',
        exchange: { enabled: true, requireApproval: true },
      });
      const sent = c.seen.length;
      assert.equal(await c.run(['start', 'find it', '--require-approval']), 2);
      assert.match(c.err(), /exchange\.requireApproval needs mode "chat" on the same request/);
      assert.equal(await c.run(['start', 'find it', '--max-calls', '31']), 2);
      assert.match(c.err(), /exchange\.maxCalls must be a whole number from 1 to 30; got 31/);
      assert.equal(await c.run(['start', 'find it', '--toolkits', 'a,b,c,d,e,f']), 2);
      assert.match(c.err(), /exchange\.toolkits names at most 5 toolkits; got 6/);
      assert.equal(await c.run(['start', 'find it', '--on-terms', 'accept']), 2);
      assert.match(c.err(), /exchange\.onTermsRequired must be one of skip, ask; got "accept"/);
      assert.equal(await c.run(['start', 'x', '--calls', 'call_1']), 2);
      assert.match(c.err(), /--calls goes with --approve APPROVAL_ID/);
      assert.equal(c.seen.length, sent, 'nothing sent for any of them');
    } finally {
      c.done();
    }
  });

  it('a finished run says what it paid and names each skipped provider with its terms and how to include it', async () => {
    const c = cli(() => PAID_STATUS);
    try {
      assert.equal(await c.run(['status', JOB]), 0);
      assert.match(c.out(), /paid calls: +2 paid calls, 30 credits/);
      assert.match(
        c.out(),
        /skipped: +Crunchbase was skipped: its data terms \(version 2026-10\) are not accepted \(it would have added: funding rounds\)\n {2}terms: https:\/\/firecrawl\.dev\/app\/terms\/crunchbase\n {2}to include it next time: accept its terms there, or start with --on-terms ask/,
      );
    } finally {
      c.done();
    }
  });

  it('--approve without a thread is exit 2, and nothing is sent', async () => {
    const c = cli(() => started());
    try {
      assert.equal(await c.run(['start', '--approve', 'apr_7']), 2);
      assert.match(c.err(), /add --thread ID \(or --continue\)/);
      assert.equal(c.seen.length, 0);
    } finally {
      c.done();
    }
  });

  it('--wait on a run that starts waiting stops following, says so with the commands, exit 1', async () => {
    let polls = 0;
    const c = cli((spec) => {
      if (spec.method === 'POST') return started();
      if (spec.path.endsWith('/trace')) {
        polls++;
        return {
          success: true,
          events: [
            {
              eventId: 'a1',
              producerSequence: 1,
              agent: { id: 'o', role: 'orchestrator' },
              type: 'approval.requested',
              approvalId: 'apr_9',
              occurredAt: '2026-11-25T10:00:00Z',
            },
          ],
        };
      }
      return { ...ENDED_WAITING_STATUS, status: 'processing' };
    });
    try {
      assert.equal(await c.run(['start', 'book it', '--wait']), 1);
      assert.match(c.out(), new RegExp(`Agent job ${JOB} waits for your approval; it goes on only once you answer\\.`));
      assert.match(c.out(), /waiting for: +acceptance of Crunchbase data terms, version 2026-10/);
      assert.match(c.out(), /Crunchbase data terms, version 2026-10: https:\/\/firecrawl\.dev\/terms\/crunchbase/);
      assert.ok(polls <= 2, `stopped promptly (${polls} trace polls)`);
    } finally {
      c.done();
    }
  });

  it('--wait on a chat run prints the answer and the suggestions at the end, not "null"', async () => {
    const c = cli((spec) => {
      if (spec.method === 'POST') return started();
      if (spec.path.endsWith('/trace'))
        return {
          success: true,
          events: [
            {
              eventId: 'f',
              producerSequence: 1,
              agent: { id: 'o', role: 'orchestrator' },
              type: 'run.finished',
              outcome: 'succeeded',
              occurredAt: '2026-11-25T10:00:00Z',
            },
          ],
        };
      return chatRecord;
    });
    try {
      assert.equal(await c.run(['start', 'How do retries work?', '--mode', 'chat', '--wait']), 0);
      assert.match(c.out(), /## Retries\n\nUse `retry: 3`\./);
      assert.match(c.out(), /suggested follow-ups:/);
      assert.doesNotMatch(c.out(), /^null$/m);
    } finally {
      c.done();
    }
  });

  it("status --partial still prints a credit-limited run's partial data", async () => {
    const c = cli(() => ({
      success: true,
      status: 'failed',
      stopReason: 'credit_limit_reached',
      threadId: THREAD,
      partial: { rows: [1, 2] },
      data: null,
    }));
    try {
      assert.equal(await c.run(['status', JOB, '--partial']), 0);
      assert.deepEqual(JSON.parse(c.out()), { rows: [1, 2] });
    } finally {
      c.done();
    }
  });
});

describe('CLI state and quoting', () => {
  it('the config folder follows each platform', () => {
    assert.equal(configDir({}, 'linux', '/home/u'), '/home/u/.config/devindex');
    assert.equal(configDir({ XDG_CONFIG_HOME: '/x' }, 'linux', '/home/u'), '/x/devindex');
    assert.equal(configDir({}, 'darwin', '/Users/u'), '/Users/u/Library/Application Support/devindex');
    assert.equal(
      configDir({ APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, 'win32', 'C:\\Users\\u'),
      'C:\\Users\\u\\AppData\\Roaming\\devindex',
    );
  });

  it('quotes what a shell would split or expand', () => {
    assert.equal(shellQuote('abc-1'), 'abc-1');
    assert.equal(shellQuote("it's $HOME"), "'it'\\''s $HOME'");
  });
});

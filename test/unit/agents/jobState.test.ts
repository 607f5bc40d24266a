import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import type { AgentGroup } from '../../../src/agentRun/agentTrace';
import type { AgentJob } from '../../../src/agents/jobModel';
import {
  agentState,
  editorEndMessage,
  jobAccessibleLabel,
  jobContextValue,
  jobDescription,
  jobState,
  shortLabel,
  stateFirstLabel,
  stateIcon,
} from '../../../src/agents/jobState';
import { ev } from './fakeBackend';

function job(over: Partial<AgentJob> = {}): AgentJob {
  return {
    id: 'j1',
    prompt: 'Compare the rate limits of three HTTP clients',
    createdAt: 0,
    origin: 'user',
    status: 'processing',
    trace: { eventCount: 0, finished: false },
    ...over,
  };
}

const ended = (outcome: string, code?: string): AgentJob =>
  job({
    status: outcome === 'succeeded' ? 'completed' : 'failed',
    outcome,
    errorCode: code,
    trace: { eventCount: 9, finished: true },
    maxCredits: 50,
    creditsUsed: outcome === 'succeeded' ? 170 : 0,
  });

describe('job state and icons', () => {
  const cases: Array<[string, AgentJob, string, string]> = [
    ['running', job(), 'running', 'sync~spin'],
    ['completed', ended('succeeded'), 'completed', 'pass'],
    ['cancelled', ended('cancelled', 'cancelled'), 'cancelled', 'circle-slash'],
    ['refused', ended('refused', 'refused'), 'refused', 'thumbsdown'],
    ['credit limit', ended('credit_limit_reached', 'credit_limit_reached'), 'credit_limit_reached', 'credit-card'],
    ['internal', ended('failed', 'internal'), 'failed', 'error'],
    ['not found', job({ notFound: true }), 'not_found', 'question'],
  ];
  for (const [name, j, state, icon] of cases) {
    it(`${name}: state ${state}, icon ${icon}`, () => {
      assert.equal(jobState(j), state);
      assert.equal(stateIcon(jobState(j)).id, icon);
    });
  }

  it('gives every end state its own icon', () => {
    const ids = cases.map(([, j]) => stateIcon(jobState(j)).id);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('reads the reason from the status error when there is no trace outcome', () => {
    const f = (error: string): string => jobState(job({ status: 'failed', error }));
    assert.equal(
      f('Credit limit reached: the run used its maxCredits of 50 credits before it could finish.'),
      'credit_limit_reached',
    );
    assert.equal(f('The agent run was cancelled by the user.'), 'cancelled');
    assert.equal(f('The agent refused the task: no.'), 'refused');
    assert.equal(f('The agent run failed because of an internal error.'), 'failed');
  });

  it('shows a cancel in progress, and a status it does not know raw', () => {
    assert.equal(jobState(job({ cancelRequested: true })), 'cancelling');
    assert.equal(jobState(job({ status: 'cancelling' })), 'cancelling');
    assert.equal(jobState(job({ status: 'queued' })), 'running');
    assert.match(jobDescription(job({ status: 'queued' })), /running \(queued\)/);
  });

  it('maps parent_finished and other agent outcomes', () => {
    const a = { id: 'v', role: 'subagent', name: 'verifier', parentId: 'o' };
    const node = (events: AgentGroup['events']): AgentGroup => ({ agent: a, events, children: [] });
    const pf = node([
      ev('agent.finished', a, 1000, 2, {
        outcome: 'cancelled',
        error: { code: 'parent_finished', source: 'agent', retryable: false },
      }),
    ]);
    assert.equal(agentState(pf, false), 'parent_finished');
    assert.equal(stateIcon('parent_finished').id, 'debug-step-out');
    assert.equal(
      agentState(node([ev('agent.finished', a, 1000, 2, { outcome: 'succeeded', error: null })]), false),
      'completed',
    );
    assert.equal(
      agentState(node([ev('agent.finished', a, 1000, 2, { outcome: 'credit_limit_reached' })]), false),
      'credit_limit_reached',
    );
    assert.equal(agentState(node([ev('agent.started', a, 1000, 1)]), true), 'running');
    assert.equal(agentState(node([ev('agent.started', a, 1000, 1)]), false), 'unknown');
    // The system agent never sends agent.finished: its run.finished says how the run ended.
    assert.equal(
      agentState(
        node([ev('run.started', a, 1000, 1), ev('run.finished', a, 2000, 2, { outcome: 'succeeded', error: null })]),
        false,
      ),
      'completed',
    );
    assert.equal(
      agentState(
        node([ev('run.finished', a, 2000, 2, { outcome: 'refused', error: { code: 'refused', retryable: false } })]),
        false,
      ),
      'refused',
    );
  });
});

describe('job node parts', () => {
  it('builds contextValue from parts: cancellable only while running, result only when completed', () => {
    assert.equal(jobContextValue(job()), 'job;running;cancellable;trace');
    assert.equal(jobContextValue(ended('succeeded')), 'job;completed;result;trace');
    assert.equal(jobContextValue(ended('cancelled', 'cancelled')), 'job;cancelled;trace');
    assert.equal(
      jobContextValue(job({ status: 'completed', trace: { eventCount: 0, finished: false, unavailable: true } })),
      'job;completed;result',
    );
    assert.doesNotMatch(jobContextValue(job({ cancelRequested: true })), /;cancellable(;|$)/);
  });

  it('describes status and credits', () => {
    assert.equal(jobDescription(ended('succeeded')), 'completed · 170 / 50 credits');
    assert.equal(jobDescription(job({ creditsUsed: 12 })), 'running · 12 credits');
    assert.equal(jobDescription(job()), 'running');
  });

  it('shortens the prompt at a word boundary', () => {
    const long = 'word '.repeat(40);
    const s = shortLabel(long, 30);
    assert.ok(s.length <= 30 && s.endsWith('…'), s);
    assert.equal(shortLabel('  a\n\nb  '), 'a b');
    assert.equal(shortLabel(''), '(no prompt)');
  });
});

describe('end-of-run notification', () => {
  it('credit limit: names the ceiling, how to raise it, and that failed runs are not billed', () => {
    const m = editorEndMessage(ended('credit_limit_reached', 'credit_limit_reached'))!;
    assert.equal(m.severity, 'warning');
    assert.match(m.text, /credit ceiling of 50 credits/);
    assert.match(m.text, /higher ceiling/);
    assert.match(m.text, /Start Again… offers twice this one/);
    assert.match(m.text, /not billed/);
    assert.equal(m.text.split(/[.!?](\s|$)/).filter((x) => x.trim()).length, 1, `one sentence: ${m.text}`);
  });

  it('says why for each ending', () => {
    assert.match(editorEndMessage(ended('cancelled', 'cancelled'))!.text, /was cancelled/);
    const refused = editorEndMessage({
      ...ended('refused', 'refused'),
      error: 'It asks for something the agent will not do',
    })!;
    assert.match(
      refused.text,
      /^The agent declined job "Compare the rate limits[^"]*" and it is not billed; rephrase the prompt and start it again\.$/,
    );
    assert.equal(
      refused.detail,
      'It asks for something the agent will not do.',
      "the service's reason, beside the sentence",
    );
    const internal = editorEndMessage({
      ...ended('failed', 'internal'),
      error: 'The agent run failed because of an internal error. Try again.',
    })!;
    assert.equal(internal.severity, 'error');
    assert.match(
      internal.text,
      /^Agent job "Compare the rate limits[^"]*" failed with an internal error and is not billed; starting it again may succeed\.$/,
    );
    assert.equal(internal.text.match(/internal error/g)!.length, 1, 'said once');
    for (const m of [refused, internal])
      assert.equal(m.text.split(/[.!?](\s|$)/).filter((x) => x.trim()).length, 1, `one sentence: ${m.text}`);
    assert.match(editorEndMessage(ended('succeeded'))!.text, /completed using 170 credits/);
    assert.match(editorEndMessage(job({ notFound: true }))!.text, /not found/);
    assert.equal(editorEndMessage(job()), undefined, 'no message while running');
  });
});

describe('job rows', () => {
  it('say the state first, then how long the run took, then the credits', () => {
    const created = Date.UTC(2026, 0, 1, 12, 0, 0);
    const base = { id: 'j', prompt: 'p', createdAt: created, origin: 'user' as const, maxCredits: 300, creditsUsed: 7 };
    assert.equal(
      jobDescription({ ...base, status: 'processing', trace: { eventCount: 1, finished: false } }, created + 125_000),
      'running · 2 min · 7 / 300 credits',
    );
    const done = {
      ...base,
      status: 'completed',
      trace: { eventCount: 9, finished: true, lastEventAt: new Date(created + 45_000).toISOString() },
    };
    assert.equal(jobDescription(done, created + 3_600_000), 'completed · 45 s · 7 / 300 credits');
  });

  it('cut the prompt at about 35 characters at a word boundary', () => {
    const label = shortLabel('Find the rate limits of the three most popular HTTP client libraries', 35);
    assert.ok(label.length <= 35, label);
    assert.equal(label, 'Find the rate limits of the three…');
  });
});

describe('accessible names of the Agent Jobs rows: the state first', () => {
  it('a job row starts with its state word, then says what it is, then the rest of the description', () => {
    assert.equal(jobAccessibleLabel(job(), 0), 'Running: agent job Compare the rate limits of three HTTP clients');
    assert.equal(
      jobAccessibleLabel(ended('succeeded'), 0),
      'Completed: agent job Compare the rate limits of three HTTP clients, 170 / 50 credits',
    );
    assert.equal(
      jobAccessibleLabel(ended('failed', 'internal'), 0, 2),
      'Failed: agent job turn 2, Compare the rate limits of three HTTP clients, 0 / 50 credits',
    );
    assert.match(
      jobAccessibleLabel(ended('credit_limit_reached', 'credit_limit_reached'), 0),
      /^Credit limit reached: agent job /,
    );
    assert.match(jobAccessibleLabel(job({ cancelRequested: true }), 0), /^Cancelling: /);
    assert.match(
      jobAccessibleLabel(job({ origin: 'service', prompt: '' }), 0),
      /^Running: agent job \(started elsewhere\)$/,
    );
    assert.match(
      jobAccessibleLabel(job({ expired: true, expiresAt: '2026-01-02T00:00:00Z' }), 0),
      /^Expired on .*: agent job Compare .*, nothing kept$/,
    );
  });

  it('every state a job can be in comes first, capitalised, and the prompt after it', () => {
    const all: AgentJob[] = [
      job(),
      ended('succeeded'),
      ended('cancelled', 'cancelled'),
      ended('refused', 'refused'),
      ended('failed', 'internal'),
      job({ notFound: true }),
      job({ status: 'queued' }),
    ];
    for (const j of all) {
      const label = jobAccessibleLabel(j, 0);
      const words = jobDescription(j).split(' · ')[0]!;
      assert.ok(label.startsWith(`${words[0]!.toUpperCase()}${words.slice(1)}: `), `${label} starts with ${words}`);
      assert.ok(label.indexOf('Compare the rate') > label.indexOf(': '), label);
    }
  });

  it('stateFirstLabel turns a state-first description into a name', () => {
    assert.equal(
      stateFirstLabel('completed · 2 turns · 14 credits spent', 'agent thread Why'),
      'Completed: agent thread Why, 2 turns, 14 credits spent',
    );
    assert.equal(
      stateFirstLabel('waiting for approval of 1 call: github.create_issue', 'agent job X'),
      'Waiting for approval of 1 call: github.create_issue: agent job X',
    );
    assert.equal(stateFirstLabel('', 'agent x'), 'Unknown: agent x');
  });
});

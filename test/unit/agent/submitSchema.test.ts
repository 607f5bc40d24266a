// An agent submission is one zod schema. Its JSON Schema (what the schema states), the
// check every surface runs (validateAgentSubmit), the start tools' input schema and the CLI's flags
// are compared here with each other, never with numbers copied from the code: a bound changed in the
// schema changes what every surface states and checks.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod';
import type {
  AgentEffort as SdkEffort,
  AgentExchangeOptions,
  AgentMode as SdkMode,
  AgentOnTermsRequired as SdkOnTerms,
} from 'firecrawl';
import {
  AgentExchangeSchema,
  type AgentExchange,
  type AgentSubmitParams,
  PAID_CALL_SETTINGS,
  SUBMIT_FIELDS,
  SUBMIT_SHAPE,
  TOOL_EXCHANGE_FIELDS,
  TOOL_SUBMIT_FIELDS,
  validateAgentSubmit,
} from '../../../src/api/agent/submitSchema';
import { PROMPT_MAX_LENGTH } from '../../../src/api/agent/agentConstants';
import { MCP_TOOLS, EDITOR_TOOLS } from '../../../src/tools/definitions';
import { AGENT_USAGE, submitParamsFrom, SUBMIT_FLAGS } from '../../../src/cli/agentArgs';

// The schema's values are the service SDK's (npm run typecheck fails when one drifts): the same efforts,
// modes and onTermsRequired values, and an exchange the SDK's AgentExchangeOptions accepts.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sdkValues: [
  Same<NonNullable<AgentSubmitParams['effort']>, SdkEffort>,
  Same<NonNullable<AgentSubmitParams['mode']>, SdkMode>,
  Same<NonNullable<AgentExchange['onTermsRequired']>, SdkOnTerms>,
] = [true, true, true];
const sdkExchange = (x: AgentExchange): AgentExchangeOptions => x;
void sdkValues;
void sdkExchange;

type Json = {
  type?: unknown;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  description?: string;
};
const full = z.toJSONSchema(z.object(SUBMIT_SHAPE)) as { properties: Record<string, Json> };
const exchange = z.toJSONSchema(AgentExchangeSchema) as { properties: Record<string, Json> };
const BOUNDS = ['minLength', 'maxLength', 'minimum', 'maximum', 'maxItems', 'enum', 'description'] as const;

function issuesOf(p: unknown): Array<{ field: string; message: string }> {
  const r = validateAgentSubmit(p as never);
  return r.ok ? [] : r.issues;
}

describe('the agent submission: one schema', () => {
  it("the start tools state the schema's own fields and bounds (the prompt bound is the service's)", () => {
    assert.equal(full.properties.prompt!.maxLength, PROMPT_MAX_LENGTH);
    for (const tool of [MCP_TOOLS, EDITOR_TOOLS].map((l) => l.find((t) => t.name === 'devIndex_startAgentJob')!)) {
      const shown = tool.inputSchema as {
        properties: Record<string, Json>;
        required: string[];
        additionalProperties: boolean;
      };
      assert.deepEqual(Object.keys(shown.properties), [...TOOL_SUBMIT_FIELDS]);
      assert.deepEqual(shown.required, ['prompt']);
      assert.equal(shown.additionalProperties, false);
      for (const f of TOOL_SUBMIT_FIELDS) {
        for (const b of BOUNDS) assert.deepEqual(shown.properties[f]![b], full.properties[f]![b], `${f}.${b}`);
      }
      // The exchange is shown as one object, its description naming the settings a start may turn on.
      assert.equal(shown.properties.exchange!.description, `Paid calls: ${PAID_CALL_SETTINGS.join(', ')}`);
    }
    assert.deepEqual([...TOOL_EXCHANGE_FIELDS].sort(), ['enabled', ...PAID_CALL_SETTINGS].sort());
    assert.ok(TOOL_EXCHANGE_FIELDS.every((k) => k in exchange.properties));
  });

  it('the check refuses exactly past the bounds the schema states, naming the field and the bound', () => {
    const max = full.properties.prompt!.maxLength!;
    assert.deepEqual(issuesOf({ prompt: 'x'.repeat(max) }), []);
    assert.deepEqual(issuesOf({ prompt: 'x'.repeat(max + 1) }), [
      { field: 'prompt', message: `prompt is ${max + 1} characters; the maximum is ${max.toLocaleString('en-US')}` },
    ]);
    for (const f of ['effort', 'mode'] as const) {
      for (const v of full.properties[f]!.enum!)
        assert.deepEqual(issuesOf({ prompt: 'p', [f]: v }), [], `${f} ${String(v)}`);
      const bad = issuesOf({ prompt: 'p', [f]: 'nope' });
      assert.deepEqual(
        bad.map((i) => i.field),
        [f],
      );
      assert.ok(bad[0]!.message.includes(full.properties[f]!.enum!.join(', ')), bad[0]!.message);
    }
    const { minimum, maximum } = exchange.properties.maxCalls!;
    for (const ok of [minimum!, maximum!]) assert.deepEqual(issuesOf({ prompt: 'p', exchange: { maxCalls: ok } }), []);
    for (const bad of [minimum! - 1, maximum! + 1, minimum! + 0.5]) {
      const issues = issuesOf({ prompt: 'p', exchange: { maxCalls: bad } });
      assert.deepEqual(issues, [
        {
          field: 'exchange.maxCalls',
          message: `exchange.maxCalls must be a whole number from ${minimum} to ${maximum}; got ${bad}`,
        },
      ]);
    }
    const most = exchange.properties.toolkits!.maxItems!;
    assert.deepEqual(
      issuesOf({ prompt: 'p', exchange: { toolkits: Array.from({ length: most }, (_, i) => `t${i}`) } }),
      [],
    );
    assert.match(
      issuesOf({ prompt: 'p', exchange: { toolkits: Array.from({ length: most + 1 }, (_, i) => `t${i}`) } })[0]!
        .message,
      new RegExp(`at most ${most} toolkits; got ${most + 1}`),
    );
  });

  it('checks across fields even when a field failed, and reports each failure once', () => {
    const issues = issuesOf({
      prompt: '',
      urls: ['ftp://a', 5],
      exchange: { requireApproval: true, approve: { approvalId: 'a b' }, toolkits: [1, 2] },
    });
    assert.deepEqual(
      issues.map((i) => i.field),
      [
        'prompt',
        'urls',
        'urls',
        'exchange.toolkits',
        'exchange.approve.approvalId',
        'exchange.requireApproval',
        'threadId',
      ],
    );
    assert.match(issues[1]!.message, /^urls\[0\] "ftp:\/\/a" is not an absolute http\(s\) URL/);
    assert.match(issues[2]!.message, /^urls\[1\] 5 is not/);
  });

  it("the body keeps the caller's values in the schema's order, with enabled: true when paid calls are asked for", () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const r = validateAgentSubmit({ exchange: { maxCalls: 3 }, mode: 'chat', schema, maxCredits: 5, prompt: 'p' });
    assert.ok(r.ok);
    assert.equal(
      JSON.stringify(r.body),
      JSON.stringify({ prompt: 'p', schema, maxCredits: 5, mode: 'chat', exchange: { enabled: true, maxCalls: 3 } }),
    );
    assert.equal(r.body.schema, schema, "the caller's own object, not a copy");
    assert.deepEqual(SUBMIT_FIELDS.slice(0, 4), ['prompt', 'urls', 'schema', 'maxCredits']);
  });

  it("the CLI has a flag for every field a person sets, and its help states the schema's bounds", () => {
    const flagged = new Set(Object.values(SUBMIT_FLAGS).map((f) => f.field));
    for (const f of SUBMIT_FIELDS) {
      if (f === 'prompt' || f === 'origin' || f === 'integration') continue;
      if (f === 'exchange') for (const k of PAID_CALL_SETTINGS) assert.ok(flagged.has(`exchange.${k}`), k);
      else assert.ok(flagged.has(f), f);
    }
    assert.ok(AGENT_USAGE.includes(`--effort ${full.properties.effort!.enum!.join('|')}`));
    assert.ok(AGENT_USAGE.includes(`--mode ${full.properties.mode!.enum!.join('|')}`));
    assert.ok(AGENT_USAGE.includes(`--on-terms ${exchange.properties.onTermsRequired!.enum!.join('|')}`));
    assert.ok(
      AGENT_USAGE.includes(
        `at most N (${exchange.properties.maxCalls!.minimum} to ${exchange.properties.maxCalls!.maximum})`,
      ),
    );
    assert.ok(AGENT_USAGE.includes(`most ${exchange.properties.toolkits!.maxItems})`));
  });

  it('the flags become a submission the same check accepts', () => {
    const values = {
      urls: ['https://a.example,https://b.example'],
      'max-credits': '40',
      model: 'spark-2',
      effort: 'low',
      'strict-urls': true,
      mode: 'chat',
      thread: '9d0c7a52-2f1e-4c8b-9a44-6f1b3c2d1e00',
      toolkits: ['github'],
      'max-calls': '3',
      'require-approval': true,
      'on-terms': 'ask',
    };
    const params = submitParamsFrom({ sub: 'start', values, args: ['Find it'], json: false });
    const r = validateAgentSubmit(params);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.body, {
      prompt: 'Find it',
      urls: ['https://a.example', 'https://b.example'],
      maxCredits: 40,
      model: 'spark-2',
      effort: 'low',
      strictConstrainToURLs: true,
      threadId: '9d0c7a52-2f1e-4c8b-9a44-6f1b3c2d1e00',
      mode: 'chat',
      exchange: { enabled: true, toolkits: ['github'], maxCalls: 3, requireApproval: true, onTermsRequired: 'ask' },
    });
  });
});

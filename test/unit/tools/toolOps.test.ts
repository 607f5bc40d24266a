import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as agentApi from '../../../src/api/agent/agentClient';
import { ApiError } from '../../../src/api/errors';
import type { SearchParams } from '../../../src/api/params';
import { SearchResponseSchema } from '../../../src/api/schemas';
import { runTool } from '../../../src/tools/toolOps';
import { type AgentOps, type ToolDeps } from '../../../src/tools/toolTypes';
import type { ToolSubmitParams } from '../../../src/api/agent/submitSchema';
import { resolveFolder } from '../../../src/deps/resolver';

const JOB = '123e4567-e89b-42d3-a456-426614174000';
const KEY = 'sk-test-key-987654321';

function deps(over: Partial<ToolDeps> = {}): ToolDeps & { searches: SearchParams[]; starts: ToolSubmitParams[] } {
  const searches: SearchParams[] = [];
  const starts: ToolSubmitParams[] = [];
  const agent: Partial<AgentOps> = {
    status: async () => ({ status: 'processing' }) as never,
    trace: async () => {
      throw new ApiError({
        kind: 'http',
        status: 400,
        error: 'Trace is only available for Spark 2 extracts',
        message: 'x',
      });
    },
    cancel: async () => {
      throw new ApiError({
        kind: 'http',
        status: 409,
        error: 'Agent already finished',
        message: 'Agent already finished (HTTP 409)',
      });
    },
  };
  return {
    searches,
    starts,
    surface: 'editor',
    folderDependencies: resolveFolder,
    maxChars: () => 10_000,
    secret: () => KEY,
    search: async (p) => {
      searches.push(p);
      return SearchResponseSchema.parse({
        success: true,
        results: [
          {
            id: 'issue:acme/widgets#1',
            url: 'https://github.com/acme/widgets/issues/1',
            title: 'T',
            passages: [{ text: 'p' }],
          },
        ],
      });
    },
    agentModule: async () => agentApi.agentModule,
    agent: async () => agent as AgentOps,
    start: async (r) => {
      starts.push(r);
      return JOB;
    },
    defaultMaxCredits: () => 2500,
    hasKey: async () => true,
    workspaceRepos: async () => ({ slugs: ['fetchline/fetchline', 'quarry-dev/fetchline'] }),
    ...over,
  };
}

describe('runTool', () => {
  it('scope "workspace" sends the workspace slugs as repos (added to given repos) and says so', async () => {
    const d = deps();
    const out = await runTool('devIndex_search', { query: 'pool', scope: 'workspace', repos: ['acme/widgets'] }, d);
    assert.equal(out.isError, false, out.text);
    assert.deepEqual(d.searches[0]!.repos, ['acme/widgets', 'fetchline/fetchline', 'quarry-dev/fetchline']);
    assert.ok(!('scope' in d.searches[0]!), 'scope is not sent to the service');
    assert.match(out.text, /Scope: the workspace's repositories fetchline\/fetchline, quarry-dev\/fetchline/);
  });

  it('scope "workspace" without a GitHub repository: an explained error, nothing sent', async () => {
    const d = deps({
      workspaceRepos: async () => ({ slugs: [], reason: "the workspace's repositories are hosted on gitlab.com" }),
    });
    const out = await runTool('devIndex_search', { query: 'pool', scope: 'workspace' }, d);
    assert.equal(out.isError, true);
    assert.match(out.text, /hosted on gitlab\.com.*Search without scope, or pass repos/);
    assert.equal(d.searches.length, 0);
  });

  it('invalid search input names every field and bound; nothing is sent', async () => {
    const d = deps();
    const out = await runTool('devIndex_search', { query: 'x', k: 101, scope: 'repo', colour: 'red' }, d);
    assert.equal(out.isError, true);
    assert.match(out.text, /- scope: scope may only be "workspace"; got "repo"/);
    assert.match(out.text, /- k: k must be from 1 to 100; got 101/);
    assert.match(out.text, /- colour: colour is not a developer search parameter/);
    assert.equal(d.searches.length, 0);
  });

  it('topic takes one string or a list of up to 8, as the schema says; 9 are refused with the bound', async () => {
    const d = deps();
    const one = await runTool('devIndex_search', { query: 'retry', topic: 'http' }, d);
    assert.equal(one.isError, false, one.text);
    const two = await runTool('devIndex_search', { query: 'retry', topic: ['http', 'retry'] }, d);
    assert.equal(two.isError, false, two.text);
    assert.deepEqual(
      d.searches.map((s) => s.topic),
      ['http', ['http', 'retry']],
    );
    const nine = await runTool(
      'devIndex_search',
      { query: 'retry', topic: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'] },
      d,
    );
    assert.equal(nine.isError, true);
    assert.match(nine.text, /- topic: .*8/);
    assert.equal(d.searches.length, 2, 'nothing sent for the refused input');
  });

  it('input that is not an object is an error, not an exception', async () => {
    const out = await runTool('devIndex_search', 'just a string', deps());
    assert.equal(out.isError, true);
    assert.match(out.text, /the input must be a JSON object; got "just a string"/);
  });

  it('a client failure is text for the model with the key removed', async () => {
    const d = deps({
      search: async () => {
        throw new ApiError({ kind: 'http', status: 502, message: `upstream said ${KEY} (HTTP 502): try again later` });
      },
    });
    const out = await runTool('devIndex_search', { query: 'x' }, d);
    assert.equal(out.isError, true);
    assert.ok(!out.text.includes(KEY));
    assert.match(out.text, /The search failed: upstream said \[redacted\]/);
  });

  it('start: default credit ceiling, every field passed on, the id and where to follow it', async () => {
    const d = deps();
    const out = await runTool(
      'devIndex_startAgentJob',
      { prompt: 'Find libraries', effort: 'low', urls: ['https://a.example/'] },
      d,
    );
    assert.equal(out.isError, false, out.text);
    assert.deepEqual(d.starts[0], {
      prompt: 'Find libraries',
      effort: 'low',
      urls: ['https://a.example/'],
      maxCredits: 2500,
    });
    assert.match(out.text, new RegExp(`Started agent job ${JOB} with a ceiling of 2,500 credits`));
    assert.match(out.text, /Agent Jobs view/);
  });

  it('start: invalid fields are listed before anything is started; no key is explained', async () => {
    const d = deps();
    const bad = await runTool('devIndex_startAgentJob', { prompt: '', effort: 'max', budget: 3 }, d);
    assert.equal(bad.isError, true);
    assert.match(bad.text, /- budget: budget is not an agent job field/);
    assert.match(bad.text, /- prompt: prompt must not be empty/);
    assert.match(bad.text, /- effort: effort must be one of low, medium, high; got "max"/);
    const noKey = await runTool('devIndex_startAgentJob', { prompt: 'Find' }, deps({ hasKey: async () => false }));
    assert.equal(noKey.isError, true);
    assert.match(noKey.text, /needs an API key.*Set API Key/);
    assert.equal(d.starts.length, 0);
  });

  it('start refused by the user (the command resolved without an id): says nothing was billed', async () => {
    const out = await runTool('devIndex_startAgentJob', { prompt: 'Find' }, deps({ start: async () => undefined }));
    assert.equal(out.isError, true);
    assert.match(out.text, /was not submitted.*Nothing was billed/);
  });

  it('status without a trace says why; cancel of a finished job is not an error', async () => {
    const status = await runTool('devIndex_agentJobStatus', { jobId: JOB }, deps());
    assert.equal(status.isError, false, status.text);
    assert.match(status.text, new RegExp(`^Agent job ${JOB}: processing\\.`));
    assert.match(status.text, /Trace: this job predates traces\./);
    const cancel = await runTool('devIndex_cancelAgentJob', { jobId: JOB }, deps());
    assert.equal(cancel.isError, false);
    assert.match(cancel.text, /had already finished, so there was nothing to cancel/);
  });

  it('a model newer than this build is refused before sending unless extraModels allows it (setting / DEVINDEX_AGENT_MODELS)', async () => {
    const refused = deps();
    const out = await runTool('devIndex_startAgentJob', { prompt: 'p', model: 'spark-3' }, refused);
    assert.equal(out.isError, true);
    assert.match(out.text, /- model: model "spark-3" is not one the service accepts/);
    assert.deepEqual(refused.starts, []);
    const allowed = deps({ extraModels: () => ['spark-3'] });
    const ok = await runTool('devIndex_startAgentJob', { prompt: 'p', model: 'spark-3' }, allowed);
    assert.equal(ok.isError, false, ok.text);
    assert.deepEqual(
      allowed.starts.map((s) => s.model),
      ['spark-3'],
    );
  });

  it('a cancel that went through says the run ends as cancelled and may still be charged (production), never "not billed"', async () => {
    const cancelled: string[] = [];
    const agent: Partial<AgentOps> = {
      cancel: async (id) => {
        cancelled.push(id);
        return { success: true } as never;
      },
    };
    const out = await runTool(
      'devIndex_cancelAgentJob',
      { jobId: JOB },
      deps({ agent: async () => agent as AgentOps }),
    );
    assert.deepEqual(cancelled, [JOB]);
    assert.equal(out.isError, false, out.text);
    assert.match(
      out.text,
      /ends as cancelled; the credits it spent before the cancel took effect may still be charged/,
    );
    assert.doesNotMatch(out.text, /not billed/);
  });

  it('a bad job id or snapshot id is named with the rule it broke', async () => {
    const out = await runTool('devIndex_readSnapshot', { jobId: 'x', snapshotId: '../etc' }, deps());
    assert.equal(out.isError, true);
    assert.match(out.text, /- jobId: jobId "x": Invalid job ID format/);
    assert.match(out.text, /- snapshotId: snapshotId "\.\.\/etc": Invalid snapshot ID/);
  });
});

import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { agentDocumentPath, formatSnapshot, parseAgentDocumentPath } from '../../../src/agents/agentDocuments';
import { deserializeJobs, serializeJobs } from '../../../src/agents/jobModel';

const JOB = '6f1c2a4e-1b2c-4d3e-8f90-123456789abc';

describe('agent documents', () => {
  it('round-trips snapshot, result and trace paths, with an extension per artifact kind', () => {
    for (const d of [
      { kind: 'snapshot' as const, jobId: JOB, snapshotId: 'a1-b2', artifactKind: 'json' },
      { kind: 'snapshot' as const, jobId: JOB, snapshotId: 'md_1', artifactKind: 'markdown' },
      { kind: 'result' as const, jobId: JOB },
      { kind: 'partial' as const, jobId: JOB, label: 'Find rate limits' },
      { kind: 'trace' as const, jobId: JOB },
    ])
      assert.deepEqual(parseAgentDocumentPath(agentDocumentPath(d)), d);
    assert.match(
      agentDocumentPath({ kind: 'snapshot', jobId: JOB, snapshotId: 's', artifactKind: 'markdown' }),
      /\.md$/,
    );
    assert.equal(parseAgentDocumentPath(`/${JOB}/snapshots/../../etc.json`), undefined);
    assert.equal(parseAgentDocumentPath('/x y/result/result.json'), undefined);
  });

  it('names tabs after what they hold and the job: result — <label>.json, <artifact> — <label>.md', () => {
    const last = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
    assert.equal(
      last(agentDocumentPath({ kind: 'result', jobId: JOB, label: 'Find the rate limits of…' })),
      'result — Find the rate limits of….json',
    );
    assert.equal(last(agentDocumentPath({ kind: 'partial', jobId: JOB, label: 'x' })), 'partial result — x.json');
    assert.equal(
      last(
        agentDocumentPath({
          kind: 'snapshot',
          jobId: JOB,
          snapshotId: 's1',
          artifactKind: 'markdown',
          name: 'summary.md',
          label: 'Find',
        }),
      ),
      'summary — Find.md',
    );
    assert.equal(
      last(
        agentDocumentPath({ kind: 'snapshot', jobId: JOB, snapshotId: 's1', artifactKind: 'json', label: 'a/b\\c' }),
      ),
      'json — a b c.json',
      'no path separators from a prompt',
    );
  });

  it('pretty-prints JSON snapshots and leaves others as they came', () => {
    assert.equal(formatSnapshot('json', '{"items":[1]}'), '{\n  "items": [\n    1\n  ]\n}\n');
    assert.equal(formatSnapshot('json', '{"trunc'), '{"trunc');
    assert.equal(formatSnapshot('markdown', '# Summary'), '# Summary');
  });
});

describe('persisted jobs', () => {
  it('drops malformed entries and unknown formats instead of trusting them', () => {
    const good = {
      id: JOB,
      prompt: 'p',
      createdAt: 5,
      origin: 'user' as const,
      status: 'processing',
      trace: { eventCount: 2, finished: false },
    };
    const raw = JSON.parse(JSON.stringify(serializeJobs([good], ['gone'])));
    raw.jobs.push({ id: 7 }, null, 'x');
    const back = deserializeJobs(raw);
    assert.equal(back.jobs.length, 1);
    assert.equal(back.jobs[0]!.trace.eventCount, 2);
    assert.deepEqual(back.removed, ['gone']);
    assert.deepEqual(deserializeJobs({ format: 99, jobs: [good] }).jobs, []);
    assert.deepEqual(deserializeJobs(undefined).jobs, []);
  });
});

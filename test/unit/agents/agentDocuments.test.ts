import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { agentDocumentPath, formatSnapshot, parseAgentDocumentPath } from '../../../src/agents/agentDocuments';
import { describeAgentError, isJobNotFound, isNoTrace, isPermanent, submitMayHaveCreatedJob } from '../../../src/agents/agentErrors';
import { deserializeJobs, serializeJobs } from '../../../src/agents/jobModel';

const JOB = '6f1c2a4e-1b2c-4d3e-8f90-123456789abc';

describe('agent documents', () => {
  it('round-trips snapshot, result and trace paths, with an extension per artifact kind', () => {
    for (const d of [
      { kind: 'snapshot' as const, jobId: JOB, snapshotId: 'a1-b2', artifactKind: 'json' },
      { kind: 'snapshot' as const, jobId: JOB, snapshotId: 'md_1', artifactKind: 'markdown' },
      { kind: 'result' as const, jobId: JOB },
      { kind: 'trace' as const, jobId: JOB },
    ]) assert.deepEqual(parseAgentDocumentPath(agentDocumentPath(d)), d);
    assert.match(agentDocumentPath({ kind: 'snapshot', jobId: JOB, snapshotId: 's', artifactKind: 'markdown' }), /\.md$/);
    assert.equal(parseAgentDocumentPath(`/${JOB}/snapshots/../../etc.json`), undefined);
    assert.equal(parseAgentDocumentPath('/x y/result.json'), undefined);
  });

  it('pretty-prints JSON snapshots and leaves others as they came', () => {
    assert.equal(formatSnapshot('json', '{"items":[1]}'), '{\n  "items": [\n    1\n  ]\n}\n');
    assert.equal(formatSnapshot('json', '{"trunc'), '{"trunc');
    assert.equal(formatSnapshot('markdown', '# Summary'), '# Summary');
  });
});

describe('agent errors as the store reads them', () => {
  const http = (status: number, error: string, extra: object = {}) => ({ kind: 'http', status, error, retryable: false, ...extra });
  it('classifies 404, the older-engine 400, permanent and transient failures', () => {
    assert.equal(isJobNotFound(http(404, 'Agent job not found')), true);
    assert.equal(isJobNotFound(http(404, 'Snapshot not found')), false);
    assert.equal(isNoTrace(http(400, 'Trace is only available for FORGE-2 extracts')), true);
    assert.equal(isPermanent(http(401, 'Unauthorized: Invalid token')), true);
    assert.equal(isPermanent(http(429, 'Rate limit exceeded', { retryable: true })), false);
    assert.equal(isPermanent({ kind: 'network' }), false);
  });

  it('treats timeouts, 502, 504 and JobMayExistError as "the job may exist"', () => {
    assert.equal(submitMayHaveCreatedJob({ kind: 'timeout' }), true);
    assert.equal(submitMayHaveCreatedJob(http(504, '')), true);
    assert.equal(submitMayHaveCreatedJob(http(502, '')), true);
    assert.equal(submitMayHaveCreatedJob({ kind: 'http', status: 500, jobMayExist: true }), true);
    assert.equal(submitMayHaveCreatedJob(http(503, 'Service Unavailable')), false);
    assert.equal(submitMayHaveCreatedJob(http(400, 'Bad Request')), false);
  });

  it('explains the 409s and zero data retention with the next step', () => {
    assert.match(describeAgentError(http(409, 'Agent already finished')), /refresh/);
    assert.match(describeAgentError(http(409, 'Agent is already cancelled')), /shortly/);
    assert.match(describeAgentError(http(400, 'Your team has zero data retention enabled. This is not supported on extract.')), /zero data retention/);
  });
});

describe('persisted jobs', () => {
  it('drops malformed entries and unknown formats instead of trusting them', () => {
    const good = { id: JOB, prompt: 'p', createdAt: 5, origin: 'user' as const, status: 'processing', trace: { eventCount: 2, finished: false } };
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

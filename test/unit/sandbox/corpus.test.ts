// Corpus loading: titles, ids and urls per type, and what is left out (unindexed repositories and
// types, sources missing from sources.json).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadCorpus, splitTitle } from '../../../sandbox/search/corpus';
import { findRepoRoot } from '../../../sandbox/serverParts';

const dir = join(findRepoRoot(__dirname) ?? '.', 'test', 'fixtures', 'corpus-small');

describe('splitTitle', () => {
  it('takes the first line only when it is "# …"', () => {
    assert.deepEqual(splitTitle('# Title  \r\n\r\nBody'), { title: 'Title', body: 'Body' });
    assert.deepEqual(splitTitle('\uFEFF# T\nB'), { title: 'T', body: 'B' });
    assert.deepEqual(splitTitle('Intro\n# Later heading'), { body: 'Intro\n# Later heading' });
    assert.deepEqual(splitTitle('## Second level\nB'), { body: '## Second level\nB' });
    assert.deepEqual(splitTitle('#NoSpace\nB'), { body: '#NoSpace\nB' });
    assert.deepEqual(splitTitle('# Only'), { title: 'Only', body: '' });
  });
});

describe('loadCorpus', () => {
  const corpus = loadCorpus(dir);
  const byId = new Map(corpus.docs.map((d) => [d.id, d]));

  it('loads the indexed documents only', () => {
    assert.equal(corpus.docs.length, 13);
    assert.equal(byId.has('pull_request:acme/partial#5'), false, 'pull requests of acme/partial are not indexed');
    assert.equal(byId.has('readme:hidden/unindexed'), false, 'hidden/unindexed is not indexed');
  });

  it('marks skill files and keeps the path in doc ids', () => {
    assert.deepEqual(
      corpus.docs
        .filter((d) => d.skill)
        .map((d) => d.id)
        .sort(),
      ['doc:alpha-docs/skills/backoff/SKILL', 'doc:beta-docs/skills/pagination/SKILL'],
    );
    assert.equal(byId.get('doc:alpha-docs/guide/retries')?.source, 'alpha-docs');
  });

  it('reads the repository metadata and the title', () => {
    const issue = byId.get('issue:old/widgets-fork#7');
    assert.equal(issue?.repo?.archived, true);
    assert.equal(issue?.title, 'Fork drifts behind upstream zephyr');
    assert.equal(byId.get('doc:alpha-docs/notitle')?.title, undefined);
  });

  it('fails clearly for a missing folder', () => {
    assert.throws(() => loadCorpus(join(dir, 'nope')), /corpus folder not found/);
  });
});

// The fixes check reads a whole answer in one scan of the stretches around its versions; it must reach the
// same verdicts as the version badges every other surface shows, result by result (resultBadges): checked over
// every issue and pull request of the sandbox corpus, each chunk a passage, at installed versions around theirs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCorpus } from '../../../sandbox/search/corpus';
import { defaultCorpusDir } from '../../../sandbox/serverParts';
import { resultVerdicts, versionStretches } from '../../../src/fixes/verdicts';
import { resultBadges } from '../../../src/versions/versionCompare';
import { findVersionMentions } from '../../../src/versions/versionMentions';

const corpus = loadCorpus(defaultCorpusDir());
const repos = new Map<string, typeof corpus.docs>();
for (const d of corpus.docs)
  if ((d.type === 'issue' || d.type === 'pull_request') && d.repo)
    (repos.get(d.repo.repo) ?? repos.set(d.repo.repo, []).get(d.repo.repo)!).push(d);

test('one scan per answer gives the verdicts of resultBadges, result by result', () => {
  let fixes = 0;
  let affecting = 0;
  for (const [slug, docs] of repos) {
    const results = docs.map((d) => ({
      id: d.id,
      url: d.url,
      title: d.title,
      type: d.type,
      passages: d.chunks.map((text) => ({ text })),
    }));
    for (const installed of ['0.1.0', '0.9.0', '1.0.0', '2.0.3', '2.4.0', '3.2.0', '3.14.0', '0.10.1', '1.4.0']) {
      const dep = { ecosystem: 'npm' as const, name: slug.split('/')[1]!, repository: slug, installed };
      const got = resultVerdicts(results, dep);
      for (const r of results) {
        const badges = resultBadges(
          r.title,
          r.passages.map((p) => p.text),
          { ecosystem: 'npm', name: dep.name, slug, version: installed },
        );
        const newer = badges.some((b) => b.verdict === 'newer-fix');
        const affects =
          !newer && badges.some((b) => b.verdict === 'affects-yours') && !badges.some((b) => b.kind === 'fixed');
        assert.equal(
          got.fixes.some((f) => f.id === r.id),
          newer,
          `${r.id} at ${installed}: fix`,
        );
        assert.equal(
          got.affecting.some((f) => f.id === r.id),
          affects,
          `${r.id} at ${installed}: affecting`,
        );
        fixes += Number(newer);
        affecting += Number(affects);
      }
    }
  }
  assert.ok(fixes > 20 && affecting >= 1, `the corpus exercises both (${fixes} fixes, ${affecting} affecting)`);
});

test('the stretches keep every statement and drop text without versions', () => {
  const text = `${'Nothing to see here. '.repeat(40)}This is fixed in 2.1.0 and backported to 1.9.4.${' More words.'.repeat(40)}`;
  const s = versionStretches(text);
  assert.ok(s.length < text.length / 2);
  assert.deepEqual(
    findVersionMentions(s).map((m) => m.version),
    findVersionMentions(text).map((m) => m.version),
  );
  assert.equal(versionStretches('no versions at all'), '');
});

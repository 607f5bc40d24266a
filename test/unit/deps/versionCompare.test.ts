// Version statements against the installed version, per ecosystem: semver (npm, Cargo, Go with `v` and
// pseudo-versions), PEP 440 (Python); garbage on either side gives no badge; the summary line and the chip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compareMention,
  resultBadges,
  versionSummary,
  type InstalledDependency,
} from '../../../src/versions/versionCompare';
import { installedChipLabel } from '../../../src/words/viewWords';
import { findVersionMentions } from '../../../src/versions/versionMentions';
import satisfies from 'semver/functions/satisfies';

const npm = (version?: string): InstalledDependency => ({
  ecosystem: 'npm',
  name: '@acme/widgets',
  slug: 'acme/widgets',
  ...(version ? { version } : {}),
});
const badge = (sentence: string, dep: InstalledDependency) => {
  const [m] = findVersionMentions(sentence, { names: ['widgets'] });
  assert.ok(m, sentence);
  return compareMention(m, dep);
};

test('npm: an x-range ("Affects 1.2.x", "2.x") includes exactly what semver\'s range does, pre-releases too', () => {
  const installed = [
    '1.2.0',
    '1.2.9',
    '1.2.5-rc.1',
    '1.2.0-beta',
    '1.3.0',
    '1.3.0-beta',
    '1.1.9',
    '2.0.0',
    '2.9.1',
    '0.2.1',
  ];
  for (const stated of ['1.2.x', '1.x', '2.x', '0.x', '0.2.x', '1.2.X'])
    for (const v of installed) {
      const b = badge(`Affects ${stated}`, npm(v));
      const inside = satisfies(v, stated.toLowerCase(), { includePrerelease: true });
      assert.equal(b?.verdict, inside ? 'affects-yours' : 'affects-other', `${stated} against ${v}`);
    }
});

test('npm: a newer fix, an included fix, affected ranges, since', () => {
  assert.equal(badge('Fixed in 2.1.0.', npm('2.0.3'))?.label, 'Fixed in 2.1.0 · you have 2.0.3');
  assert.equal(badge('Fixed in 2.1.0.', npm('2.0.3'))?.text, 'fixed in 2.1.0 · newer than your 2.0.3');
  assert.equal(badge('Fixed in 2.1.0.', npm('2.0.3'))?.highlight, true);
  assert.equal(badge('Fixed in 1.9.0.', npm('2.0.3'))?.label, 'Fixed in 1.9.0 · included in your 2.0.3');
  assert.equal(badge('Fixed in 2.0.3.', npm('2.0.3'))?.verdict, 'included-fix');
  assert.equal(badge('Landed in 2.1', npm('2.0.3'))?.verdict, 'newer-fix');
  assert.equal(badge('Fixed in 2.1.0-beta.1', npm('2.1.0'))?.verdict, 'included-fix');
  assert.equal(badge('Fixed in 2.1.0-beta.1', npm('2.0.3'))?.verdict, 'newer-fix');
  assert.equal(badge('Affects 2.0.x', npm('2.0.3'))?.label, 'Affects 2.0.x · yours');
  assert.equal(badge('Affects 1.x', npm('2.0.3'))?.verdict, 'affects-other');
  assert.equal(badge('Broken since 2.0', npm('2.0.3'))?.label, 'Affects 2.0+ · yours');
  assert.equal(badge('Broken since 2.1', npm('2.0.3'))?.verdict, 'affects-other');
  assert.equal(badge('Affected versions: 2.0.0 - 2.0.3', npm('2.0.3'))?.label, 'Affects 2.0.0–2.0.3 · yours');
  assert.equal(badge('Still happens on 2.0.2.', npm('2.0.3'))?.verdict, 'affects-other');
});

test('Cargo follows semver; Go keeps its v and compares pseudo-versions', () => {
  const cargo: InstalledDependency = {
    ecosystem: 'cargo',
    name: 'ratelane',
    slug: 'ferrous-labs/ratelane',
    version: '0.4.2',
  };
  assert.equal(badge('Fixed in 0.4.3', cargo)?.verdict, 'newer-fix');
  assert.equal(badge('Fixed in 0.4.1', cargo)?.verdict, 'included-fix');
  const go: InstalledDependency = {
    ecosystem: 'go',
    name: 'github.com/gridworks/tollgate/v2',
    slug: 'gridworks/tollgate',
    version: 'v2.1.0',
  };
  assert.equal(badge('Fixed in v2.1.1', go)?.label, 'Fixed in 2.1.1 · you have v2.1.0');
  assert.equal(badge('Fixed in v2.0.9', go)?.verdict, 'included-fix');
  const pseudo: InstalledDependency = { ...go, version: 'v0.0.0-20240105093012-1f2e3d4c5b6a' };
  assert.equal(badge('Fixed in v0.1.0', pseudo)?.verdict, 'newer-fix');
  assert.equal(badge('Fixed in v0.0.0-20231201000000-aaaaaaaaaaaa', pseudo)?.verdict, 'included-fix');
  assert.equal(badge('Fixed in v2.1.1', { ...go, version: 'v2.1.0+incompatible' })?.verdict, 'newer-fix');
});

test('Python compares by PEP 440: pre-releases, post releases, 2.x as ==2.*', () => {
  const py = (version: string): InstalledDependency => ({
    ecosystem: 'pypi',
    name: 'requests',
    slug: 'psf/requests',
    version,
  });
  assert.equal(badge('Fixed in 2.32.0', py('2.31.0'))?.verdict, 'newer-fix');
  assert.equal(badge('Fixed in 2.31.0', py('2.31.0.post1'))?.verdict, 'included-fix');
  assert.equal(badge('Fixed in 1.0rc2', py('1.0rc1'))?.verdict, 'newer-fix');
  assert.equal(badge('Fixed in 1.0rc2', py('1.0'))?.verdict, 'included-fix');
  assert.equal(badge('Affects 2.x', py('2.31.0'))?.verdict, 'affects-yours');
  assert.equal(badge('Affects 3.x', py('2.31.0'))?.verdict, 'affects-other');
  assert.equal(badge('Broken since 2.30', py('2.31.0'))?.verdict, 'affects-yours');
});

test('garbage or unknown versions give no badge, never a wrong one', () => {
  assert.equal(badge('Fixed in 2.1.0', npm()), undefined);
  for (const v of ['latest', 'workspace:*', '^2.0.0', 'banana', '2.0.3.4.5.6'])
    assert.equal(badge('Fixed in 2.1.0', npm(v)), undefined, v);
  assert.equal(badge('Fixed in 1.0rc2', npm('2.0.3')), undefined, 'not semver: npm shows nothing');
  assert.equal(
    badge('Fixed in 2.1.0', { ecosystem: 'pypi', name: 'x', slug: 'o/x', version: 'not-a-version' }),
    undefined,
  );
});

test('a result: badges deduplicated and ordered, an included backport dropped beside a newer fix; the summary line; the chip', () => {
  const dep = npm('2.0.3');
  const a = resultBadges(
    'Timeout ignored on retry',
    ['Broken since 2.0.0.', 'Fixed in 2.1.0 and backported to 1.9.4. Fixed in 2.1.0!'],
    dep,
  );
  assert.deepEqual(
    a.map((b) => b.label),
    ['Fixed in 2.1.0 · you have 2.0.3', 'Affects ≥2.0.0 <2.1.0 · yours'],
  );
  // A regression the same result says is fixed: the range ends at the fix.
  assert.deepEqual(
    resultBadges('Nested defaults', ['Regression in 2.4.0.', 'Fixed in 2.5.1 and backported to 2.4.9.'], {
      ...dep,
      version: '2.6.0',
    }).map((x) => x.label),
    [
      'Fixed in 2.5.1 · included in your 2.6.0',
      'Fixed in 2.4.9 · included in your 2.6.0',
      'Affects ≥2.4.0 <2.5.1 · not your 2.6.0',
    ],
  );
  // A backport: the fix of your release line ends the range.
  assert.deepEqual(
    resultBadges('Nested defaults', ['Regression in 2.4.0.', 'Fixed in 2.5.1 and backported to 2.4.9.'], {
      ...dep,
      version: '2.5.0',
    }).map((x) => x.label),
    ['Fixed in 2.5.1 · you have 2.5.0', 'Affects ≥2.4.0 <2.5.1 · yours'],
  );
  assert.deepEqual(
    resultBadges('Nested defaults', ['Regression in 2.4.0.', 'Fixed in 2.5.1 and backported to 2.4.9.'], {
      ...dep,
      version: '2.4.9',
    }).map((x) => x.label),
    ['Fixed in 2.4.9 · included in your 2.4.9', 'Affects ≥2.4.0 <2.4.9 · not your 2.4.9'],
  );
  assert.equal(a[0]!.sentence, 'Fixed in 2.1.0 and backported to 1.9.4.');
  const b = resultBadges('chore(release): v2.1.0', ['Fixes the retry loop (#41).'], dep);
  assert.deepEqual(
    b.map((x) => x.label),
    ['Released 2.1.0 · newer than your 2.0.3'],
  );
  const c = resultBadges('Old crash', ['Fixed in 1.9.0.'], dep);
  const d = resultBadges('Unrelated', ['Works on Node 20.'], dep);
  const e = resultBadges('Another', ['This was fixed in 2.2.0 as well as in 2.1.0.'], dep);
  assert.equal(
    versionSummary([a, b, c, d, e], dep),
    '2 results mention a fix newer than your @acme/widgets 2.0.3 (2.1.0, 2.2.0).',
  );
  assert.equal(versionSummary([c, d], dep), '1 result mentions a fix your @acme/widgets 2.0.3 already includes.');
  assert.equal(versionSummary([d], dep), undefined);
  assert.equal(versionSummary([a], npm()), undefined);
  assert.equal(installedChipLabel({ slug: 'acme/widgets', version: '2.0.3' }), 'acme/widgets · 2.0.3 installed');
  assert.equal(installedChipLabel({ slug: 'acme/widgets' }), 'acme/widgets · version unknown');
});

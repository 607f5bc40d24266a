// The version-mention finder on real-shaped sentences from issues, pull requests and release notes: what
// it must find (fixed in / affects / released) and what it must leave alone (dates, addresses, runtimes,
// protocols, another package's version, durations, issue numbers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findVersionMentions } from '../../../src/versions/versionMentions';

const NAMES = ['@acme/widgets', 'acme/widgets', 'widgets', 'acme-widgets'];

/** [sentence, expected mentions as `kind version[..upto] bound`] */
const FOUND: Array<[string, string[]]> = [
  ['This was fixed in 2.1.0.', ['fixed 2.1.0 at']],
  ['Fixed in v2.1.0', ['fixed 2.1.0 at']],
  ['Fixed in version 2.1.0, please upgrade.', ['fixed 2.1.0 at']],
  ['The bug has been fixed in widgets 2.1.0', ['fixed 2.1.0 at']],
  ['It is fixed in @acme/widgets@2.1.0.', ['fixed 2.1.0 at']],
  ['fixed in `@acme/widgets@2.1.0`', ['fixed 2.1.0 at']],
  ['Resolved in 2.1.0 via #482.', ['fixed 2.1.0 at']],
  ['Released in v2.1.0 🎉', ['fixed 2.1.0 at']],
  ['This landed in 2.1 and will ship next week.', ['fixed 2.1 at']],
  ['Backported to 1.9.4.', ['fixed 1.9.4 at']],
  ['Backported to 1.9.4 and 1.8.7.', ['fixed 1.9.4 at', 'fixed 1.8.7 at']],
  ['The fix is in 2.1.0-beta.2, a stable release follows.', ['fixed 2.1.0-beta.2 at']],
  ['The fix is available in 2.1.0', ['fixed 2.1.0 at']],
  ['A fix was released in 2.0.4', ['fixed 2.0.4 at']],
  ['Shipped in 3.0.0 together with the new parser.', ['fixed 3.0.0 at']],
  ['Should be fixed in the next release (2.1.0).', []],
  ['This has been resolved in release 2.1.0 of acme-widgets.', ['fixed 2.1.0 at']],
  ['Patched in 1.2.3 (security advisory GHSA-xxxx).', ['fixed 1.2.3 at']],
  ['Was fixed by v2.1.0', ['fixed 2.1.0 at']],
  ['Included in 2.1.0.', ['fixed 2.1.0 at']],
  ['Merged into 2.x and released in 2.1.0.', ['fixed 2.1.0 at']],
  ['fixed as of 0.14.2', ['fixed 0.14.2 at']],
  ['Now fixed in 1.0.0rc2.', ['fixed 1.0.0rc2 at']],
  ['Fixed in 2.31.0 (requests).', ['fixed 2.31.0 at']],
  ['Please upgrade to 2.1.0 which fixes this.', ['fixed 2.1.0 at']],
  ['Update to v2.1.0 to fix the crash.', ['fixed 2.1.0 at']],
  ['This is fixed in widgets v2.1.0, closing.', ['fixed 2.1.0 at']],
  ['fixed in acme/widgets 2.1.0', ['fixed 2.1.0 at']],
  ['Fix released in 4.17.21', ['fixed 4.17.21 at']],
  ['The patch is in 1.2.1', ['fixed 1.2.1 at']],
  ['Fixed in module v1.4.2', ['fixed 1.4.2 at']],
  ['Fixed in v0.0.0-20240105093012-1f2e3d4c5b6a', ['fixed 0.0.0-20240105093012-1f2e3d4c5b6a at']],
  ['Available in 2.1.0 and 1.9.4', ['fixed 2.1.0 at', 'fixed 1.9.4 at']],
  ['Fixed in 2.1.0, 2.0.5 and 1.9.9.', ['fixed 2.1.0 at', 'fixed 2.0.5 at', 'fixed 1.9.9 at']],
  ['fixed in 2.1.0/1.9.4', ['fixed 2.1.0 at', 'fixed 1.9.4 at']],
  ['**Fixed in:** 2.1.0', ['fixed 2.1.0 at']],
  ['Broken since 2.0.', ['affects 2.0 since']],
  ['This is broken since 2.0.0', ['affects 2.0.0 since']],
  ['Regression in 2.0.0: the retry loop never ends.', ['affects 2.0.0 since']],
  ['This is a regression introduced in 2.0.0.', ['affects 2.0.0 since']],
  ['Introduced in v1.8.0 by the new cache.', ['affects 1.8.0 since']],
  ['Affects 2.x', ['affects 2.x range']],
  ['This affects 2.0.x only.', ['affects 2.0.x range']],
  ['Affected versions: 2.0.0 - 2.0.3', ['affects 2.0.0..2.0.3 range']],
  ['affects versions 2.0.0 through 2.0.3', ['affects 2.0.0..2.0.3 range']],
  ['Since 3.0 the default changed.', ['affects 3.0 since']],
  ['since v3 this throws', ['affects 3 since']],
  ['It started failing after upgrading to 2.0.3.', ['affects 2.0.3 since']],
  ['Still happens on 2.0.3.', ['affects 2.0.3 at']],
  ['Reproduced with widgets 2.0.3 on macOS.', ['affects 2.0.3 at']],
  ['Reproducible in 2.0.3 and 2.0.2', ['affects 2.0.3 at', 'affects 2.0.2 at']],
  ['I can confirm this happens with 2.0.3', ['affects 2.0.3 at']],
  ['Broken from 2.0.0 onwards.', ['affects 2.0.0 since']],
  ['Crashes since 1.9.0', ['affects 1.9.0 since']],
  ['After updating to 2.0.1 the build fails.', ['affects 2.0.1 since']],
  ['Observed in 2.0.0-rc.1 as well.', ['affects 2.0.0-rc.1 at']],
  ['Bug in 2.0.3: timeout is ignored.', ['affects 2.0.3 at']],
  ['This still fails in v2.0.3.', ['affects 2.0.3 at']],
  ['Affects 1.x and 2.x', ['affects 1.x range', 'affects 2.x range']],
  ['The issue exists in 2.0.3.', ['affects 2.0.3 at']],
  ['Broken since 2.0 (was fine in 1.9). Fixed in 2.1.0.', ['affects 2.0 since', 'fixed 2.1.0 at']],
  ['Regressed in 3.2.0, fixed in 3.2.1.', ['affects 3.2.0 since', 'fixed 3.2.1 at']],
  ['Issue introduced in 2.0.0 and fixed in 2.1.0.', ['affects 2.0.0 since', 'fixed 2.1.0 at']],
  ['Present since 2.0.0; resolved in 2.1.0', ['affects 2.0.0 since', 'fixed 2.1.0 at']],
  ['fixed in 2.1.0\nbroken since 2.0.0', ['fixed 2.1.0 at', 'affects 2.0.0 since']],
];

const TITLES: Array<[string, string[]]> = [
  ['Release 2.1.0', ['released 2.1.0 at']],
  ['chore(release): v2.1.0', ['released 2.1.0 at']],
  ['chore(release): 2.1.0 (2026-11-20)', ['released 2.1.0 at']],
  ['chore: release 2.1.0', ['released 2.1.0 at']],
  ['Release v2.1.0', ['released 2.1.0 at']],
  ['release: widgets@2.1.0', ['released 2.1.0 at']],
  ['chore(release): @acme/widgets@2.1.0', ['released 2.1.0 at']],
  ['v2.1.0', ['released 2.1.0 at']],
  ['Version 2.1.0', ['released 2.1.0 at']],
  ['Release 1.9.4 (backports)', []],
  ['Releases are slow', []],
  ['Release notes for 2.x are missing', []],
  ['Timeout fix (fixed in 2.1.0)', ['fixed 2.1.0 at']],
];

const NOT_FOUND: string[] = [
  'Works fine on Node 20.',
  'Broken since Node 20.',
  'Fails since Node.js 18.19.0 on Windows.',
  'Broken since upgrading to Node 22.',
  'Affects HTTP/2 connections only.',
  'Breaks with HTTP/1.1 keep-alive.',
  'Fixed in react 18.2.0, not in this package.',
  'This was fixed in typescript 5.4.2.',
  'Since Python 3.12 the warning is an error.',
  'Affects Go 1.22 and later.',
  'Regression in Chrome 120.',
  'Reproduced on macOS 14.2.1.',
  'Fixed in #1234.',
  'Fixed in commit 1f2e3d4.',
  'Fixed in https://github.com/acme/widgets/pull/42.',
  'Fixed in 5 minutes, thanks!',
  'Since 2019 this has been the default.',
  'Released in 2023 as part of the rewrite.',
  'Broken since 2024-01-05 when the CDN changed.',
  'Since 12/03 the job fails.',
  'Happens on 192.168.1.10 only.',
  'Since 10.0.0.1 became the gateway, requests time out.',
  'The server at 127.0.0.1:8080 refuses.',
  'Affects 3 users.',
  'It happens in 50% of the runs.',
  'Since 2.5 seconds is too short, raise the timeout.',
  'Fixed in the next release.',
  'Fixed in main.',
  'fixed in the latest version',
  'Upgrade to 2.1.0.',
  'We use widgets 2.0.3 in production.',
  'The changelog for 2.1.0 is long.',
  'Version 2.0.3 is installed.',
  'Node v20.11.1, npm 10.2.4, widgets 2.0.3',
  'Fixed in TLS 1.3 handshakes.',
  'Since IPv6 was enabled the test fails.',
  'Broken since the 1.x branch was merged? no idea',
  'Affects ~3.2% of requests.',
  'Regression in ES2022 output.',
  'Fixed in Firefox 121.0.1.',
  'released in 2024.01 (calendar)',
  'Confirmed with 2.5.1, thanks. Closing.',
  'Since the 2.0 migration guide says so, we should follow it.',
];

function show(m: { kind: string; version: string; bound: string; upto?: string }): string {
  return `${m.kind} ${m.version}${m.upto ? `..${m.upto}` : ''} ${m.bound}`;
}

test('finds fixed in / affects statements, with their bounds', () => {
  for (const [text, want] of FOUND) assert.deepEqual(findVersionMentions(text, { names: NAMES }).map(show), want, text);
});

test('a release pull request title counts as released; a plain title still has its statements', () => {
  for (const [text, want] of TITLES)
    assert.deepEqual(findVersionMentions(text, { names: NAMES, title: true }).map(show), want, text);
});

test('leaves alone runtimes, protocols, other packages, dates, addresses, numbers, links and vague words', () => {
  for (const text of NOT_FOUND) assert.deepEqual(findVersionMentions(text, { names: NAMES }).map(show), [], text);
});

test('at least 100 sentences in all', () => {
  assert.ok(
    FOUND.length + TITLES.length + NOT_FOUND.length >= 100,
    String(FOUND.length + TITLES.length + NOT_FOUND.length),
  );
});

test('the sentence a statement came from (for the tooltip), cut at 300 characters', () => {
  const [m] = findVersionMentions('We tried everything. Finally it was fixed in 2.1.0 after the rewrite. Thanks all!', {
    names: NAMES,
  });
  assert.equal(m!.sentence, 'Finally it was fixed in 2.1.0 after the rewrite.');
  const long = `${'word '.repeat(100)}fixed in 2.1.0 ${'tail '.repeat(100)}`;
  assert.ok(findVersionMentions(long)[0]!.sentence.length <= 302);
  assert.deepEqual(findVersionMentions(''), []);
});

test('without names, any package name between the phrase and the version means another package', () => {
  assert.deepEqual(findVersionMentions('fixed in widgets 2.1.0').map(show), []);
  assert.deepEqual(findVersionMentions('fixed in 2.1.0').map(show), ['fixed 2.1.0 at']);
});

// One sentence for each way of writing a fix or an affected version that people use in threads (words
// between the verb and the version, an issue number, the package's name, markdown, version first, a release
// heading, four-part and calendar versions, backports), and for each near miss that states neither.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findVersionMentions } from '../../../src/versions/versionMentions';

const NAMES = ['@acme/widgets', 'acme/widgets', 'widgets', 'acme-widgets'];
const found = (text: string) =>
  findVersionMentions(text, { names: NAMES }).map(
    (m) => `${m.kind} ${m.version}${m.upto ? `..${m.upto}` : ''} ${m.bound}`,
  );

const FINDS: Array<[string, string, string[]]> = [
  ['words between the verb and the version', 'Follow-up to #7: fixed again in 2.1.1.', ['fixed 2.1.1 at']],
  [
    'words between the verb and the version',
    'This should now be resolved in 3.2.0, thanks for the report.',
    ['fixed 3.2.0 at'],
  ],
  ['words between the verb and the version', 'It was finally patched upstream in 1.8.2.', ['fixed 1.8.2 at']],
  ['an issue number between', 'The fix for #12 ships in 3.4.0.', ['fixed 3.4.0 at']],
  ['an issue number between', 'We fixed it (#88) and released it as 0.9.1.', ['fixed 0.9.1 at']],
  ['the package name then the version', 'The crash is resolved in acme-widgets v2.1.0.', ['fixed 2.1.0 at']],
  ['the package name then the version', 'Fixed in `widgets@2.1.0`.', ['fixed 2.1.0 at']],
  ['a markdown link', 'Released in [v2.1.0](https://github.com/acme/widgets/releases/tag/v2.1.0).', ['fixed 2.1.0 at']],
  [
    'a markdown link to the tag',
    'Fixed in [the latest beta](https://github.com/acme/widgets/releases/tag/v2.2.0-beta.1).',
    ['fixed 2.2.0-beta.1 at'],
  ],
  ['backticks', 'This is resolved in `v2.1.0`, please upgrade.', ['fixed 2.1.0 at']],
  ['a field in bold', '**Fixed in:** 2.1.0', ['fixed 2.1.0 at']],
  ['version first, a breakage', '3.2.1 broke uploads for everyone on S3.', ['affects 3.2.1 at']],
  ['version first, a breakage', 'v2.0.4 is currently broken on Windows.', ['affects 2.0.4 at']],
  ['version first, a breakage', 'Since update 2.0.1 the app crashes on start.', ['affects 2.0.1 since']],
  ['version first, the fix', '4.0.2 is out and includes the patch.', ['fixed 4.0.2 at']],
  ['version first, the fix', 'widgets 2.3.0 has been released and contains a fix for this.', ['fixed 2.3.0 at']],
  ['an upgrade and what it does', 'Upgrading to 2.1.3, which prevents the leak, is the way out.', ['fixed 2.1.3 at']],
  ['an upgrade and what it does', 'Upgrading from 2.0.2 to 2.0.3 breaks the build.', ['affects 2.0.3 at']],
  ['a release heading followed by its fixes', '## 2.4.1\n\n### Bug fixes\n- The retry loop ends.', ['fixed 2.4.1 at']],
  ['a release heading on one line', '2.4.1: crash fix', ['fixed 2.4.1 at']],
  ['a four-part version', 'Fixed in 1.4.9.2.', ['fixed 1.4.9.2 at']],
  ['a four-part range', 'Memory leak between 4.2.9.0 - 4.2.12.0', ['affects 4.2.9.0..4.2.12.0 range']],
  ['a calendar version', 'The problem is still there even after 2024.3.1.', ['affects 2024.3.1 since']],
  ['a Maven qualifier', 'Fixed in 5.3.8.RELEASE.', ['fixed 5.3.8.RELEASE at']],
  ['a present-tense backport', 'We backport the fix to 3.1.x as well.', ['fixed 3.1.x range']],
  ['a present-tense backport', 'Backport fixes to v2.7', ['fixed 2.7 at']],
  ['a backport into a calendar line', 'Backport #20427 to 2014.7', ['fixed 2014.7 at']],
  ['the bug as what was released', 'The regression was released as part of 2.0.0.', ['affects 2.0.0 at']],
];

const REFUSES: Array<[string, string]> = [
  ['a runtime', 'Works fine on Node 20 and Python 3.12.'],
  ['a runtime, version first', 'Node 20.11.1 breaks the install script.'],
  ['another package, version first', 'React 18.2.0 broke hydration here.'],
  ['another product fixed on its own line', 'This is a Go 1.22.0 bug, fixed in 1.22.1.'],
  ['a version tested', 'Tested on 2.0.3, looks good to me.'],
  ['a release with features', 'Released 2.1.0 with new features and a new logo.'],
  ['a fix that did not make it', 'The patch did not make it into 5.6.'],
  ['a fix that is not in a release', 'The 2.4.0 release does not include the fix.'],
  ['a negated fix', 'Still not fixed as of 3.1, sadly.'],
  ['a negated fix', "I just realized #203 isn't fixed in 1.5.5."],
  ['a workaround', 'As a workaround, pinning to 2.0.2 fixes it.'],
  ['a wish for a backport', 'Could you backport this to 3.9?'],
  ['a branch', 'Please backport it to the `v1.9.x` line.'],
  ['a causal since', 'Since 2.1.0 was never published, we reverted.'],
  ['a change since, mid-sentence', 'There was only a license change since 0.8.'],
  ['an address with four parts', 'Broken on 10.0.0.12 only.'],
  ['a release, nothing more', '0.12.0 has been released.'],
  ['a version in a path', 'Published https://crates.io/crates/widgets/0.3.7 today.'],
  ['a fix heading with other features', '## 2.4.1\n\n### Features\n- A retry option.'],
];

test('finds each way of writing a fix or an affected version', () => {
  const wrong = FINDS.filter(([, text, want]) => found(text).join() !== want.join()).map(
    ([why, text, want]) => `${why}: ${JSON.stringify(text)} gave [${found(text).join(', ')}], not [${want.join(', ')}]`,
  );
  assert.deepEqual(wrong, []);
});

test('refuses what states neither a fix nor an affected version of the package', () => {
  const wrong = REFUSES.filter(([, text]) => found(text).length > 0).map(
    ([why, text]) => `${why}: ${JSON.stringify(text)} gave [${found(text).join(', ')}]`,
  );
  assert.deepEqual(wrong, []);
});

test('a markdown link names its version once, however often the link repeats it', () => {
  const ms = findVersionMentions('Released in [`v4.0.0`](https://github.com/acme/widgets/releases/tag/v4.0.0).');
  assert.deepEqual(
    ms.map((m) => m.version),
    ['4.0.0'],
  );
});

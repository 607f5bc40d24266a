import { test } from 'node:test';
import assert from 'node:assert/strict';
import { remotesFromConfigOutput } from '../../../src/host/node';
import { parseRemoteUrl, scopeFromRemotes } from '../../../src/search/repoSlug';

const forms: Array<[string, string | undefined, string?]> = [
  ['https://github.com/acme/http-kit', 'acme/http-kit', 'github.com'],
  ['https://github.com/acme/http-kit.git', 'acme/http-kit', 'github.com'],
  ['https://github.com/acme/http-kit/', 'acme/http-kit', 'github.com'],
  ['https://github.com/acme/http-kit.git/', 'acme/http-kit', 'github.com'],
  ['http://github.com/acme/http-kit', 'acme/http-kit', 'github.com'],
  ['https://www.github.com/acme/http-kit', 'acme/http-kit', 'github.com'],
  ['https://GitHub.com/Acme/Http.Kit.git', 'Acme/Http.Kit', 'github.com'],
  ['https://user:s3cret@github.com/acme/http-kit.git', 'acme/http-kit', 'github.com'],
  ['git@github.com:acme/http-kit.git', 'acme/http-kit', 'github.com'],
  ['git@github.com:acme/http-kit', 'acme/http-kit', 'github.com'],
  ['github.com:acme/http-kit.git', 'acme/http-kit', 'github.com'],
  ['ssh://git@github.com/acme/http-kit', 'acme/http-kit', 'github.com'],
  ['ssh://git@github.com:22/acme/http-kit.git', 'acme/http-kit', 'github.com'],
  ['git://github.com/acme/http-kit.git', 'acme/http-kit', 'github.com'],
  ['git+https://github.com/acme/http-kit.git', 'acme/http-kit', 'github.com'],
  ['  https://github.com/acme/http-kit.git\n', 'acme/http-kit', 'github.com'],
  ['https://gitlab.com/acme/http-kit.git', 'acme/http-kit', 'gitlab.com'],
  ['git@bitbucket.org:acme/http_kit.git', 'acme/http_kit', 'bitbucket.org'],
  ['https://gitlab.com/group/subgroup/project', 'subgroup/project', 'gitlab.com'],
  ['/home/me/src/http-kit', undefined],
  ['../http-kit', undefined],
  ['file:///home/me/src/http-kit.git', undefined],
  ['C:\\src\\http-kit', undefined],
  // Remotes that are Windows paths (a clone of a local or shared repository) are no repository slug.
  ['C:/src/acme/http-kit.git', undefined],
  ['c:\\Users\\me\\src\\acme\\http-kit\\.git', undefined],
  ['\\\\server\\share\\git\\acme\\http-kit.git', undefined],
  ['//server/share/git/acme/http-kit.git', undefined],
  ['\\\\?\\C:\\src\\acme\\http-kit', undefined],
  ['\\\\?\\UNC\\server\\share\\acme\\http-kit', undefined],
  ['file:///C:/src/acme/http-kit.git', undefined],
  ['file://server/share/acme/http-kit.git', undefined],
  ['git@github.com:acme\\http-kit.git', 'acme/http-kit', 'github.com'],
  ['git@[::1]:acme/http-kit.git', undefined],
  ['ssh://git@[::1]:22/acme/http-kit.git', 'acme/http-kit', '[::1]'],
  ['https://github.com/acme', undefined],
  ['', undefined],
  ['not a url', undefined],
];

for (const [url, slug, host] of forms) {
  test(`parseRemoteUrl(${JSON.stringify(url)}) -> ${slug ?? 'nothing'}`, () => {
    const r = parseRemoteUrl(url);
    assert.equal(r?.slug, slug);
    if (host) assert.equal(r?.host, host);
  });
}

test('credentials in a remote URL never reach the slug or host', () => {
  const r = parseRemoteUrl('https://x-access-token:ghp_abc123@github.com/acme/http-kit.git');
  assert.ok(r);
  assert.doesNotMatch(JSON.stringify(r), /ghp_abc123|x-access-token/);
});

test('scope puts upstream before origin and drops duplicates', () => {
  const s = scopeFromRemotes([
    { name: 'origin', url: 'git@github.com:me/http-kit.git' },
    { name: 'upstream', url: 'https://github.com/acme/http-kit' },
    { name: 'mirror', url: 'https://github.com/ACME/http-kit.git' },
  ]);
  assert.deepEqual(s.slugs, ['acme/http-kit', 'me/http-kit']);
});

test('scope reports remotes on hosts the index does not cover, and unparsable ones', () => {
  const s = scopeFromRemotes([
    { name: 'origin', url: 'https://gitlab.com/acme/http-kit.git' },
    { name: 'local', url: '/srv/git/http-kit.git' },
  ]);
  assert.deepEqual(s.slugs, []);
  assert.deepEqual(
    s.unsupported.map((r) => r.host),
    ['gitlab.com'],
  );
  assert.deepEqual(
    s.unparsable.map((r) => r.name),
    ['local'],
  );
});

test('git config output from Git for Windows (CRLF, a dotted remote name, a local path with spaces) -> remotes and scope', () => {
  const out =
    'remote.origin.url git@github.com:me/http-kit.git\r\nremote.up.stream.url https://github.com/acme/http-kit.git\r\nremote.local.url C:\\Users\\Ana Lima\\src\\http-kit\\.git\r\n';
  const remotes = remotesFromConfigOutput(out);
  assert.deepEqual(remotes, [
    { name: 'origin', url: 'git@github.com:me/http-kit.git' },
    { name: 'up.stream', url: 'https://github.com/acme/http-kit.git' },
    { name: 'local', url: 'C:\\Users\\Ana Lima\\src\\http-kit\\.git' },
  ]);
  const s = scopeFromRemotes(remotes);
  assert.deepEqual(s.slugs, ['me/http-kit', 'acme/http-kit']);
  assert.deepEqual(
    s.unparsable.map((r) => r.name),
    ['local'],
    'a Windows path is no repository',
  );
});

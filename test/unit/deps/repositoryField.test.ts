import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slugFromPackageJson, slugFromRepositoryField, slugFromUrl } from '../../../src/deps/repositoryField';

// [repository field value, expected slug | reason]
const forms: Array<[unknown, string]> = [
  // string shorthands
  ['github:acme/http-kit', 'acme/http-kit'],
  ['github:acme/http-kit#v2', 'acme/http-kit'],
  ['acme/http-kit', 'acme/http-kit'],
  ['acme/http-kit#main', 'acme/http-kit'],
  ['Acme-Co/Http.Kit_2', 'Acme-Co/Http.Kit_2'],
  // URL forms
  ['https://github.com/acme/http-kit', 'acme/http-kit'],
  ['https://github.com/acme/http-kit.git', 'acme/http-kit'],
  ['http://github.com/acme/http-kit/', 'acme/http-kit'],
  ['https://www.github.com/acme/http-kit', 'acme/http-kit'],
  ['https://GitHub.com/acme/http-kit', 'acme/http-kit'],
  ['git+https://github.com/acme/http-kit.git', 'acme/http-kit'],
  ['git+ssh://git@github.com/acme/http-kit.git', 'acme/http-kit'],
  ['git+ssh://git@github.com:acme/http-kit.git', 'acme/http-kit'], // npm's normalised form: scp-like after the scheme
  ['ssh://git@github.com:22/acme/http-kit.git', 'acme/http-kit'],
  ['ssh://git@github.com/acme/http-kit.git', 'acme/http-kit'],
  ['git://github.com/acme/http-kit.git', 'acme/http-kit'],
  ['git@github.com:acme/http-kit.git', 'acme/http-kit'],
  ['github.com:acme/http-kit', 'acme/http-kit'],
  ['github.com/acme/http-kit', 'acme/http-kit'],
  ['https://github.com/acme/monorepo/tree/main/packages/kit', 'acme/monorepo'],
  ['https://github.com/acme/http-kit#readme', 'acme/http-kit'],
  ['https://github.com/acme/http-kit/issues', 'acme/http-kit'],
  ['https://user:token@github.com/acme/http-kit.git', 'acme/http-kit'],
  ['https://github.com/acme%2Dco/http-kit', 'acme-co/http-kit'],
  ['https://raw.githubusercontent.com/acme/http-kit/main/README.md', 'acme/http-kit'],
  ['https://acme.github.io/http-kit/', 'acme/http-kit'],
  ['  https://github.com/acme/http-kit.git\n', 'acme/http-kit'],
  // objects
  [{ type: 'git', url: 'https://github.com/acme/http-kit.git' }, 'acme/http-kit'],
  [{ type: 'git', url: 'git+https://github.com/acme/monorepo.git', directory: 'packages/kit' }, 'acme/monorepo'],
  [{ type: 'git', url: 'github:acme/http-kit' }, 'acme/http-kit'],
  [{ url: 'acme/http-kit' }, 'acme/http-kit'],
  // not on GitHub
  ['gitlab:acme/http-kit', 'not-on-github'],
  ['bitbucket:acme/http-kit', 'not-on-github'],
  ['gist:11081aaa281', 'not-on-github'],
  ['https://gitlab.com/acme/http-kit.git', 'not-on-github'],
  ['git@gitlab.com:group/sub/kit.git', 'not-on-github'],
  ['git+ssh://git@bitbucket.org/acme/http-kit.git', 'not-on-github'],
  ['https://codeberg.org/acme/http-kit', 'not-on-github'],
  [{ type: 'git', url: 'https://gitlab.com/acme/http-kit.git' }, 'not-on-github'],
  // invalid / missing
  [undefined, 'no-repository-field'],
  [null, 'no-repository-field'],
  ['', 'no-repository-field'],
  [{ type: 'git' }, 'no-repository-field'],
  [{ type: 'git', url: 42 }, 'invalid'],
  [42, 'invalid'],
  [['https://github.com/acme/http-kit'], 'invalid'],
  ['https://github.com/acme', 'invalid'],
  ['https://github.com/-acme/http-kit', 'invalid'],
  ['file:../http-kit', 'invalid'],
  ['file:///home/me/http-kit', 'invalid'],
  ['../http-kit', 'invalid'],
  ['/home/me/http-kit', 'invalid'],
  ['not a url at all', 'invalid'],
  ['ftp://github.com/acme/http-kit', 'invalid'],
];

test(`repository field: ${forms.length} forms to slugs or reasons`, () => {
  assert.ok(forms.length >= 30);
  for (const [value, want] of forms) {
    const r = slugFromRepositoryField(value);
    const got = r.ok ? r.slug : r.reason;
    assert.equal(got, want, `${JSON.stringify(value)} -> ${JSON.stringify(r)}`);
    if (!r.ok) assert.ok(r.detail.length > 0, `a reason has a detail: ${JSON.stringify(value)}`);
  }
});

test('repository object keeps the monorepo directory', () => {
  const r = slugFromRepositoryField({
    type: 'git',
    url: 'https://github.com/acme/monorepo.git',
    directory: 'packages/kit',
  });
  assert.deepEqual(r, { ok: true, slug: 'acme/monorepo', directory: 'packages/kit' });
});

test('a host that is not GitHub is named in the reason', () => {
  const r = slugFromRepositoryField('https://gitlab.com/acme/http-kit.git');
  assert.equal(r.ok, false);
  assert.match(!r.ok ? r.detail : '', /gitlab\.com/);
  const s = slugFromRepositoryField('bitbucket:acme/kit');
  assert.match(!s.ok ? s.detail : '', /bitbucket\.org/);
});

test('package.json: repository first, then homepage, then bugs.url', () => {
  assert.deepEqual(
    slugFromPackageJson({
      repository: 'github:a/one',
      homepage: 'https://github.com/b/two',
      bugs: { url: 'https://github.com/c/three/issues' },
    }),
    { ok: true, slug: 'a/one', field: 'repository' },
  );
  assert.deepEqual(
    slugFromPackageJson({
      homepage: 'https://github.com/b/two#readme',
      bugs: { url: 'https://github.com/c/three/issues' },
    }),
    { ok: true, slug: 'b/two', field: 'homepage' },
  );
  assert.deepEqual(
    slugFromPackageJson({ homepage: 'https://two.example.com', bugs: { url: 'https://github.com/c/three/issues' } }),
    { ok: true, slug: 'c/three', field: 'bugs' },
  );
  assert.deepEqual(slugFromPackageJson({ bugs: 'https://github.com/c/three/issues' }), {
    ok: true,
    slug: 'c/three',
    field: 'bugs',
  });
  // a GitLab repository with a GitHub mirror as its homepage: the mirror is searchable
  assert.deepEqual(
    slugFromPackageJson({ repository: 'gitlab:acme/kit', homepage: 'https://github.com/acme-mirror/kit' }),
    { ok: true, slug: 'acme-mirror/kit', field: 'homepage' },
  );
});

test('package.json without a GitHub address: the most telling reason', () => {
  const none = slugFromPackageJson({ name: 'x', version: '1.0.0' });
  assert.equal(none.ok, false);
  assert.equal(!none.ok && none.reason, 'no-repository-field');
  const gitlab = slugFromPackageJson({ repository: 'not a url', homepage: 'https://gitlab.com/acme/kit' });
  assert.equal(!gitlab.ok && gitlab.reason, 'not-on-github');
  const site = slugFromPackageJson({ homepage: 'https://kit.example.com' });
  assert.equal(!site.ok && site.reason, 'not-on-github');
  assert.match(!site.ok ? site.detail : '', /kit\.example\.com/);
});

test('slugFromUrl reads the URL forms Python and Cargo metadata use', () => {
  assert.equal(slugFromUrl('https://github.com/psf/requests').ok, true);
  const r = slugFromUrl('https://github.com/tokio-rs/tokio/blob/master/README.md');
  assert.equal(r.ok && r.slug, 'tokio-rs/tokio');
});

test('a legacy owner ending in a hyphen is what GitHub serves; a leading hyphen is still refused', () => {
  assert.deepEqual(slugFromRepositoryField('git+https://github.com/old-timer-/widgets.git'), {
    ok: true,
    slug: 'old-timer-/widgets',
  });
  assert.deepEqual(slugFromRepositoryField('github:double--dash/x'), { ok: true, slug: 'double--dash/x' });
  assert.equal(slugFromRepositoryField('https://github.com/-bad/x').ok, false);
  assert.equal(slugFromRepositoryField(`https://github.com/${'a'.repeat(40)}/x`).ok, false);
});

// Finding 3: the packaged (--production) extension exports no key access; the development build used by
// the host tests keeps the test surface. Built here with the same define scripts/build.mjs uses.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { build } from 'esbuild';

const root = join(__dirname, '..', '..', '..', '..');

async function bundle(surface: boolean): Promise<string> {
  const r = await build({
    entryPoints: [join(root, 'src', 'extension.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    minify: true,
    external: ['vscode', '../../core.js', '../../features.js', './cli-setup.js'],
    define: { __DEVINDEX_TEST_SURFACE__: surface ? 'true' : 'false' },
    logLevel: 'silent',
  });
  return r.outputFiles[0]!.text;
}

describe('extension exports', () => {
  it('the production build has no test surface: no apiKey export, no lastSearch, no reading DEVINDEX_TEST_KEY', async () => {
    const prod = await bundle(false);
    assert.doesNotMatch(prod, /lastSearch|DEVINDEX_TEST_KEY/);
    assert.doesNotMatch(prod, /apiKey:\{/);
  });
  it('the production build ignores the test timing (DEVINDEX_TEST_TIMING); a build with the test surface applies it (issue 31)', async () => {
    const timingOf = async (surface: boolean): Promise<unknown> => {
      const r = await build({
        entryPoints: [join(root, 'src', 'testTiming.ts')],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        write: false,
        minify: true,
        define: { __DEVINDEX_TEST_SURFACE__: surface ? 'true' : 'false' },
        logLevel: 'silent',
      });
      const mod: { exports: { testTiming?: () => unknown } } = { exports: {} };
      new Function('module', 'exports', 'process', r.outputFiles[0]!.text)(mod, mod.exports, {
        env: { DEVINDEX_TEST_TIMING: '{"leaseTtlMs":8000,"leaseRenewMs":2000}' },
      });
      return mod.exports.testTiming!();
    };
    // The activation bundle of a production build does not even hold the variable's name (nor its parser).
    assert.doesNotMatch(await bundle(false), /DEVINDEX_TEST_TIMING|leaseRenewMs/);
    assert.match(await bundle(true), /DEVINDEX_TEST_TIMING/);
    assert.deepEqual(await timingOf(false), { timing: {}, problems: [] });
    assert.deepEqual(await timingOf(true), { timing: { leaseTtlMs: 8_000, leaseRenewMs: 2_000 }, problems: [] });
  });
  it("the production core bundle gives its clients the spec's retry backoff; a test build reads DEVINDEX_TEST_TIMING's retry fields (issue 31)", async () => {
    const core = async (surface: boolean): Promise<string> =>
      (
        await build({
          entryPoints: [join(root, 'src', 'services.ts')],
          bundle: true,
          platform: 'node',
          format: 'cjs',
          write: false,
          minify: true,
          external: ['vscode'],
          define: { __DEVINDEX_TEST_SURFACE__: surface ? 'true' : 'false' },
          logLevel: 'silent',
        })
      ).outputFiles[0]!.text;
    assert.doesNotMatch(await core(false), /DEVINDEX_TEST_TIMING|retryUnitMs|retryJitterMs/);
    assert.match(await core(true), /retryUnitMs/);
  });
  it("the development build keeps it, behind the host tests' DEVINDEX_TEST_KEY", async () => {
    const dev = await bundle(true);
    assert.match(dev, /lastSearch/);
    assert.match(dev, /DEVINDEX_TEST_KEY/);
  });
});

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
  it('the production build holds no test timing (DEVINDEX_TEST_TIMING, its parser); a build with the test surface does', async () => {
    assert.doesNotMatch(await bundle(false), /DEVINDEX_TEST_TIMING|leaseRenewMs|createTestHooks/);
    assert.match(await bundle(true), /DEVINDEX_TEST_TIMING/);
  });
  it('the core bundle never reads the test timing itself: it is handed the backoff (src/testHooks/hooks.ts)', async () => {
    const core = (
      await build({
        entryPoints: [join(root, 'src', 'services.ts')],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        write: false,
        minify: true,
        external: ['vscode'],
        logLevel: 'silent',
      })
    ).outputFiles[0]!.text;
    assert.doesNotMatch(core, /DEVINDEX_TEST_TIMING|retryUnitMs|retryJitterMs|DEVINDEX_TEST_KEY/);
  });
  it("the development build keeps it, behind the host tests' DEVINDEX_TEST_KEY", async () => {
    const dev = await bundle(true);
    assert.match(dev, /lastSearch/);
    assert.match(dev, /DEVINDEX_TEST_KEY/);
  });
});

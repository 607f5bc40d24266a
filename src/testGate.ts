// The test-mode gate (issue 32 §6): the extension's test surface (the probes the host and browser tiers call, the key
// access of the host tests) is registered only when both hold:
// - the build keeps it: __DEVINDEX_TEST_SURFACE__, false in every --production build, so the bundler drops each
//   `if (__DEVINDEX_TEST_SURFACE__ && testModeOn())` block and its command ids from what ships. Write the define at
//   each call site: a function's result is not constant to the bundler, and the block would stay;
// - this process is under test: DEVINDEX_TEST_KEY is set (the host tiers set it; code-server is never given it), or,
//   in a web worker, which has no environment, the test host page set `__devindexTestMode` on the worker's global.
declare const __DEVINDEX_TEST_SURFACE__: boolean;

export const TEST_MODE_GLOBAL = '__devindexTestMode';

export function testModeOn(): boolean {
  if (!__DEVINDEX_TEST_SURFACE__) return false;
  if (typeof process === 'undefined' || process.env === undefined)
    return (globalThis as Record<string, unknown>)[TEST_MODE_GLOBAL] === true;
  return process.env.DEVINDEX_TEST_KEY !== undefined;
}

// src/testGate.ts: in a development build, test mode is on only under a host tier (DEVINDEX_TEST_KEY set).
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { testModeOn } from '../../../src/testGate';

describe('the test-mode gate', () => {
  const saved = process.env.DEVINDEX_TEST_KEY;
  afterEach(() => {
    if (saved === undefined) delete process.env.DEVINDEX_TEST_KEY;
    else process.env.DEVINDEX_TEST_KEY = saved;
  });

  it('is off without DEVINDEX_TEST_KEY and on with it, in a Node process', () => {
    delete process.env.DEVINDEX_TEST_KEY;
    assert.equal(testModeOn(), false);
    process.env.DEVINDEX_TEST_KEY = 'k';
    assert.equal(testModeOn(), true);
  });

  it('is not turned on by the worker global in a Node process (only a worker without an environment reads it)', () => {
    delete process.env.DEVINDEX_TEST_KEY;
    (globalThis as Record<string, unknown>).__devindexTestMode = true;
    try {
      assert.equal(testModeOn(), false);
    } finally {
      delete (globalThis as Record<string, unknown>).__devindexTestMode;
    }
  });
});

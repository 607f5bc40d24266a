// In a real extension host: Set API Key checks the key with the sandbox (good, refused,
// unreachable) and refuses unsendable or short keys at entry; the trust settings are application
// scoped (a workspace cannot set them), unlike an ordinary setting.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, closedPort, type DevIndexExtensionApi, env, sandboxRequests as seen, until } from './hostSupport';

describe('Set API Key checks the key', () => {
  let a: DevIndexExtensionApi;
  let previous: string | undefined;
  before(async () => {
    a = await api();
    previous = await a.apiKey.get();
  });
  after(async () => {
    if (previous) await a.apiKey.set(previous);
    else await a.apiKey.clear();
  });

  it('a good key: one cheap authenticated request, then saved', async () => {
    await a.apiKey.clear();
    await seen('DELETE');
    assert.equal(await vscode.commands.executeCommand('devIndex.auth.setKey', env('DEVINDEX_TEST_KEY')), true);
    assert.equal(await a.apiKey.get(), env('DEVINDEX_TEST_KEY'));
    // The check is the first request with a key; the Agent Jobs view may list jobs afterwards, once the key is saved.
    // (Jobs other suites started may be polled keyless meanwhile.)
    const first = (await seen('GET')).find((r) => r.auth !== 'none');
    assert.deepEqual(first && [first.method, first.path, first.auth], ['GET', '/v2/agent', 'valid']);
  });

  it('a refused key (401): not saved, the previous key stays', async () => {
    await a.apiKey.set(env('DEVINDEX_TEST_KEY'));
    await seen('DELETE');
    assert.equal(
      await vscode.commands.executeCommand('devIndex.auth.setKey', 'devindex-refused-key-0123456789'),
      false,
    );
    assert.equal(await a.apiKey.get(), env('DEVINDEX_TEST_KEY'));
    assert.equal((await seen('GET')).filter((r) => r.auth === 'invalid').length, 1, 'one check, not retried');
  });

  it('an unreachable service: saved, to be checked by the next request', async () => {
    const c = vscode.workspace.getConfiguration('devIndex');
    const before = c.inspect<string>('baseUrl')?.globalValue;
    await c.update('baseUrl', `http://127.0.0.1:${await closedPort()}`, vscode.ConfigurationTarget.Global);
    try {
      assert.equal(
        await vscode.commands.executeCommand('devIndex.auth.setKey', 'devindex-unchecked-key-0123456789'),
        true,
      );
      assert.equal(await a.apiKey.get(), 'devindex-unchecked-key-0123456789');
    } finally {
      await c.update('baseUrl', before, vscode.ConfigurationTarget.Global);
    }
  });

  it('unsendable and short keys are refused at entry, before any request', async () => {
    await a.apiKey.set(env('DEVINDEX_TEST_KEY'));
    await seen('DELETE');
    for (const bad of ['short-key', 'devindex-key-with\nnewline-0123', 'devindex-key-\u2603-0123456789']) {
      assert.equal(await vscode.commands.executeCommand('devIndex.auth.setKey', bad), false, JSON.stringify(bad));
    }
    assert.equal(await a.apiKey.get(), env('DEVINDEX_TEST_KEY'));
    // Other features may make requests with the kept (valid) key; none carried a refused one.
    assert.deepEqual(
      (await seen('GET')).filter((r) => r.auth === 'invalid'),
      [],
    );
  });
});

describe('a kept key too short for Set API Key', () => {
  let a: DevIndexExtensionApi;
  let previous: string | undefined;
  before(async () => {
    a = await api();
    previous = await a.apiKey.get();
  });
  after(async () => {
    if (previous) await a.apiKey.set(previous);
    else await a.apiKey.clear();
  });

  it('searches and agent starts refuse it with Set API Key\'s words, before any request, and no "a" is redacted', async () => {
    // Not through Set API Key (which refuses it): as an older build or a hand-edited store could keep it.
    await a.apiKey.set('a');
    await seen('DELETE');
    const before = a.lastSearch();
    const query = 'a short key is not a key';
    await vscode.commands.executeCommand('devIndex.search.run', query);
    const o = await until(
      'the search to end',
      () => a.lastSearch(),
      (x) =>
        x !== undefined &&
        x !== before &&
        x.params.query === query &&
        (x.response !== undefined || x.error !== undefined),
    );
    assert.match(
      String(o?.error),
      /the API key was not sent: an API key has at least 16 characters \(this one has 1\)/,
    );
    assert.doesNotMatch(String(o?.error), /\[redacted\]/);
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('devIndex.agent.start', { prompt: 'never sent' })),
      (e: Error) => {
        assert.match(e.message, /at least 16 characters \(this one has 1\)/);
        assert.doesNotMatch(e.message, /\[redacted\]/);
        return true;
      },
    );
    assert.deepEqual(
      (await seen('GET')).filter((r) => r.auth !== 'none'),
      [],
      'the key was never sent',
    );
  });
});

describe('trust settings are application scoped', () => {
  it('a workspace cannot set them, while it can set an ordinary setting', async () => {
    assert.ok(vscode.workspace.workspaceFolders?.length, 'the runner opens a workspace folder');
    const c = vscode.workspace.getConfiguration('devIndex');
    await c.update('search.k', 7, vscode.ConfigurationTarget.Workspace);
    assert.equal(
      vscode.workspace.getConfiguration('devIndex').inspect('search.k')?.workspaceValue,
      7,
      'control: a window-scoped setting can be written to the workspace',
    );
    await c.update('search.k', undefined, vscode.ConfigurationTarget.Workspace);
    for (const [key, value] of [
      ['agent.defaultMaxCredits', 999_999],
      ['network.caFile', '/tmp/evil.pem'],
      ['insecure.allowHttpWithKey', true],
    ] as const) {
      await assert.rejects(
        Promise.resolve(c.update(key, value, vscode.ConfigurationTarget.Workspace)),
        `${key} must not be writable in the workspace`,
      );
      assert.equal(vscode.workspace.getConfiguration('devIndex').inspect(key)?.workspaceValue, undefined);
    }
  });
});

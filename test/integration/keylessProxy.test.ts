// Search Without Key goes out as the keyed search does: through the proxy VS Code is set to use
// (`http.proxy`), never around it. The editor's own Services, in the real extension host, with a real
// forward proxy on loopback in front of the sandbox.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { resolveFolder } from '../../src/deps/resolver';
import { nodeHost } from '../../src/host/node';
import { Services } from '../../src/services';
import type { ApiKeyStore } from '../../src/auth/apiKeyStore';
import type { SearchHistory } from '../../src/search/history';
import { startProxy } from '../http/netHelpers';
import { env } from './hostSupport';

describe('Search Without Key behind a proxy', () => {
  it('the keyless client sends its search through http.proxy, with no key, like the keyed one', async () => {
    const proxy = await startProxy();
    const http = vscode.workspace.getConfiguration('http');
    const previous = http.inspect('proxy')?.globalValue;
    await http.update('proxy', proxy.url, vscode.ConfigurationTarget.Global);
    const keys = {
      get: async () => env('DEVINDEX_TEST_KEY'),
      onDidChange: () => ({ dispose() {} }),
    } as unknown as ApiKeyStore;
    const services = new Services(nodeHost, resolveFolder, vscode.Uri.file(__dirname), keys, {} as SearchHistory);
    try {
      const keyed = await services.getClient().search({ query: 'retries', k: 1 });
      assert.ok(keyed.results.length > 0);
      const afterKeyed = proxy.requests + proxy.connects;
      assert.ok(afterKeyed >= 1, 'the keyed search went through the proxy');

      const keyless = await services.getKeylessClient().search({ query: 'retries', k: 1 });
      assert.ok(keyless.results.length > 0);
      assert.ok(
        proxy.requests + proxy.connects > afterKeyed,
        'Search Without Key went through the proxy too (it went around it before)',
      );
    } finally {
      services.dispose();
      await http.update('proxy', previous, vscode.ConfigurationTarget.Global);
      await proxy.close();
    }
  });
});

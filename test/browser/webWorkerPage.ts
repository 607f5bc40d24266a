// The page and the files a Web Worker loads the web extension from (test/browser/webWorker.test.ts and
// bench/web.bench.ts): the page's rpc() talks to test/browser/fixtures/webWorkerHost.js in the worker.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from './harness';

export async function startWorkerPage(): Promise<{ origin: string; close(): Promise<void> }> {
  const root = repoRoot();
  const files: Record<string, [string, string]> = {
    '/': [
      'text/html',
      '<!doctype html><meta charset="utf-8"><title>web worker host</title><body>web extension in a Web Worker<script src="/page.js"></script>',
    ],
    '/page.js': [
      'text/javascript',
      `
      const w = new Worker('/worker.js');
      const waiting = new Map(); let next = 0;
      w.onmessage = (e) => { const p = waiting.get(e.data.rpc); if (!p) return; waiting.delete(e.data.rpc); e.data.error ? p.reject(new Error(e.data.error)) : p.resolve(e.data.result); };
      window.rpc = (op, payload) => new Promise((resolve, reject) => { const rpc = ++next; waiting.set(rpc, { resolve, reject }); w.postMessage({ rpc, op, payload }); });`,
    ],
  };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const fixed = files[path];
    const file =
      path === '/worker.js'
        ? 'test/browser/fixtures/webWorkerHost.js'
        : path === '/fakeVscode.js'
          ? 'test/browser/fixtures/fakeVscode.js'
          : path === '/ext.js'
            ? 'dist/web/extension.js'
            : undefined;
    if (path === '/baseline.js') {
      // The bench's baseline: an extension that activates and does nothing, through the same harness.
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      res.end('"use strict"; exports.activate = function () {}; exports.deactivate = function () {};');
      return;
    }
    if (!fixed && !file) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, {
      'content-type': `${fixed ? fixed[0] : 'text/javascript'}; charset=utf-8`,
      'cache-control': 'no-store',
    });
    res.end(fixed ? fixed[1] : readFileSync(join(root, file!)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

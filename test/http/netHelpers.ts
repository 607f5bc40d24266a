// Loopback network fixtures for the proxy and TLS tests (and the proxy bench): a real forward proxy
// (the `proxy` package: CONNECT tunnels and absolute-form requests, optional Basic authentication), a
// throw-away certificate authority made with openssl, and a small HTTPS front for the sandbox.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LoopbackProxy {
  url: string;
  port: number;
  connects: number;
  requests: number;
  close(): Promise<void>;
}

/** A forward proxy on 127.0.0.1; with `auth` ("user:pass") it answers 407 to anyone without those credentials. */
export async function startProxy(auth?: string): Promise<LoopbackProxy> {
  const { createProxy } = await import('proxy');
  const server = createProxy(createHttpServer());
  const state = { url: '', port: 0, connects: 0, requests: 0 };
  server.prependListener('connect', () => {
    state.connects++;
  });
  server.prependListener('request', () => {
    state.requests++;
  });
  if (auth)
    server.authenticate = (req) =>
      req.headers['proxy-authorization'] === `Basic ${Buffer.from(auth).toString('base64')}`;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${state.port}`;
  return Object.assign(state, {
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}

export interface TestCa {
  dir: string;
  caFile: string;
  key: string;
  cert: string;
}

/** Whether openssl can be run here (the TLS tests need it to make their throw-away CA). */
export function haveOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A CA and a server certificate for 127.0.0.1 / localhost signed by it, valid for two days, in a temp folder. */
export function makeTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'devindex-ca-'));
  const p = (f: string) => join(dir, f);
  const ssl = (...a: string[]) => execFileSync('openssl', a, { stdio: 'pipe', cwd: dir });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    p('ca.key'),
    '-out',
    p('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=devindex throw-away test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  ssl('req', ...ec, '-keyout', p('server.key'), '-out', p('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(
    p('ext.cnf'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nkeyUsage=digitalSignature\n',
  );
  ssl(
    'x509',
    '-req',
    '-in',
    p('server.csr'),
    '-CA',
    p('ca.pem'),
    '-CAkey',
    p('ca.key'),
    '-CAcreateserial',
    '-out',
    p('server.pem'),
    '-days',
    '2',
    '-extfile',
    p('ext.cnf'),
  );
  return {
    dir,
    caFile: p('ca.pem'),
    key: readFileSync(p('server.key'), 'utf8'),
    cert: readFileSync(p('server.pem'), 'utf8'),
  };
}

/** An HTTPS front on 127.0.0.1 that forwards every request to `target` (the sandbox) as it came. */
export async function startHttpsFront(
  target: string,
  ca: TestCa,
): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const t = new URL(target);
  const server = createHttpsServer({ key: ca.key, cert: ca.cert }, (req, res) => {
    const up = httpRequest(
      { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A "proxy" that answers every CONNECT with `status` (403 by default): a proxy that refuses tunnels. */
export async function startRefusingProxy(
  status = 403,
): Promise<{ url: string; port: number; connects: number; close(): Promise<void> }> {
  const server = createHttpServer((_req, res) => {
    res.writeHead(405);
    res.end();
  });
  const state = { url: '', port: 0, connects: 0 };
  server.on('connect', (_req, socket) => {
    state.connects++;
    socket.end(`HTTP/1.1 ${status} Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${state.port}`;
  return Object.assign(state, {
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}

/** A TCP server on 127.0.0.1 that accepts connections and never says a word (a silent host or proxy). */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createNetServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

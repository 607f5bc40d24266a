// The doctor's low-level probes over node's dns, net and tls: each bounded by its own time limit and
// the caller's AbortSignal, each resolving with what happened (never rejecting, never hanging).
import * as dns from 'node:dns';
import * as net from 'node:net';
import * as tls from 'node:tls';

export type Probe<T> =
  | { ok: true; value: T; ms: number }
  | { ok: false; reason: 'timeout' | 'aborted' | 'error'; code?: string; message: string; ms: number };

/**
 * Runs `start` with a time limit and a signal. `start` gets `cleanup` registration: whatever it opens
 * (a socket) is closed when the limit or the signal ends the wait first.
 */
export function bounded<T>(
  timeoutMs: number,
  signal: AbortSignal | undefined,
  start: (onCleanup: (f: () => void) => void) => Promise<T>,
): Promise<Probe<T>> {
  const t0 = Date.now();
  const cleanups: Array<() => void> = [];
  const clean = () => {
    for (const f of cleanups.splice(0)) {
      try {
        f();
      } catch {
        /* already closed */
      }
    }
  };
  return new Promise((resolve) => {
    let settled = false;
    const done = (p: Probe<T>, keep = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (!keep) clean();
      resolve(p);
    };
    const onAbort = () => done({ ok: false, reason: 'aborted', message: 'cancelled', ms: Date.now() - t0 });
    const timer = setTimeout(
      () =>
        done({ ok: false, reason: 'timeout', message: `no answer within ${seconds(timeoutMs)}`, ms: Date.now() - t0 }),
      Math.max(1, timeoutMs),
    );
    if (signal?.aborted) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    start((f) => {
      if (settled) {
        try {
          f();
        } catch {
          /* closed */
        }
      } else cleanups.push(f);
    }).then(
      (value) => done({ ok: true, value, ms: Date.now() - t0 }, true),
      (e: unknown) => {
        const code = (e as { code?: unknown }).code;
        done({
          ok: false,
          reason: 'error',
          ...(typeof code === 'string' ? { code } : {}),
          message: e instanceof Error ? e.message : String(e),
          ms: Date.now() - t0,
        });
      },
    );
  });
}

export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/** Every address the system resolver gives for `host` (what a connection would use, first first). */
export function lookupAll(host: string, timeoutMs: number, signal?: AbortSignal): Promise<Probe<string[]>> {
  return bounded(timeoutMs, signal, async () => {
    const all = await dns.promises.lookup(host, { all: true });
    return all.map((a) => a.address);
  });
}

/** A TCP connection (or TLS for an https proxy) to host:port. The socket stays open for the caller. */
export function connectTcp(
  host: string,
  port: number,
  timeoutMs: number,
  signal?: AbortSignal,
  tlsOptions?: tls.ConnectionOptions,
): Promise<Probe<net.Socket>> {
  return bounded(
    timeoutMs,
    signal,
    (onCleanup) =>
      new Promise<net.Socket>((resolve, reject) => {
        const socket = tlsOptions ? tls.connect({ ...tlsOptions, host, port }) : net.connect({ host, port });
        onCleanup(() => socket.destroy());
        socket.once('error', reject);
        socket.once(tlsOptions ? 'secureConnect' : 'connect', () => {
          socket.off('error', reject);
          // Kept open for the next check: a later reset must not become an uncaught 'error'.
          socket.on('error', () => undefined);
          resolve(socket);
        });
      }),
  );
}

interface ConnectAnswer {
  status: number;
  reason: string;
}

/** Asks a proxy (already connected) for a tunnel to target; resolves with its status line. The socket is the tunnel on 2xx. */
export function askConnect(
  socket: net.Socket,
  target: string,
  token: string | undefined,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Probe<ConnectAnswer>> {
  return bounded(
    timeoutMs,
    signal,
    (onCleanup) =>
      new Promise<ConnectAnswer>((resolve, reject) => {
        onCleanup(() => socket.destroy());
        let buf = Buffer.alloc(0);
        const onData = (chunk: Buffer) => {
          buf = Buffer.concat([buf, chunk]);
          const end = buf.indexOf('\r\n\r\n');
          if (end < 0) {
            if (buf.length > 16_384) {
              cleanup();
              reject(
                Object.assign(new Error('the proxy answered CONNECT with more than 16 KiB of headers'), {
                  code: 'BAD_PROXY_ANSWER',
                }),
              );
            }
            return;
          }
          cleanup();
          const head = buf.subarray(0, end).toString('latin1');
          const m = /^HTTP\/\d(?:\.\d)? (\d{3})(?: ([^\r\n]*))?/.exec(head);
          if (!m) {
            reject(
              Object.assign(new Error('the proxy answered CONNECT with something that is not HTTP'), {
                code: 'BAD_PROXY_ANSWER',
              }),
            );
            return;
          }
          // Anything after the header on a 2xx belongs to the tunnel (nothing, before we speak first).
          resolve({ status: Number(m[1]), reason: (m[2] ?? '').slice(0, 100) });
        };
        const onEnd = () => {
          cleanup();
          reject(
            Object.assign(new Error('the proxy closed the connection without answering CONNECT'), {
              code: 'ECONNRESET',
            }),
          );
        };
        const onError = (e: Error) => {
          cleanup();
          reject(e);
        };
        const cleanup = () => {
          socket.off('data', onData);
          socket.off('end', onEnd);
          socket.off('error', onError);
        };
        socket.on('data', onData);
        socket.once('end', onEnd);
        socket.once('error', onError);
        socket.write(
          `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${token ? `Proxy-Authorization: ${token}\r\n` : ''}\r\n`,
        );
      }),
  );
}

interface PeerCert {
  subject: string;
  issuer: string;
  validTo: string;
  validToMs: number;
}
interface TlsAnswer {
  authorized: boolean;
  error?: string;
  chain: PeerCert[];
  protocol?: string;
  remote?: string;
}

/**
 * A TLS handshake with host (over `socket` when a tunnel is given), verifying against `ca` (undefined:
 * Node's defaults) without refusing: the chain is read either way, so an untrusted one can be described.
 */
export function handshake(o: {
  host: string;
  port: number;
  socket?: net.Socket;
  ca?: string[];
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<Probe<TlsAnswer>> {
  return bounded(
    o.timeoutMs,
    o.signal,
    (onCleanup) =>
      new Promise<TlsAnswer>((resolve, reject) => {
        const servername = net.isIP(o.host) ? undefined : o.host;
        const s = tls.connect({
          ...(o.socket ? { socket: o.socket } : { port: o.port }),
          host: o.host,
          ...(servername ? { servername } : {}),
          ...(o.ca ? { ca: o.ca } : {}),
          rejectUnauthorized: false,
        });
        onCleanup(() => {
          s.destroy();
          o.socket?.destroy();
        });
        s.once('error', reject);
        s.once('secureConnect', () => {
          s.off('error', reject);
          const chain: PeerCert[] = [];
          let c: tls.DetailedPeerCertificate | undefined = s.getPeerCertificate(true);
          const seen = new Set<string>();
          while (c && c.raw && !seen.has(c.fingerprint256) && chain.length < 10) {
            seen.add(c.fingerprint256);
            chain.push({
              subject: nameOf(c.subject),
              issuer: nameOf(c.issuer),
              validTo: c.valid_to,
              validToMs: Date.parse(c.valid_to),
            });
            c = c.issuerCertificate;
          }
          const err = s.authorizationError;
          const answer: TlsAnswer = {
            authorized: s.authorized,
            chain,
            ...(err
              ? { error: typeof err === 'string' ? err : ((err as unknown as { code?: string }).code ?? String(err)) }
              : {}),
            ...(s.getProtocol() ? { protocol: s.getProtocol() as string } : {}),
            ...(o.socket ? {} : s.remoteAddress ? { remote: s.remoteAddress } : {}),
          };
          s.destroy();
          o.socket?.destroy();
          resolve(answer);
        });
      }),
  );
}

function nameOf(n: tls.Certificate | undefined): string {
  if (!n) return 'an unnamed certificate';
  const pick = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  return pick(n.CN) ?? pick(n.O) ?? 'an unnamed certificate';
}

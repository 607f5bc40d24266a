// A port on 127.0.0.1 nothing listens on: the HTTP tier's and the host suites' unreachable service.
import { createServer, type AddressInfo } from 'node:net';

/** A port on 127.0.0.1 nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

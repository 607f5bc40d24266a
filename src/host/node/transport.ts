// Node's transport: undici, with proxies and certificate authorities (src/api/http.ts).
import { HttpTransport, type NetworkOptions } from '../../api/http';
import type { Transport } from '../../api/transport';

export function createTransport(o: { network?: NetworkOptions }): Transport {
  return new HttpTransport({ network: o.network });
}

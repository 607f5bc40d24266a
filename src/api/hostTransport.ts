// The transport a client gets when none is passed. This file is Node's (undici, proxies, CAs); the
// browser bundle (scripts/build.mjs, plugin host-transport) resolves this module to fetchTransport.ts,
// whose createTransport has the same signature. Nothing else in src/api names a host.
import { HttpTransport, type NetworkOptions } from './http';
import type { Transport } from './transport';

export function createTransport(o: { network?: NetworkOptions }): Transport {
  return new HttpTransport({ network: o.network });
}

// The pieces of undici the transport uses, loaded from their own modules: importing the package's
// root pulls in fetch, WebSocket, the cache, the mock agents and more (about 290 KB the client never
// runs), and esbuild cannot drop them from a CommonJS package. Same classes as `undici`'s exports.
import type * as Undici from 'undici';

export const Agent: typeof Undici.Agent = require('undici/lib/dispatcher/agent.js');
export const EnvHttpProxyAgent: typeof Undici.EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent.js');

// As undici's own lib/api/index.js does, for the two methods we use: the request API lives on
// Dispatcher.prototype; the client calls `request`, and the proxy agents tunnel with `connect`
// (`stream`, `pipeline` and `upgrade`, about 7 KB, are never called). Assigning them twice (when
// something else loads the root too) puts the same functions back.
const DispatcherClass: { prototype: object } = require('undici/lib/dispatcher/dispatcher.js');
Object.assign(DispatcherClass.prototype, {
  request: require('undici/lib/api/api-request.js') as unknown,
  connect: require('undici/lib/api/api-connect.js') as unknown,
});

export type { Dispatcher } from 'undici';

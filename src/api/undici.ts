// The pieces of undici the transport uses, loaded from their own modules: importing the package's
// root pulls in fetch, WebSocket, the cache, the mock agents and more (about 290 KB the client never
// runs), and esbuild cannot drop them from a CommonJS package. Same classes as `undici`'s exports.
import type * as Undici from 'undici';

export const Agent: typeof Undici.Agent = require('undici/lib/dispatcher/agent.js');
export const EnvHttpProxyAgent: typeof Undici.EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent.js');

// As undici's own index.js does: the request API (request, stream, pipeline, connect, upgrade) lives on
// Dispatcher.prototype, and the proxy agents tunnel with `connect`. Assigning it twice (when something
// else loads the root too) puts the same functions back.
const DispatcherClass: { prototype: object } = require('undici/lib/dispatcher/dispatcher.js');
Object.assign(DispatcherClass.prototype, require('undici/lib/api/index.js') as object);

export type { Dispatcher } from 'undici';

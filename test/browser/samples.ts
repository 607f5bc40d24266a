// Results as the extension posts them, with the markdown constructs the view must render.
import type { OutcomeResult } from '../../src/search/session/outcome';

export const TABLE_PASSAGE = [
  '## Options',
  '',
  '| Option | Type | Default |',
  '|:-------|:----:|--------:|',
  '| `timeout` | number | 30000 |',
  '| `signal` | AbortSignal | none |',
].join('\n');

export const CODE_PASSAGE = [
  'Create a server and listen on a port:',
  '',
  '```ts',
  "import { createServer } from 'node:http';",
  "createServer((req, res) => res.end('ok')).listen(8080);",
  '```',
  '',
  'See [the guide](./guide.html) and [RFC 9110](https://www.rfc-editor.org/rfc/rfc9110).',
].join('\n');

const p = (...texts: string[]) => texts.map((text) => ({ text }));

/** As toOutcome builds them from the specification's wire (type, no license, no citation links). */
export const SAMPLE_RESULTS: OutcomeResult[] = [
  {
    id: 'doc:node-api/http',
    type: 'doc',
    url: 'https://nodejs.org/api/http.html',
    title: 'HTTP | Node.js API',
    provenance: 'nodejs.org/api/http.html',
    passages: p(CODE_PASSAGE, TABLE_PASSAGE),
  },
  {
    id: 'issue:nodejs/node#123',
    type: 'issue',
    url: 'https://github.com/nodejs/node/issues/123',
    title: 'http: server.close() hangs with keep-alive',
    provenance: 'nodejs/node #123',
    passages: p(
      'Calling `server.close()` waits for **idle** keep-alive sockets.\n\n- use `closeIdleConnections()`\n- or set `keepAliveTimeout`',
    ),
  },
  {
    id: 'pull_request:nodejs/node#456',
    type: 'pull_request',
    url: 'https://github.com/nodejs/node/pull/456',
    title: 'http: add closeAllConnections',
    provenance: 'nodejs/node #456',
    passages: p('> Adds `server.closeAllConnections()`.'),
  },
  {
    id: 'doc:node-api/untitled',
    type: 'doc',
    url: 'https://nodejs.org/api/untitled.html',
    provenance: 'nodejs.org/api/untitled.html',
    passages: p('A page without a title: the url stands in.'),
  },
  {
    id: 'readme:nodejs/undici',
    type: 'readme',
    url: 'https://github.com/nodejs/undici#readme',
    title: 'undici',
    provenance: 'nodejs/undici',
    passages: p('An HTTP/1.1 client, written from scratch for Node.js.'),
  },
];

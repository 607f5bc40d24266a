// Every message from the webview is untrusted: the schema accepts the protocol and nothing else.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fromWebviewSchema } from '../../../src/webview/protocol';

const VALID: unknown[] = [
  { type: 'ready' },
  { type: 'ready', pendingRequestId: 's-1' },
  { type: 'ready', scope: { query: '', repos: ['a/b'], language: 'Go' } },
  { type: 'scope', params: { query: 'q', sources: ['node-api'] } },
  { type: 'search', requestId: 's-3', params: { query: 'q' }, keyless: true },
  { type: 'validate', requestId: 'v-1', params: { query: '' } },
  {
    type: 'search',
    requestId: 's-1',
    params: {
      query: 'q',
      k: 5,
      types: ['doc'],
      repos: ['a/b'],
      sources: ['node-api'],
      skills: 'only',
      passages: 2,
      language: 'Go',
      topic: 't',
      license: 'MIT',
      min_stars: 0,
      max_stars: 10,
      archived: false,
      fork: true,
    },
  },
  // Out-of-bounds values are the client validator's to phrase, so the schema lets them through.
  { type: 'search', requestId: 's-2', params: { query: 'q', k: 500, passages: -1, types: ['nope'] } },
  { type: 'cancel', requestId: 's-1' },
  { type: 'openLink', url: 'https://example.com' },
  { type: 'openLink', url: 'javascript:alert(1)' },
  { type: 'copy', what: 'link', text: 'x' },
  { type: 'copy', what: 'passage', text: 'x' },
  { type: 'insert', text: '' },
  { type: 'openPassages', id: 'doc:a', title: 't', url: 'https://e.com', passages: ['a', 'b'] },
  { type: 'setKey' },
  { type: 'log', message: 'boom' },
];

const INVALID: Array<[string, unknown]> = [
  ['null', null],
  ['a string', 'ready'],
  ['an array', [{ type: 'ready' }]],
  ['no type', { requestId: 'x' }],
  ['unknown type', { type: 'runCommand', id: 'workbench.action.terminal.new' }],
  ['type of the wrong kind', { type: 1 }],
  ['extra field', { type: 'setKey', command: 'x' }],
  ['ready with a numeric id', { type: 'ready', pendingRequestId: 1 }],
  ['search without params', { type: 'search', requestId: 's' }],
  ['search without requestId', { type: 'search', params: { query: 'q' } }],
  ['search with an empty requestId', { type: 'search', requestId: '', params: { query: 'q' } }],
  ['search with a huge requestId', { type: 'search', requestId: 'x'.repeat(65), params: { query: 'q' } }],
  ['search with a numeric query', { type: 'search', requestId: 's', params: { query: 1 } }],
  ['search with an unknown parameter', { type: 'search', requestId: 's', params: { query: 'q', apiKey: 'k' } }],
  ['search with k as text', { type: 'search', requestId: 's', params: { query: 'q', k: '10' } }],
  ['search with k = NaN', { type: 'search', requestId: 's', params: { query: 'q', k: Number.NaN } }],
  ['search with k = Infinity', { type: 'search', requestId: 's', params: { query: 'q', k: Number.POSITIVE_INFINITY } }],
  ['search with types not an array', { type: 'search', requestId: 's', params: { query: 'q', types: 'doc' } }],
  ['search with a number in repos', { type: 'search', requestId: 's', params: { query: 'q', repos: [1] } }],
  ['search with skills other than only', { type: 'search', requestId: 's', params: { query: 'q', skills: 'all' } }],
  ['search with archived as text', { type: 'search', requestId: 's', params: { query: 'q', archived: 'yes' } }],
  ['search with a megabyte query', { type: 'search', requestId: 's', params: { query: 'q'.repeat(20_001) } }],
  [
    'search with 101 repos',
    { type: 'search', requestId: 's', params: { query: 'q', repos: Array.from({ length: 101 }, (_, i) => `o/r${i}`) } },
  ],
  ['openLink without url', { type: 'openLink' }],
  ['openLink with an object url', { type: 'openLink', url: { href: 'https://e.com' } }],
  ['openLink with a very long url', { type: 'openLink', url: `https://e.com/${'a'.repeat(8200)}` }],
  ['copy without text', { type: 'copy', what: 'link' }],
  ['copy of an unknown kind', { type: 'copy', what: 'key', text: 'x' }],
  ['insert with numeric text', { type: 'insert', text: 5 }],
  [
    'openPassages with 21 passages',
    { type: 'openPassages', id: 'a', title: 't', url: 'u', passages: Array(21).fill('p') },
  ],
  ['openPassages with a non-string passage', { type: 'openPassages', id: 'a', title: 't', url: 'u', passages: [{}] }],
  ['search with keyless false', { type: 'search', requestId: 's', params: { query: 'q' }, keyless: false }],
  ['scope with an unknown parameter', { type: 'scope', params: { query: '', token: 'x' } }],
  ['log with a huge message', { type: 'log', message: 'x'.repeat(5000) }],
  ['prototype pollution attempt', JSON.parse('{"type":"setKey","__proto__":{"polluted":true}}')],
];

describe('webview -> extension message schema', () => {
  for (const m of VALID) {
    it(`accepts ${JSON.stringify(m).slice(0, 90)}`, () => {
      const r = fromWebviewSchema().safeParse(m);
      assert.ok(r.success, r.success ? '' : JSON.stringify(r.error.issues));
    });
  }
  for (const [name, m] of INVALID) {
    it(`rejects ${name}`, () => {
      assert.equal(fromWebviewSchema().safeParse(m).success, false);
    });
  }
  it('accepts every message type the protocol declares', () => {
    const types = new Set(VALID.map((m) => (m as { type: string }).type));
    assert.deepEqual([...types].sort(), [
      'cancel',
      'copy',
      'insert',
      'log',
      'openLink',
      'openPassages',
      'ready',
      'scope',
      'search',
      'setKey',
      'validate',
    ]);
  });
});

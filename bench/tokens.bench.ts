// Tokens of what a model reads. (1) Our search text against the service's own MCP server's
// developer-search text (the blocks in the addendum's last section) on the same 20 sandbox responses,
// at equal content, read two ways: each answer alone (every id, URL and passage of the response in
// both texts), and the 20 as one agent's session, where each search names the answers before it in
// `have` (every id and URL in each answer; every passage in that answer, or named there and present in
// the earlier answer it names). The ratio is printed both ways (goal <= 0.8), with the tokens the
// model wrote for `have`. (2) The tool list: ours against the service's MCP server for the
// same tools (search, start, status). Tokens are counted with the project's one rule
// (src/tools/tokens.ts: about 4 characters a token), for both sides alike.
import { DevIndexClient } from '../src/api/client';
import type { SearchParams } from '../src/api/params';
import type { SearchResponse } from '../src/api/schemas';
import { startSandbox } from '../sandbox/server';
import { listedTool, MCP_TOOLS } from '../src/tools/definitions';
import { searchAnswer } from '../src/tools/searchAnswer';
import { heldPassages } from '../src/tools/moreCache';
import { MoreCache } from '../src/tools/moreCache';
import { CHARS_PER_TOKEN, estimateTokens } from '../src/tools/toolInputs';
import { HttpTransport } from '../src/api/http';

const QUERIES = [
  'retry after header',
  'timeout abort signal',
  'rate limit 429',
  'schema validation error message',
  'webview content security policy',
  'flaky test retry',
  'connection pool keep-alive',
  'token bucket burst',
  'proxy certificate',
  'graceful shutdown',
  'json parse error',
  'pagination cursor',
  'cancel request',
  'backoff jitter',
  'keep alive socket hang up',
  'typescript types',
  'readme install',
  'breaking change',
  'cli flags',
  'cache invalidation',
];

/** The service's MCP developer-search text (addendum, last section). */
function serviceText(response: SearchResponse): string {
  if (!response.results.length) return '(no results)';
  return response.results
    .map((r) => {
      const kind = r.id.split(':', 1)[0];
      const body = (r.passages ?? [])
        .map((p) => p.text)
        .filter((t) => t.trim())
        .join('\n---\n')
        .trim();
      return [`## [${r.id}] (${kind}) ${r.title ?? '(untitled)'}`, r.url, body || '(no content)'].join('\n');
    })
    .join('\n\n');
}

/**
 * firecrawl/firecrawl-mcp-server at 678c92a (2026-08-21): firecrawl_developer_search, firecrawl_agent and
 * firecrawl_agent_status as its tools/list sends them (name, description, the JSON Schema of the zod
 * parameters, annotations): 3,112 characters, measured once from that source (its text is not copied here).
 */
const SERVICE_TOOL_LIST_CHARS = 3_112;

async function main(): Promise<void> {
  const sb = await startSandbox({ port: 0, quiet: true, rateLimit: 1e9, keylessRateLimit: 1e9 });
  const client = new DevIndexClient({ transport: new HttpTransport(), baseUrl: sb.url });
  try {
    let ours = 0;
    let theirs = 0;
    let results = 0;
    let passages = 0;
    let passageTokens = 0;
    const rows: string[] = [];
    // The session reading: one process's cache, each search naming every answer before it.
    const cache = new MoreCache();
    const answers = new Map<string, string>();
    let session = 0;
    let haveTokens = 0;
    let named = 0;
    for (const query of QUERIES) {
      const params: SearchParams = { query, k: 10, passages: 2 };
      const res = await client.search(params);
      // Each answer alone, as a tool sends it (with its `answer:` line), naming nothing.
      const a = searchAnswer(params, res, { maxChars: 1_000_000, cache: new MoreCache() }).text;
      const have = [...answers.keys()];
      haveTokens += estimateTokens(JSON.stringify({ have }));
      const held = heldPassages(have, cache);
      const s = searchAnswer(params, res, { maxChars: 1_000_000, cache, known: held.known });
      answers.set(s.handle!, s.text);
      session += estimateTokens(s.text);
      res.results.forEach((r, i) => {
        if (!s.text.includes(r.id) || !s.text.includes(r.url))
          throw new Error(`session answer lacks ${r.id} or its URL (query ${query})`);
        (r.passages ?? []).forEach((p, j) => {
          const text = p.text.trim();
          if (s.text.includes(text)) return;
          const ref = new RegExp(
            `\\n\\[${i + 1}\\.${j + 1}\\] sent before: \\[\\d+\\.\\d+\\] of (m[0-9a-f]{12})\\n`,
          ).exec(`${s.text}\n`);
          if (!ref || !answers.get(ref[1]!)?.includes(text))
            throw new Error(
              `session answer lacks passage ${i + 1}.${j + 1} and names no earlier answer that has it (query ${query})`,
            );
          named++;
        });
      });
      const b = serviceText(res);
      for (const r of res.results) {
        for (const [what, s] of [
          ['id', r.id],
          ['URL', r.url],
          ...(r.passages ?? []).map((p) => ['passage', p.text.trim()]),
        ] as Array<[string, string]>) {
          if (!a.includes(s)) throw new Error(`our text lacks ${what} ${s.slice(0, 60)} (query ${query})`);
          if (!b.includes(s)) throw new Error(`the service's text lacks ${what} ${s.slice(0, 60)} (query ${query})`);
        }
        passages += r.passages?.length ?? 0;
        passageTokens += estimateTokens((r.passages ?? []).map((p) => p.text).join(''));
      }
      results += res.results.length;
      const ta = estimateTokens(a);
      const tb = estimateTokens(b);
      ours += ta;
      theirs += tb;
      rows.push(
        `  ${query.padEnd(34)} ${String(res.results.length).padStart(3)} results  ours ${String(ta).padStart(6)}  service ${String(tb).padStart(6)}  ${(ta / tb).toFixed(2)}`,
      );
    }
    console.log(
      `search text, ${QUERIES.length} sandbox responses (k 10, passages 2): ${results} results, ${passages} passages, every id, URL and passage in both texts; tokens at ${CHARS_PER_TOKEN} characters a token`,
    );
    for (const r of rows) console.log(r);
    console.log(
      `  total: ours ${ours.toLocaleString('en-US')} tokens, the service's MCP format ${theirs.toLocaleString('en-US')} tokens: ratio ${(ours / theirs).toFixed(3)} (goal <= 0.8)`,
    );
    console.log(
      `  the passages alone (which both texts must hold in full): ${passageTokens.toLocaleString('en-US')} tokens, ${(passageTokens / theirs).toFixed(3)} of the service's text: the lowest ratio any answer read alone can reach`,
    );
    console.log(
      `  as one agent's session, each search naming the answers before it in \`have\`: ours ${session.toLocaleString('en-US')} tokens (${named} of ${passages} passages named, not repeated; every one present in the earlier answer it names): ratio ${(session / theirs).toFixed(3)} (goal <= 0.8); with the ${haveTokens.toLocaleString('en-US')} tokens the model wrote for \`have\`: ${((session + haveTokens) / theirs).toFixed(3)}`,
    );

    const same = MCP_TOOLS.filter((t) =>
      ['devIndex_search', 'devIndex_startAgentJob', 'devIndex_agentJobStatus'].includes(t.name),
    ).map(listedTool);
    const sameChars = JSON.stringify({ tools: same }).length;
    const allChars = JSON.stringify({ tools: MCP_TOOLS.map(listedTool) }).length;
    console.log('\ntool list (tools/list JSON)');
    console.log(
      `  search + start + status: ours ${Math.ceil(sameChars / CHARS_PER_TOKEN)} tokens (${sameChars} characters); the service's MCP server ${Math.ceil(SERVICE_TOOL_LIST_CHARS / CHARS_PER_TOKEN)} tokens (${SERVICE_TOOL_LIST_CHARS}): ratio ${(sameChars / SERVICE_TOOL_LIST_CHARS).toFixed(2)}`,
    );
    console.log(
      `  all ${MCP_TOOLS.length} tools: ${Math.ceil(allChars / CHARS_PER_TOKEN)} tokens (${allChars} characters); devindex mcp --tools search,readMore: ${Math.ceil(JSON.stringify({ tools: MCP_TOOLS.slice(0, 2).map(listedTool) }).length / CHARS_PER_TOKEN)} tokens`,
    );
  } finally {
    await client.close();
    await sb.close();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);

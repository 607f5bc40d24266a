import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { AGENT_MODELS, DEFAULT_AGENT_MODEL } from '../../../src/api/agent/agentConstants';
import { LIMITS, RESULT_TYPES } from '../../../src/api/params';
import { EDITOR_TOOLS, listedTool, MCP_TOOLS } from '../../../src/tools/definitions';
import { EDITOR_TOOL_NAMES, TOOL_SETTINGS } from '../../../src/tools/names';
import { findRepoRoot } from '../../../sandbox/serverParts';

interface PackageTool {
  name: string;
  displayName: string;
  modelDescription: string;
  toolReferenceName?: string;
  canBeReferencedInPrompt?: boolean;
  inputSchema: unknown;
  when?: string;
}

const pkg = JSON.parse(readFileSync(join(findRepoRoot(__dirname)!, 'package.json'), 'utf8')) as {
  contributes: {
    languageModelTools: PackageTool[];
    configuration: {
      properties: Record<string, { type: string; default: unknown; minimum?: number; maximum?: number }>;
    };
  };
};

describe('tool definitions', () => {
  it('package.json languageModelTools says exactly what the definitions say (one source, checked)', () => {
    const contributed = pkg.contributes.languageModelTools;
    assert.deepEqual(
      contributed.map((t) => t.name),
      EDITOR_TOOLS.map((t) => t.name),
    );
    assert.deepEqual(
      contributed.map((t) => t.name),
      [...EDITOR_TOOL_NAMES],
    );
    for (const def of EDITOR_TOOLS) {
      const t = contributed.find((c) => c.name === def.name)!;
      assert.equal(t.displayName, def.title, def.name);
      assert.equal(t.modelDescription, def.description, def.name);
      assert.deepEqual(t.inputSchema, def.inputSchema, def.name);
      assert.equal(t.when, `config.${TOOL_SETTINGS.enabled}`);
    }
    const search = contributed.find((t) => t.name === 'devIndex_search')!;
    assert.equal(search.toolReferenceName, 'devIndex');
    assert.equal(search.canBeReferencedInPrompt, true);
  });

  it('the settings exist with the bounds the code applies', () => {
    const p = pkg.contributes.configuration.properties;
    assert.equal(p[TOOL_SETTINGS.enabled]!.type, 'boolean');
    assert.equal(p[TOOL_SETTINGS.enabled]!.default, true);
    assert.deepEqual(
      [p[TOOL_SETTINGS.maxChars]!.default, p[TOOL_SETTINGS.maxChars]!.minimum, p[TOOL_SETTINGS.maxChars]!.maximum],
      [12_000, 2_000, 200_000],
    );
  });

  it("the search schema states the specification's bounds and teaches the scoping rules", () => {
    const schema = MCP_TOOLS[0]!.inputSchema as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    assert.deepEqual(schema.required, ['query']);
    assert.deepEqual(Object.keys(schema.properties).sort(), [
      'archived',
      'dependency',
      'folder',
      'fork',
      'have',
      'k',
      'language',
      'license',
      'maxTokens',
      'max_stars',
      'min_stars',
      'passages',
      'query',
      'repos',
      'skills',
      'sources',
      'topic',
      'types',
    ]);
    assert.deepEqual([schema.properties.maxTokens!.minimum, schema.properties.maxTokens!.maximum], [500, 50_000]);
    assert.deepEqual([schema.properties.k!.minimum, schema.properties.k!.maximum], [LIMITS.k.min, LIMITS.k.max]);
    assert.deepEqual([schema.properties.passages!.minimum, schema.properties.passages!.maximum], [1, 5]);
    assert.equal(schema.properties.sources!.maxItems, 20);
    assert.deepEqual((schema.properties.types!.items as { enum: string[] }).enum, [...RESULT_TYPES]);
    assert.match(
      MCP_TOOLS[0]!.description,
      /`repos` scopes only issues\/PRs\/READMEs, `sources` only docs; both: a union/,
    );
    for (const f of ['language', 'topic', 'license', 'min_stars', 'max_stars', 'archived', 'fork']) {
      assert.equal(schema.properties[f]!.description, undefined, f);
    }
    assert.match(
      MCP_TOOLS[0]!.description,
      /Repo filters \(language, topic, license, stars, archived, fork\) without `sources` return NO docs/,
    );
    assert.match(
      MCP_TOOLS[0]!.description,
      /Ends `answer: <handle>`, or `more: <handle>` if cut \(devIndex_readMore\)/,
    );
    assert.match(String(schema.properties.have!.description), /answers you hold; their passages are not resent/);
    assert.match(String(schema.properties.skills!.description), /agent-skill files/);
    assert.deepEqual(schema.properties.topic!.type, ['string', 'array'], 'one topic or a list');
    assert.equal(schema.properties.topic!.maxItems, LIMITS.topics.maxItems);
    const editorSearch = EDITOR_TOOLS[0]!.inputSchema as { properties: Record<string, unknown> };
    assert.ok('scope' in editorSearch.properties);
    // A dependency by name (both surfaces); a folder only where there is no workspace (MCP).
    assert.ok('dependency' in editorSearch.properties && !('folder' in editorSearch.properties));
    assert.match(String(schema.properties.dependency!.description), /installed version/);
  });

  it('the start schema names every model this build knows, the default first', () => {
    const start = MCP_TOOLS.find((t) => t.name === 'devIndex_startAgentJob')!.inputSchema as {
      properties: Record<string, { description?: string }>;
    };
    const words = String(start.properties.model!.description);
    for (const m of AGENT_MODELS) assert.ok(words.includes(m), `${m} in: ${words}`);
    assert.ok(words.startsWith(`Default ${DEFAULT_AGENT_MODEL}`), words);
  });

  it('annotations: only reads are read-only; starting a job spends credits; cancelling is destructive', () => {
    const by = new Map(MCP_TOOLS.map((t) => [t.name, t]));
    assert.deepEqual(
      MCP_TOOLS.filter((t) => t.annotations.readOnlyHint)
        .map((t) => t.name)
        .sort(),
      [
        'devIndex_agentJobStatus',
        'devIndex_fixes',
        'devIndex_listAgentJobs',
        'devIndex_readMore',
        'devIndex_readSnapshot',
        'devIndex_search',
        'devIndex_waitForAgentJob',
      ],
    );
    // Approving a waiting job's paid calls spends credits too.
    assert.deepEqual(
      MCP_TOOLS.filter((t) => t.spendsCredits).map((t) => t.name),
      ['devIndex_startAgentJob', 'devIndex_answerApproval'],
    );
    assert.equal(by.get('devIndex_cancelAgentJob')!.annotations.destructiveHint, true);
    assert.equal(by.get('devIndex_startAgentJob')!.annotations.idempotentHint, false);
  });

  it('the wait, the list and readMore state their bounds', () => {
    const by = new Map(
      MCP_TOOLS.map((t) => [
        t.name,
        t.inputSchema as {
          properties: Record<string, { minimum?: number; maximum?: number; pattern?: string }>;
          required?: string[];
        },
      ]),
    );
    const wait = by.get('devIndex_waitForAgentJob')!;
    assert.deepEqual([wait.properties.timeoutSeconds!.minimum, wait.properties.timeoutSeconds!.maximum], [1, 600]);
    assert.deepEqual(wait.required, ['jobId']);
    assert.equal(by.get('devIndex_listAgentJobs')!.properties.limit!.maximum, 50);
    assert.equal(by.get('devIndex_readMore')!.properties.handle!.pattern, '^m[0-9a-f]{12}$');
    assert.deepEqual(
      EDITOR_TOOLS.map((t) => t.name),
      [...EDITOR_TOOL_NAMES],
    );
  });

  it("the tool list stays short: fewer tokens than the service's own MCP server for the same tools", () => {
    // firecrawl/firecrawl-mcp-server 678c92a (2026-08-21): firecrawl_developer_search, firecrawl_agent and
    // firecrawl_agent_status as tools/list sends them: 3,112 characters (bench/tokens.bench.ts prints both).
    const SERVICE_CHARS = 3_112;
    const ours = MCP_TOOLS.filter((t) =>
      ['devIndex_search', 'devIndex_startAgentJob', 'devIndex_agentJobStatus'].includes(t.name),
    ).map(listedTool);
    const chars = JSON.stringify({ tools: ours }).length;
    assert.ok(chars < SERVICE_CHARS, `${chars} characters`);
  });
});

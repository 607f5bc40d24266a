// Flat config: typescript-eslint over every TypeScript source; the client and the sandbox may not import the editor.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// zod as a namespace only: the named `z` binds zod's whole namespace object, so the bundles kept all of
// zod (every locale included, about 350 KB more in dist/core.js; docs/ARCHITECTURE.md).
const zodNamespace = {
  selector: "ImportDeclaration[source.value='zod'] > ImportSpecifier[imported.name='z']",
  message: "Import zod as a namespace: import * as z from 'zod' (the named z keeps all of zod in the bundles).",
};

const noVscode = {
  'no-restricted-imports': [
    'error',
    {
      paths: [{ name: 'vscode', message: 'src/api and sandbox stay free of the editor: no vscode import.' }],
    },
  ],
  'no-restricted-syntax': [
    'error',
    {
      selector: "CallExpression[callee.name='require'][arguments.0.value='vscode']",
      message: 'src/api and sandbox stay free of the editor: no vscode require.',
    },
    zodNamespace,
  ],
};

const NODE_ONLY = {
  group: [
    'node:*',
    'fs',
    'fs/*',
    'path',
    'os',
    'net',
    'tls',
    'dns',
    'crypto',
    'child_process',
    'http',
    'https',
    'undici',
    'undici/*',
  ],
  message: 'The web extension runs in a browser worker: no Node built-in, no undici (issue 24).',
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.cache/**', '.vscode-test/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  { files: ['src/**/*.ts', 'sandbox/**/*.ts'], rules: { 'no-restricted-syntax': ['error', zodNamespace] } },
  { files: ['src/api/**/*.ts', 'sandbox/**/*.ts'], rules: noVscode },
  // The words of every surface (failures, durations, the control-character cleaner) are shared by the CLI, the editor and the view.
  { files: ['src/words/**/*.ts'], rules: noVscode },
  // Version logic (issue 32 §5): statements in results against installed versions, apart from dependency resolution.
  { files: ['src/versions/**/*.ts'], rules: noVscode },
  // The fixes check (engine, report, cache): shared by the CLI, the editor's view and diagnostics, the tools.
  { files: ['src/fixes/**/*.ts'], rules: noVscode },
  // The agent run domain (engine, schedule, outcome, approvals): shared by the editor, the CLI and the tools.
  { files: ['src/agentRun/**/*.ts'], rules: noVscode },
  // The editor-free half of the agent feature (store, repository, words, documents, start input): tested without the editor.
  {
    files: [
      'src/agents/agentBackend.ts',
      'src/agents/agentDocuments.ts',
      'src/agents/emitter.ts',
      'src/agents/eventSummary.ts',
      'src/agents/jobFollower.ts',
      'src/agents/jobModel.ts',
      'src/agents/jobPoller.ts',
      'src/agents/jobRepository.ts',
      'src/agents/jobState.ts',
      'src/agents/jobStore.ts',
      'src/agents/startJobInput.ts',
      'src/agents/jobEvents.ts',
      'src/agents/agentCommandTable.ts',
      'src/agents/agentCommandIds.ts',
    ],
    rules: noVscode,
  },
  // Records shared across windows (issue 32 §4): the write queue and the merge, without the editor.
  { files: ['src/storage/sharedRecords.ts', 'src/storage/sharedCollection.ts'], rules: noVscode },
  // The tools' text and operations are shared with the CLI's MCP server.
  {
    files: [
      'src/tools/{definitions,limits,modelText,names,toolOps,searchOps,toolInputs,toolTypes}.ts',
      'src/cli/mcp*.ts',
    ],
    rules: noVscode,
  },
  // Issue 32: the search session (the pipeline the Search view, the CLI and the tools share) and the view's host side
  // (typed channel, dispatcher) are editor-free; only searchViewProvider.ts is the editor's.
  {
    files: ['src/search/session/**/*.ts', 'src/webview/{searchController,viewChannel,searchViewDeps}.ts'],
    rules: noVscode,
  },
  // Dependency resolution, noise removal and frame mapping (issue 14) are editor-free.
  { files: ['src/deps/{repositoryField,manifests,messages,importAt,resolver,cache}.ts'], rules: noVscode },
  // The connection diagnosis (issue 21) is shared by the CLI and the editor; only editor.ts is the editor's.
  {
    files: [
      'src/doctor/{findings,probes,secrets,diagnose,render,context,localChecks,networkChecks,serviceChecks}.ts',
      'src/cli/doctorCommand.ts',
    ],
    rules: noVscode,
  },
  // Issue 24: the browser side of each host seam, and what only the web bundle loads, import no Node built-in
  // (the build's check over the bundle's metafile is the second gate: scripts/webBuild.mjs).
  {
    files: ['src/web/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NODE_ONLY] }] },
  },
  // The webview's own code runs in the webview: no Node built-in, no Node global. (Its tsconfig has Node's types only
  // for the session modules whose types it imports: those run in the extension host.)
  {
    files: ['src/webview/app/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: noVscode['no-restricted-imports'][1].paths, patterns: [NODE_ONLY] }],
      'no-restricted-globals': ['error', 'process', 'require', 'Buffer', '__dirname', 'global'],
    },
  },
  // These are also editor-free (this entry replaces the noVscode one above for them, so it names vscode too).
  {
    files: [
      'src/api/transport.ts',
      'src/api/fetchTransport.ts',
      'src/deps/manifestDependencies.ts',
      'src/search/repoSlug.ts',
    ],
    rules: {
      'no-restricted-imports': ['error', { paths: noVscode['no-restricted-imports'][1].paths, patterns: [NODE_ONLY] }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
      },
    },
  },
);

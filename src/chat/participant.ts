// The `@devindex` chat participant's handler. Features side (dist/features.js, loaded on the first request): the
// command's scope, the tools' search and badges (scopedSearch), the results as markdown with references, then a short
// answer from the chat's model that cites them. Errors are worded as the tools', buttons as the Search view's.
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { config } from '../config';
import { dependencyOfResult } from '../deps/dependencyScope';
import { log } from '../log';
import { dependencyFolderOfEditor, editorToolDeps, signalOf, type ToolWiring } from '../tools/editorTools';
import { DEFAULT_MAX_CHARS, errorText } from '../tools/modelText';
import { searchText } from '../tools/searchAnswer';
import { charsForTokens } from '../tools/toolInputs';
import { scopedSearch, versionsLead, type ScopedSearch } from '../tools/searchOps';
import type { ToolDeps } from '../tools/toolTypes';
import { toViewError } from '../search/session/searchSession';
import { checkFolder } from '../fixesView/createFixes';
import { streamFixes } from './fixesChat';
import {
  CHAT_COMMANDS,
  COMMAND_TYPES,
  dependencyInPrompt,
  escapeMarkdown,
  fixedWithoutModel,
  MAX_ANSWER_CHARS,
  modelInstructions,
  referenceLinks,
  resultsMarkdown,
  vetAnswer,
  type ChatCommand,
  type ChatMeta,
  type PickableDependency,
} from './chatText';

const OP = 'The search';
const KIND_ICONS: Record<string, string> = {
  doc: 'book',
  issue: 'issues',
  pull_request: 'git-pull-request',
  readme: 'repo',
  web: 'globe',
};

/** What the handler reaches outside itself (each replaceable: a quick pick waits for a user). */
export interface ChatPorts {
  deps(): ToolDeps;
  /** The folder whose dependencies `/issues` and `/fixed` read (the active editor's, as the tools find it). */
  folder(): Promise<string | undefined>;
  dependencies(folder: string): Promise<PickableDependency[]>;
  /** `/fixes`: the fixes check (default: the engine over the folder, src/fixesView/createFixes.ts). */
  fixes?: ToolDeps['fixes'];
  pick(
    deps: readonly PickableDependency[],
    command: ChatCommand,
    token: vscode.CancellationToken,
  ): Promise<PickableDependency | undefined>;
}

function defaultPorts(wiring: ToolWiring): ChatPorts {
  return {
    deps: () => editorToolDeps(wiring, undefined),
    folder: () => dependencyFolderOfEditor(),
    dependencies: async (folder) =>
      (await wiring.services().folderDependencies(folder, { maxDependencies: config.maxDependencies() })).deps.map(
        (d) => ({
          ecosystem: d.ecosystem,
          name: d.name,
          slug: d.slug ?? '',
          ...(d.version ? { version: d.version } : {}),
          ...(d.versionFrom ? { versionFrom: d.versionFrom } : {}),
        }),
      ),
    pick: async (deps, command, token) => {
      const items = deps
        .filter((d) => d.slug)
        .map((d) => ({ label: d.version ? `${d.name} ${d.version}` : d.name, description: d.slug, dep: d }));
      const picked = await vscode.window.showQuickPick(
        items,
        {
          title: `@devindex /${command}: pick a dependency`,
          placeHolder: 'The dependency whose issues and pull requests to search',
          matchOnDescription: true,
        },
        token,
      );
      return picked?.dep;
    },
  };
}

/** `Searching the developer index for "…"` (the search tool's own progress words). */
function searching(query: string, dep?: PickableDependency): string {
  const q = query.replace(/\s+/g, ' ').trim();
  return `Searching the developer index for "${q.length > 80 ? `${q.slice(0, 79)}…` : q}"${dep ? ` in ${dep.slug}` : ''}`;
}

export async function handleChatRequest(
  request: vscode.ChatRequest,
  _context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  wiring: ToolWiring,
  override: Partial<ChatPorts> = {},
): Promise<vscode.ChatResult> {
  const ports: ChatPorts = { ...defaultPorts(wiring), ...override };
  if (request.command === 'fixes') return fixesRequest(request, stream, token, wiring, ports);
  const command: ChatCommand = (CHAT_COMMANDS as readonly string[]).includes(request.command ?? '')
    ? (request.command as ChatCommand)
    : 'search';
  const prompt = request.prompt.trim();
  const meta: ChatMeta = { command, question: prompt, results: 0 };
  const deps = ports.deps();
  let secret: string | undefined;
  try {
    secret = await deps.secret?.();
  } catch {
    secret = undefined;
  }
  try {
    let dep: PickableDependency | undefined;
    let question = prompt;
    if (command !== 'search') {
      const scoped: { dep: PickableDependency; question: string } | vscode.ChatResult | undefined =
        await chooseDependency(command, prompt, ports, stream, token, meta);
      if (!scoped) return { metadata: meta };
      if (!('dep' in scoped)) return scoped;
      ({ dep, question } = scoped);
      meta.question = question;
      meta.dependency = { name: dep.name, slug: dep.slug, ...(dep.version ? { version: dep.version } : {}) };
    }
    if (!question) {
      stream.markdown(
        command === 'search'
          ? 'Ask a question or paste an error message after `@devindex`; `/issues` and `/fixed` search one of your dependencies.'
          : `Add the question after the dependency's name: \`/${command} ${dep!.name} <question>\`.`,
      );
      return { metadata: { ...meta, error: true } };
    }
    if (token.isCancellationRequested) return { metadata: { ...meta, cancelled: true } };
    stream.progress(searching(question, dep));
    const types = COMMAND_TYPES[command];
    const run = await scopedSearch({ query: question, ...(types ? { types } : {}) }, deps, signalOf(token), [], dep);
    if ('isError' in run) return { errorDetails: { message: run.text }, metadata: { ...meta, error: true } };
    if (token.isCancellationRequested) return { metadata: { ...meta, cancelled: true } };
    meta.results = run.response.results.length;
    const links = referenceLinks(run.response);
    for (const l of links)
      stream.reference(vscode.Uri.parse(l.link, true), new vscode.ThemeIcon(KIND_ICONS[l.kind] ?? 'link-external'));
    const newer = run.badges
      ?.flatMap((b) => b ?? [])
      .filter((b) => b.verdict === 'newer-fix')
      .map((b) => b.stated);
    if (newer?.length) meta.newerFix = newer[0];
    // The answer first, where the reader starts; the results it cites follow (the references list has them already).
    const answered = meta.results > 0 && (await answerWithModel(request, command, question, run, links, stream, token));
    if (token.isCancellationRequested) return { metadata: { ...meta, cancelled: true } };
    stream.markdown(`${answered ? '\n\n' : ''}${resultsMarkdown(run)}`);
    if (command === 'fixed' && !answered) {
      const words = fixedWithoutModel(run);
      if (words) stream.markdown(`\n\n${words}`);
    }
    if (token.isCancellationRequested) return { metadata: { ...meta, cancelled: true } };
    if (command === 'search' && meta.results) {
      const d = await workspaceDependencyOf(run, ports);
      if (d) meta.dependency = { name: d.name, slug: d.slug, ...(d.version ? { version: d.version } : {}) };
    }
    return { metadata: meta };
  } catch (e) {
    if (token.isCancellationRequested || (e instanceof ApiError && e.kind === 'aborted'))
      return { metadata: { ...meta, cancelled: true } };
    const view = toViewError(e);
    if (view !== 'aborted' && view.action === 'setKey')
      stream.button({ command: 'devIndex.auth.setKey', title: 'Set API Key' });
    if (view !== 'aborted' && view.diagnose)
      stream.button({ command: 'devIndex.diagnose', title: 'Diagnose Connection' });
    return {
      errorDetails: { message: errorText(e, { surface: 'editor', op: OP, ...(secret ? { secret } : {}) }) },
      metadata: { ...meta, error: true },
    };
  }
}

/** The dependency `/issues` or `/fixed` searches: named at the prompt's start (or in it), else picked; undefined when none was picked. */
async function chooseDependency(
  command: ChatCommand,
  prompt: string,
  ports: ChatPorts,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  meta: ChatMeta,
): Promise<{ dep: PickableDependency; question: string } | vscode.ChatResult | undefined> {
  const folder = await ports.folder();
  if (!folder) {
    return {
      errorDetails: {
        message:
          `/${command} searches a dependency of the open project, and no folder is open. ` +
          `Open the project folder, or ask without /${command}.`,
      },
      metadata: { ...meta, error: true },
    };
  }
  const all = await ports.dependencies(folder);
  const named = dependencyInPrompt(prompt, all);
  if (named && !named.dep.slug) {
    // The tools' words for a dependency without a repository (src/deps/dependencyScope.ts, through scopedSearch).
    const r = await scopedSearch({ query: named.question || prompt, dependency: named.dep.name }, ports.deps());
    return {
      errorDetails: { message: 'isError' in r ? r.text : `${named.dep.name} has no GitHub repository to search in` },
      metadata: { ...meta, error: true },
    };
  }
  if (named) return named;
  const withRepo = all.filter((d) => d.slug);
  const picked = withRepo.length ? await ports.pick(withRepo, command, token) : undefined;
  if (picked) return { dep: picked, question: prompt };
  const some = withRepo.slice(0, 8).map((d) => `\`${escapeMarkdown(d.name)}\``);
  const more = withRepo.length > some.length ? ` and ${withRepo.length - some.length} more` : '';
  stream.markdown(
    some.length
      ? `Name one of this project's dependencies after \`/${command}\`, then the question, ` +
          `for example \`/${command} ${escapeMarkdown(withRepo[0]!.name)} ${escapeMarkdown(prompt) || '<question>'}\`. ` +
          `With a GitHub repository: ${some.join(', ')}${more}.`
      : `No dependency of ${escapeMarkdown(folder)} names a GitHub repository (package.json, ` +
          `go.mod, Cargo.toml or a Python virtual environment), so /${command} has nothing to search.`,
  );
  meta.choices = withRepo.slice(0, 3).map((d) => d.name);
  return undefined;
}

/**
 * The short answer from the chat's model, streamed before the results, shown when it cites them; false when there is
 * no model or no answer.
 */
async function answerWithModel(
  request: vscode.ChatRequest,
  command: ChatCommand,
  question: string,
  run: ScopedSearch,
  links: ReadonlyArray<{ n: number; link: string }>,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<boolean> {
  const model = (request as { model?: vscode.LanguageModelChat }).model;
  if (!model || typeof model.sendRequest !== 'function') return false;
  const lead = run.dep ? versionsLead(run.dep, run.badges ?? [], run.summary) : '';
  const inputChars =
    typeof model.maxInputTokens === 'number' && model.maxInputTokens > 0
      ? charsForTokens(Math.floor(model.maxInputTokens / 2))
      : DEFAULT_MAX_CHARS;
  const budget = Math.max(2000, Math.min(DEFAULT_MAX_CHARS, inputChars) - lead.length);
  const evidence = [lead, searchText(run.params, run.response, { maxChars: budget })].filter(Boolean).join('\n\n');
  const prompt = `${modelInstructions(command, question, run.dep)}\n\n${evidence}`;
  let text = '';
  try {
    const res = await model.sendRequest(
      [vscode.LanguageModelChatMessage.User(prompt)],
      { justification: 'To answer your question from the developer index results.' },
      token,
    );
    for await (const part of res.text) {
      text += part;
      if (text.length >= MAX_ANSWER_CHARS || token.isCancellationRequested) break;
    }
  } catch (e) {
    if (token.isCancellationRequested) return false;
    log().warn(`@devindex: the chat model did not answer: ${e instanceof Error ? e.message : String(e)}`);
    stream.markdown(
      `The chat's model did not answer (${escapeMarkdown(e instanceof Error ? e.message : String(e))}); ` +
        `the results below are the answer.\n\n`,
    );
    return false;
  }
  if (token.isCancellationRequested) return false;
  const vetted = vetAnswer(text, links, run.response.results.length);
  stream.markdown(
    vetted
      ? `**Answer** (${escapeMarkdown(model.name || model.id)}, from the results below)\n\n${vetted.markdown}`
      : "The model's answer cited none of the results, so it is not shown; the results below are the answer.\n\n",
  );
  return vetted !== undefined;
}

/** After `/search`: the workspace dependency whose repository the first repository result is from, for the follow-up. */
async function workspaceDependencyOf(run: ScopedSearch, ports: ChatPorts): Promise<PickableDependency | undefined> {
  try {
    const folder = await ports.folder();
    if (!folder) return undefined;
    const all = (await ports.dependencies(folder)).filter((d) => d.slug);
    for (const r of run.response.results) {
      const d = dependencyOfResult(all, r);
      if (d) return d;
    }
  } catch (e) {
    log().info(
      `@devindex: the workspace's dependencies could not be read for a follow-up: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  return undefined;
}

/** `/fixes [names…]`: the fixes check of the active editor's folder, the named dependencies only when the prompt names some. */
async function fixesRequest(
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
  wiring: ToolWiring,
  ports: ChatPorts,
): Promise<vscode.ChatResult> {
  const folder = await ports.folder();
  if (!folder)
    return {
      errorDetails: { message: '/fixes checks the dependencies of the open project, and no folder is open.' },
      metadata: { fixes: true, error: true },
    };
  const names = request.prompt.split(/[\s,]+/).filter(Boolean);
  const name = folder.split(/[\\/]/).filter(Boolean).pop() ?? folder;
  stream.progress(`Checking the dependencies of ${name} for fixes they lack`);
  try {
    const outcome = await (ports.fixes ?? ((f, o) => checkFolder(wiring.fixes, f, o)))(folder, {
      signal: signalOf(token),
      ...(names.length ? { dependencies: names } : {}),
      onProgress: (p) => {
        if (p.kind === 'checked' && !p.cached) stream.progress(`Checked ${p.done} of ${p.total}: ${p.name}`);
      },
    });
    const references = streamFixes(stream, outcome, name);
    return { metadata: { fixes: true, references, dependencies: outcome.report.dependencies.length } };
  } catch (e) {
    if (token.isCancellationRequested) return { metadata: { fixes: true, cancelled: true } };
    return {
      errorDetails: { message: errorText(e, { surface: 'editor', op: 'The fixes check' }) },
      metadata: { fixes: true, error: true },
    };
  }
}

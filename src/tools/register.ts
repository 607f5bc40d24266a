// Language-model tools for VS Code's chat (agent mode), registered at activation where the editor has the Language
// Model Tool API and devIndex.tools.enabled is on. Activation bundle: it only registers; every call is handled by
// dist/features.js (src/tools/editorTools.ts), loaded on the first invocation.
import * as vscode from 'vscode';
import { config } from '../config';
import type { invokeLanguageModelTool, ToolWiring } from './editorTools';
import { EDITOR_TOOL_NAMES, TOOL_NAMES, TOOL_SETTINGS, type ToolName } from './names';
import { grouped } from '../words/duration';

type Input = Record<string, unknown>;

/** The Language Model Tool API of `ns` (the vscode module), when this editor has it (VS Code 1.95+ does; other hosts may not). */
export function languageModelToolApi(ns: object): Pick<typeof vscode.lm, 'registerTool'> | undefined {
  const lm = (ns as { lm?: Partial<typeof vscode.lm> }).lm;
  const hasClasses =
    typeof (ns as { LanguageModelToolResult?: unknown }).LanguageModelToolResult === 'function' &&
    typeof (ns as { LanguageModelTextPart?: unknown }).LanguageModelTextPart === 'function';
  return lm && typeof lm.registerTool === 'function' && hasClasses
    ? (lm as Pick<typeof vscode.lm, 'registerTool'>)
    : undefined;
}

function short(v: unknown, max: number): string {
  const s = typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : '';
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** What the user sees before and while a tool runs; starting and cancelling a job ask first. */
export function prepareToolInvocation(
  name: ToolName,
  input: Input,
  defaultMaxCredits: number,
): vscode.PreparedToolInvocation {
  const args: Input = input && typeof input === 'object' ? input : {};
  switch (name) {
    case TOOL_NAMES.search: {
      const scoped = args.scope === 'workspace' ? " in this workspace's repositories" : '';
      return { invocationMessage: `Searching the developer index for "${short(args.query, 80)}"${scoped}` };
    }
    case TOOL_NAMES.startAgentJob: {
      const credits = typeof args.maxCredits === 'number' ? args.maxCredits : defaultMaxCredits;
      const md = new vscode.MarkdownString(undefined, false);
      md.appendMarkdown(
        'An agent job browses the web and **spends credits** on your account, up to its credit ceiling; failed runs are not billed.\n\n',
      );
      md.appendMarkdown('**Prompt:**\n\n');
      // The model wrote the prompt: short() puts it on one line, so it cannot close the code block and
      // dress up as the confirmation's own words (the ceiling is also in the title, which it cannot touch).
      md.appendCodeblock(short(args.prompt, 1000), 'text');
      md.appendMarkdown(`\n**Credit ceiling:** ${grouped(credits)} credits`);
      if (Array.isArray(args.urls) && args.urls.length)
        md.appendMarkdown(`\n\n**Starts from:** ${args.urls.length} URL${args.urls.length === 1 ? '' : 's'}`);
      return {
        invocationMessage: 'Starting an agent job',
        confirmationMessages: { title: `Start an agent job (up to ${grouped(credits)} credits)?`, message: md },
      };
    }
    case TOOL_NAMES.agentJobStatus:
      return { invocationMessage: `Reading agent job ${short(args.jobId, 40)}` };
    case TOOL_NAMES.readMore:
      return { invocationMessage: 'Reading the rest of the developer index answer' };
    case TOOL_NAMES.waitForAgentJob:
      return { invocationMessage: `Waiting for agent job ${short(args.jobId, 40)}` };
    case TOOL_NAMES.listAgentJobs:
      return { invocationMessage: 'Listing recent agent jobs' };
    case TOOL_NAMES.fixes:
      return { invocationMessage: "Checking the project's dependencies for fixes they lack" };
    case TOOL_NAMES.cancelAgentJob:
      return {
        invocationMessage: `Cancelling agent job ${short(args.jobId, 40)}`,
        confirmationMessages: {
          title: 'Cancel the agent job?',
          message:
            `Agent job ${short(args.jobId, 40)} stops and ends as cancelled; ` +
            `its work so far is discarded, and the credits it spent before the cancel took effect may ` +
            `still be charged.`,
        },
      };
    case TOOL_NAMES.answerApproval: {
      const approve = args.decision === 'approve';
      const calls = Array.isArray(args.callIds) ? ` (calls ${args.callIds.map((c) => short(c, 40)).join(', ')})` : '';
      return {
        invocationMessage: `${approve ? 'Approving' : 'Declining'} what agent job ${short(args.jobId, 40)} waits for`,
        confirmationMessages: approve
          ? {
              title: 'Approve the paid calls?',
              message:
                `Agent job ${short(args.jobId, 40)} makes the paid calls it asked for${calls}, ` +
                `on your account${args.always === true ? ', and may make them again in this thread without asking' : ''}. ` +
                `Its status lists each call and its estimated credits.`,
            }
          : {
              title: 'Decline the paid calls?',
              message: `Agent job ${short(args.jobId, 40)} goes on without the calls it asked for.`,
            },
      };
    }
    default:
      return {};
  }
}

/** Registers the tools now and whenever the setting is turned back on; unregisters when it is turned off. */
/** `invoke()`: the tools' code, from the entry's dist/features.js on the desktop (loaded on the first call). */
export function registerLanguageModelTools(
  context: vscode.ExtensionContext,
  wiring: ToolWiring,
  invoke: () => typeof invokeLanguageModelTool,
): void {
  const lm = languageModelToolApi(vscode);
  if (!lm) return;
  let registered: vscode.Disposable[] = [];
  const enabled = () => vscode.workspace.getConfiguration().get<boolean>(TOOL_SETTINGS.enabled, true) !== false;
  const apply = (): void => {
    if (enabled() === registered.length > 0) return;
    if (registered.length) {
      for (const d of registered) d.dispose();
      registered = [];
      return;
    }
    registered = EDITOR_TOOL_NAMES.map((name) =>
      lm.registerTool<Input>(name, {
        prepareInvocation: (o) => prepareToolInvocation(name, o.input, config.defaultMaxCredits()),
        // A third argument, the invocation's progress, comes from editors with the toolProgress API (feature-detected in core).
        invoke: (o, token, ...rest: unknown[]) => invoke()(name, o, token, wiring, rest[0]),
      } as vscode.LanguageModelTool<Input>),
    );
  };
  apply();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(TOOL_SETTINGS.enabled)) apply();
    }),
    {
      dispose: () => {
        for (const d of registered) d.dispose();
        registered = [];
      },
    },
  );
}

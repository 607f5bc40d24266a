// What each tool does, once, for both surfaces (the editor's language-model tools and `devindex mcp`). Nothing
// here throws at the caller: every failure becomes a result marked as an error. No vscode import.
import { show } from '../api/params';
import { TOOL_NAMES } from './names';
import { errorText, noticesText } from './modelText';
import { scrubSecret } from '../words/controls';
import { issuesText } from '../words/failureWords';
import { readMoreTool, SEARCH_OP, searchTool } from './searchOps';
import { FIXES_OP, fixesTool } from './fixesOps';
import { AGENT_OPS, answerApproval, cancel, list, snapshot, start, status, wait } from './agentOps';
import { isRecord } from './toolInputs';
import type { ToolDeps, ToolOutcome, ToolProgress } from './toolTypes';

const OPS: Record<string, string> = {
  ...AGENT_OPS,
  [TOOL_NAMES.search]: SEARCH_OP,
  [TOOL_NAMES.readMore]: 'Reading the rest of the answer',
  [TOOL_NAMES.fixes]: FIXES_OP,
};

/** Runs one tool. Never throws: a failure is an outcome with `isError: true`. */
export async function runTool(
  name: string,
  input: unknown,
  deps: ToolDeps,
  signal?: AbortSignal,
  progress?: ToolProgress,
): Promise<ToolOutcome> {
  const op = OPS[name] ?? `Tool ${name}`;
  let secret: string | undefined;
  try {
    secret = await deps.secret?.();
  } catch {
    secret = undefined;
  }
  const finish = (o: ToolOutcome): ToolOutcome => {
    const notices = deps.takeNotices?.() ?? [];
    const text = notices.length ? `${o.text}\n\n${noticesText(notices)}` : o.text;
    return { ...o, text: scrubSecret(text, secret) };
  };
  try {
    if (!isRecord(input)) {
      return finish({
        isError: true,
        text: issuesText([{ field: '(input)', message: `the input must be a JSON object; got ${show(input)}` }]),
      });
    }
    switch (name) {
      case TOOL_NAMES.search:
        return finish(await searchTool(input, deps, signal));
      case TOOL_NAMES.startAgentJob:
        return finish(await start(input, deps, signal));
      case TOOL_NAMES.agentJobStatus:
        return finish(await status(input, deps, signal));
      case TOOL_NAMES.cancelAgentJob:
        return finish(await cancel(input, deps, signal));
      case TOOL_NAMES.readSnapshot:
        return finish(await snapshot(input, deps, signal));
      case TOOL_NAMES.readMore:
        return finish(readMoreTool(input, deps));
      case TOOL_NAMES.waitForAgentJob:
        return finish(await wait(input, deps, signal, progress && ((line) => progress(scrubSecret(line, secret)))));
      case TOOL_NAMES.listAgentJobs:
        return finish(await list(input, deps, signal));
      case TOOL_NAMES.answerApproval:
        return finish(await answerApproval(input, deps, signal));
      case TOOL_NAMES.fixes:
        return finish(
          await fixesTool(input, deps, signal, progress && ((line) => progress(scrubSecret(line, secret)))),
        );
      default:
        return finish({ isError: true, text: `Unknown tool ${JSON.stringify(name)}.` });
    }
  } catch (e) {
    return finish({ isError: true, text: errorText(e, { surface: deps.surface, op, secret }) });
  }
}

// The file work of the MCP setup and the agent rules, shared by `devindex setup` and the editor (through
// dist/cli-setup.js). A user's file is edited through jsonc-parser's tree (jsoncEdit.ts) or inside our marked block
// (rules.ts), written through a temporary file and a rename with its mode kept; one that cannot be parsed is never written.
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_NAME, type Launch, type SetupEntry } from './entries';
import { readUserFile, stalePaths, writeAtomic } from './files';
import { appendTo, parseJsonc, replaceElement, setAt, typeAt, valueAt } from './jsoncEdit';
import { launcherFiles } from './launcher';
import { VERSIONED_CLI, type LauncherTargets } from './launcherStamp';
import { RULE_FILES, withBlock, type RuleTarget } from './rules';

type EditOutcome = { ok: true; text: string } | { ok: false; reason: string };

/**
 * The client file's text with our server entry (and, for VS Code, its password input) set, every other byte as
 * it was; or why the file cannot be edited. `undefined` is a file that does not exist yet.
 */
export function mergeEntry(existing: string | undefined, entry: SetupEntry): EditOutcome {
  // A byte order mark (as some Windows editors write) is kept, outside what the parser reads.
  const bom = existing?.startsWith('\uFEFF') ? '\uFEFF' : '';
  const r = mergeText(bom ? existing!.slice(1) : (existing ?? ''), entry);
  return r.ok ? { ok: true, text: bom + r.text } : r;
}

function mergeText(text: string, entry: SetupEntry): EditOutcome {
  const parsed = parseJsonc(text);
  if (!parsed.ok) return parsed;
  const containerType = typeAt(text, [entry.container]);
  if (containerType !== undefined && containerType !== 'object')
    return { ok: false, reason: `its "${entry.container}" is not an object` };
  let out = setAt(text, [entry.container, SERVER_NAME], entry.server);
  if (entry.input) {
    const inputsType = typeAt(out, ['inputs']);
    if (inputsType === undefined) out = setAt(out, ['inputs'], [entry.input]);
    else if (inputsType !== 'array') return { ok: false, reason: 'its "inputs" is not an array' };
    else {
      const inputs = valueAt(out, ['inputs']) as unknown[];
      const at = inputs.findIndex((i) => (i as { id?: unknown } | null)?.id === entry.input!.id);
      out = at >= 0 ? replaceElement(out, ['inputs'], at, entry.input) : appendTo(out, ['inputs'], entry.input);
    }
  }
  return { ok: true, text: out };
}

interface WriteResult {
  file: string;
  action: 'written' | 'unchanged' | 'refused';
  reason?: string;
  text?: string;
}

/** Merges the entry into `file` and writes it (atomically) when it changed; never writes a file it cannot read. */
export function writeEntry(file: string, entry: SetupEntry): WriteResult {
  const r = readUserFile(file);
  if (r.kind === 'unreadable') return { file, action: 'refused', reason: r.reason };
  const existing = r.kind === 'text' ? r.text : undefined;
  const m = mergeEntry(existing, entry);
  if (!m.ok) return { file, action: 'refused', reason: m.reason };
  if (m.text === existing) return { file, action: 'unchanged', text: m.text };
  writeAtomic(file, m.text, 0o600);
  return { file, action: 'written', text: m.text };
}

/** Writes the launcher files into `dir` (those whose text or mode changed) and returns how an entry runs them. */
export function installLauncher(
  dir: string,
  targets: LauncherTargets,
  platform: NodeJS.Platform = process.platform,
): Launch {
  const { files, launch } = launcherFiles(dir, targets, platform, join);
  // What the entry runs lives in a folder only the user can write to (when this makes it).
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const f of files) {
    const path = join(dir, f.name);
    const same = (() => {
      try {
        return (
          readFileSync(path, 'utf8') === f.text && (platform === 'win32' || (statSync(path).mode & 0o777) === f.mode)
        );
      } catch {
        return false;
      }
    })();
    if (same) continue;
    // The old file is ours: replaced whole, with the launcher's own mode (an executable sh launcher).
    rmSync(path, { force: true });
    writeAtomic(path, f.text, f.mode);
  }
  return launch;
}

interface RepairResult {
  file: string;
  repaired: string[];
  reason?: string;
}

/**
 * Entries (under `servers` or `mcpServers`) whose arguments name a versioned `dist/cli.js` that is gone are
 * pointed at the launcher: their command and arguments change, the rest of the entry (env) and of the file stay.
 */
export function repairFile(file: string, launch: Launch, exists: (p: string) => boolean = existsSync): RepairResult {
  const r = readUserFile(file);
  if (r.kind !== 'text') return { file, repaired: [], ...(r.kind === 'unreadable' ? { reason: r.reason } : {}) };
  if (stalePaths(r.text, exists).length === 0) return { file, repaired: [] };
  const bom = r.text.startsWith('\uFEFF') ? '\uFEFF' : '';
  let text = r.text.slice(bom.length);
  const parsed = parseJsonc(text);
  if (!parsed.ok) return { file, repaired: [], reason: parsed.reason };
  const repaired: string[] = [];
  for (const container of ['servers', 'mcpServers']) {
    const servers = valueAt(text, [container]);
    if (!servers || typeof servers !== 'object' || Array.isArray(servers)) continue;
    for (const [name, server] of Object.entries(servers as Record<string, unknown>)) {
      const args = (server as { args?: unknown } | null)?.args;
      if (!Array.isArray(args)) continue;
      const at = args.findIndex((a) => typeof a === 'string' && VERSIONED_CLI.test(a) && !exists(a));
      if (at < 0) continue;
      text = setAt(text, [container, name, 'command'], launch.command);
      text = setAt(text, [container, name, 'args'], [...launch.args, ...args.slice(at + 1)]);
      repaired.push(name);
    }
  }
  if (repaired.length) writeAtomic(file, bom + text);
  return { file, repaired };
}

interface RuleResult {
  target: RuleTarget;
  file: string;
  action: 'written' | 'unchanged' | 'refused';
  reason?: string;
}

/** Writes our block into each target's file under `folder` (see rules.ts). */
export function writeRules(folder: string, targets: readonly RuleTarget[]): RuleResult[] {
  return targets.map((target) => {
    const file = join(folder, ...RULE_FILES[target].split('/'));
    const r = readUserFile(file);
    if (r.kind === 'unreadable') return { target, file, action: 'refused', reason: r.reason };
    const edit = withBlock(target, r.kind === 'text' ? r.text : undefined);
    if (!edit.ok) return { target, file, action: 'refused', reason: edit.reason };
    if (!edit.changed) return { target, file, action: 'unchanged' };
    writeAtomic(file, edit.text);
    return { target, file, action: 'written' };
  });
}

// Rules that make coding agents use the developer index (a Claude Code skill, a Cursor rule, Copilot's repository
// instructions, an AGENTS.md section), each inside a marked block (`<!-- devindex:begin -->` … `<!-- devindex:end -->`)
// that a rerun replaces, the user's text around it untouched. Pure text (setupKit.ts reads and writes).
import { TOOL_NAMES } from '../tools/names';

// A Claude skill and a Cursor rule need frontmatter at the top of their own file: written when the file is created,
// then left as the user keeps it.
export const RULE_TARGETS = ['claude', 'cursor', 'copilot', 'agents'] as const;
export type RuleTarget = (typeof RULE_TARGETS)[number];

export const BLOCK_BEGIN = '<!-- devindex:begin -->';
export const BLOCK_END = '<!-- devindex:end -->';
const SKILL_NAME = 'devindex-search';

/** Where each rule goes, relative to the project folder. */
export const RULE_FILES: Record<RuleTarget, string> = {
  claude: `.claude/skills/${SKILL_NAME}/SKILL.md`,
  cursor: '.cursor/rules/devindex.mdc',
  copilot: '.github/copilot-instructions.md',
  agents: 'AGENTS.md',
};

export const RULE_LABELS: Record<RuleTarget, string> = {
  claude: 'Claude Code skill',
  cursor: 'Cursor rule',
  copilot: 'GitHub Copilot instructions',
  agents: 'AGENTS.md section',
};

const WHEN =
  'Search the developer index (documentation, GitHub issues, pull requests and READMEs in one ranked search) before answering from memory';

/** What every rule says: when to search and how to scope it to the dependency installed here. */
function body(heading: string): string {
  const s = TOOL_NAMES.search;
  return [
    heading,
    '',
    `${WHEN} when the task depends on something outside this repository:`,
    '',
    '- how a library, framework or API behaves (options, defaults, limits, what changed between versions);',
    '- an error message, a stack trace or a failing test that comes from a dependency: search the message itself;',
    '- "is this fixed?", "is there an issue for this?": whether a bug is known, fixed, or has a workaround;',
    "- a dependency's open issues, regressions or migration notes before upgrading or pinning it.",
    '',
    `Use the \`${s}\` tool (MCP server \`devindex\`; in VS Code's chat, \`#devIndex\`):`,
    '',
    `- Scope it to the dependency installed here: pass \`dependency\` with the package's name ` +
      `(\`{"query": "...", "dependency": "undici"}\`); the answer then compares fixes and issues ` +
      `with the installed version. Otherwise pass \`repos: ["owner/repo"]\` for a project's ` +
      `issues and pull requests, or \`sources\` for its documentation.`,
    "- Put the error text or the maintainer's words in `query`, not a paraphrase.",
    `- Read the coverage notes at the end of the answer before concluding that nothing ` +
      `exists; \`more: <handle>\` means it was cut (\`${TOOL_NAMES.readMore}\`).`,
    "- Cite the result's URL and passage you rely on.",
    '',
    'Agent jobs spend credits: start one only when a search cannot answer.',
  ].join('\n');
}

/** Frontmatter a new file of this kind starts with (none for files that have no frontmatter). */
function frontmatter(t: RuleTarget): string {
  if (t === 'claude') {
    return [
      '---',
      `name: ${SKILL_NAME}`,
      'description: Search the developer index (docs, GitHub issues, PRs, READMEs) ' +
        'for how a library behaves, an error message, whether a bug is fixed, ' +
        "or a dependency's known issues, scoped to the installed version.",
      '---',
      '',
    ].join('\n');
  }
  if (t === 'cursor') {
    return [
      '---',
      'description: Search the developer index for library behaviour, error messages, whether a bug is fixed, and dependency issues',
      'globs:',
      'alwaysApply: false',
      '---',
      '',
    ].join('\n');
  }
  return '';
}

/** Our block for one target (markers included). */
export function ruleBlock(t: RuleTarget, eol = '\n'): string {
  const heading =
    t === 'agents'
      ? '## Developer index search'
      : t === 'claude'
        ? '# Developer index search'
        : '# Developer index search';
  return [BLOCK_BEGIN, body(heading), BLOCK_END].join('\n').replace(/\n/g, eol);
}

type BlockEdit = { ok: true; text: string; changed: boolean } | { ok: false; reason: string };

/**
 * The file's text with our block in it: replaced where the markers are, else appended after the user's text
 * (a new file gets the target's frontmatter first). Markers that are not one begin followed by one end are a
 * reason not to write: the user's text might be inside what would be replaced.
 */
export function withBlock(t: RuleTarget, existing: string | undefined): BlockEdit {
  if (existing === undefined) {
    const text = `${frontmatter(t)}${frontmatter(t) ? '\n' : ''}${ruleBlock(t)}\n`;
    return { ok: true, text, changed: true };
  }
  const eol = existing.includes('\r\n') ? '\r\n' : '\n';
  const begins = existing.split(BLOCK_BEGIN).length - 1;
  const ends = existing.split(BLOCK_END).length - 1;
  const b = existing.indexOf(BLOCK_BEGIN);
  const e = existing.indexOf(BLOCK_END);
  if (begins === 0 && ends === 0) {
    const sep = existing === '' ? '' : existing.endsWith(eol + eol) ? '' : existing.endsWith(eol) ? eol : eol + eol;
    const text = `${existing}${sep}${ruleBlock(t, eol)}${eol}`;
    return { ok: true, text, changed: true };
  }
  if (begins !== 1 || ends !== 1 || e < b) {
    return {
      ok: false,
      reason:
        `its ${BLOCK_BEGIN} and ${BLOCK_END} markers are not one pair in that order (${begins} ` +
        `begin, ${ends} end): fix or remove them, then run this again`,
    };
  }
  const text = existing.slice(0, b) + ruleBlock(t, eol) + existing.slice(e + BLOCK_END.length);
  return { ok: true, text, changed: text !== existing };
}

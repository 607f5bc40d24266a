// A passage in a terminal is capped at a number of lines, never inside a fenced code block, with a
// line saying how much is left and where the whole passage is (`--json`). The official CLI caps at 40
// lines the same way (addendum, "Exact shapes as of late November 2026").

/** Lines of one passage shown in a terminal before the rest is left to `--json`. */
export const PASSAGE_LINE_CAP = 40;

interface CappedPassage {
  /** The lines to print (a closing fence added when a passage opens with a block longer than the cap). */
  lines: string[];
  /** Lines of the passage not printed (0: the passage is whole). */
  more: number;
}

interface OpenFence {
  char: '`' | '~';
  length: number;
  indent: string;
}

// CommonMark: a fence is at least three backticks or tildes, indented at most three spaces; a backtick
// fence's info string holds no backtick. A block closes on a fence of the same character, at least as
// long, with nothing after it but spaces.
const OPENING = /^( {0,3})(`{3,}|~{3,})(.*)$/;

function opens(line: string): OpenFence | undefined {
  const m = OPENING.exec(line);
  if (!m) return undefined;
  const run = m[2]!;
  const char = run[0] as '`' | '~';
  if (char === '`' && m[3]!.includes('`')) return undefined;
  return { char, length: run.length, indent: m[1]! };
}

function closes(line: string, open: OpenFence): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  return !!m && m[1]![0] === open.char && m[1]!.length >= open.length;
}

/**
 * At most `cap` lines of a passage, cut only where no fenced block is open: before a block that
 * straddles the cap. A passage that opens with such a block (nothing would be left before it) shows
 * the block's first lines and a closing fence, so a terminal never stays inside a block.
 */
export function capPassageLines(lines: readonly string[], cap: number = PASSAGE_LINE_CAP): CappedPassage {
  if (lines.length <= cap) return { lines: [...lines], more: 0 };
  let open: OpenFence | undefined;
  let lastSafe = 0; // lines [0, lastSafe) end outside any block
  for (let i = 0; i < cap; i++) {
    const line = lines[i]!;
    if (open) {
      if (closes(line, open)) open = undefined;
    } else {
      open = opens(line);
    }
    if (!open) lastSafe = i + 1;
  }
  if (lastSafe > 0) return { lines: lines.slice(0, lastSafe), more: lines.length - lastSafe };
  // The passage opens with a block longer than the cap: its first lines, then the fence that closes it.
  const fence = opens(lines[0]!)!;
  const shown = Math.max(1, cap - 1);
  return {
    lines: [...lines.slice(0, shown), `${fence.indent}${fence.char.repeat(fence.length)}`],
    more: lines.length - shown,
  };
}

/** The line after a capped passage. */
export function moreLinesNotice(more: number): string {
  return `… (${more} more line${more === 1 ? '' : 's'}; use --json for the full passage)`;
}

// Markdown chunking for passages. A chunk is a run of whole blocks; a block is never split, so a fenced
// code block or a table always arrives in one piece (the client renders passages as markdown).

/** Soft size of a chunk in characters: blocks are added until the next one would pass it. */
export const CHUNK_TARGET = 700;

const fenceOpen = /^ {0,3}(`{3,}|~{3,})/;
const heading = /^ {0,3}#{1,6}(\s|$)/;

/**
 * Splits markdown into blocks: a fenced code block (through its closing fence, or to the end when it
 * is never closed), a heading line, or a run of non-blank lines (a paragraph, a list, a table: GFM
 * ends a table at the first blank line, so a table never spans two runs).
 */
export function splitBlocks(markdown: string): string[] {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: string[] = [];
  let cur: string[] = [];
  const flush = (): void => {
    if (cur.length) {
      blocks.push(cur.join('\n'));
      cur = [];
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const open = fenceOpen.exec(line);
    if (open) {
      flush();
      const marker = open[1] ?? '```';
      const fence = [line];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const l = lines[j] ?? '';
        fence.push(l);
        const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(l);
        if (close && close[1]?.[0] === marker[0] && (close[1]?.length ?? 0) >= marker.length) break;
      }
      blocks.push(fence.join('\n'));
      i = j;
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (heading.test(line)) {
      flush();
      blocks.push(line);
      continue;
    }
    cur.push(line);
  }
  flush();
  return blocks;
}

/**
 * Groups blocks into chunks of about CHUNK_TARGET characters. A heading starts a new chunk and stays
 * with the content under it; a block longer than the target becomes a chunk of its own, uncut.
 */
export function chunkMarkdown(markdown: string, target = CHUNK_TARGET): string[] {
  const chunks: string[] = [];
  let cur: string[] = [];
  let size = 0;
  let onlyHeadings = true;
  const flush = (): void => {
    // A trailing heading with nothing under it is dropped, unless it is all the document has.
    if (cur.length && (!onlyHeadings || chunks.length === 0)) chunks.push(cur.join('\n\n'));
    cur = [];
    size = 0;
    onlyHeadings = true;
  };
  for (const b of splitBlocks(markdown)) {
    const isHeading = heading.test(b) && !b.includes('\n');
    if (isHeading && !onlyHeadings) flush();
    else if (!isHeading && !onlyHeadings && size + b.length > target) flush();
    cur.push(b);
    size += b.length + 2;
    if (!isHeading) onlyHeadings = false;
  }
  flush();
  return chunks;
}

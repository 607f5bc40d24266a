// Pure: a text's sentences, found by one pass over it: the sentence around a version statement (its bounds
// for the phrases, its words for a tooltip).
/** Where a sentence ends going back: after a line break, or a `.!?` before a space that does not end a number. */
const STARTS_AFTER = /\n|(?<!\d)[.!?](?=[ \t\n\r])/g;
/** Where a sentence ends going forward: before a line break, or after a `.!?` before a space or the end. */
const ENDS_AT = /\n|[.!?](?=[ \t\n\r]|$)/g;

/**
 * The sentences of one text: the sentence around [start, end) runs from the previous sentence end to the next.
 * The ends going back are found in one pass of the whole text (a text has a few versions, each asks once or twice).
 */
export class Sentences {
  private starts: number[] | undefined;
  constructor(readonly text: string) {}

  bounds(start: number, end: number): [number, number] {
    const starts = (this.starts ??= this.scan());
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= start) lo = mid + 1;
      else hi = mid;
    }
    const a = lo > 0 ? starts[lo - 1]! : 0;
    ENDS_AT.lastIndex = end;
    const m = ENDS_AT.exec(this.text);
    const b = !m ? this.text.length : m[0] === '\n' ? m.index : m.index + 1;
    return [a, b];
  }

  /** The sentence (for a tooltip), white space folded, at most 300 characters. */
  around(start: number, end: number): string {
    const [a, b] = this.bounds(start, end);
    let s = this.text.slice(a, b).replace(/\s+/g, ' ').trim();
    if (s.length > 300) {
      const mid = Math.max(0, start - a - 140);
      s = `${mid > 0 ? '…' : ''}${s.slice(mid, mid + 298).trim()}…`;
    }
    return s;
  }

  private scan(): number[] {
    const out: number[] = [];
    STARTS_AFTER.lastIndex = 0;
    for (let m = STARTS_AFTER.exec(this.text); m; m = STARTS_AFTER.exec(this.text)) out.push(m.index + 1);
    return out;
  }
}

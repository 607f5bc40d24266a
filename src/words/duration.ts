// Numbers and lengths of time in the words a person reads: "12,000", "45 s", "12 min", "13 h 30 min", "2 d", "checked
// 12 min ago". Each surface picks its rounding and units. Pure: no vscode, no Node, no clock (the length is passed in).

interface DurationOptions {
  /** The smallest unit said: seconds (the default) or minutes (a countdown, an age). */
  smallest?: 's' | 'min';
  /** How the smallest unit is rounded: to the nearest (the default), up (a countdown: never 0 before its end), or down. */
  round?: 'nearest' | 'up' | 'down';
  /** How many seconds or minutes are said before the next unit takes over: 90 (the default: "75 s", "80 min") or 60. */
  upTo?: 60 | 90;
  /**
   * The largest unit: `d` (the default) says whole hours up to 48, then days ("13 h", "2 d"); `h` says
   * hours with their minutes and never days ("13 h 30 min", "24 h").
   */
  largest?: 'h' | 'd';
  /** Days as `2 d` (the default) or `2 days`. */
  days?: 'd' | 'days';
}

const ROUND = { nearest: Math.round, up: Math.ceil, down: Math.floor } as const;

/** The length of `ms` in words (a negative length is 0). */
export function durationWords(ms: number, o: DurationOptions = {}): string {
  const upTo = o.upTo ?? 90;
  const round = o.round ?? 'nearest';
  const unitMs = o.smallest === 'min' ? 60_000 : 1000;
  // A countdown rounds up and never says 0 before its end.
  const n = Math.max(round === 'up' ? 1 : 0, ROUND[round](Math.max(0, ms) / unitMs));
  if (o.smallest !== 'min') {
    if (n < upTo) return `${n} s`;
  }
  const min = o.smallest === 'min' ? n : Math.round(n / 60);
  if (min < upTo) return `${min} min`;
  if (o.largest === 'h') {
    const h = Math.floor(min / 60);
    return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  }
  const h = Math.round(min / 60);
  if (h < 48) return `${h} h`;
  const d = Math.round(h / 24);
  return o.days === 'days' ? `${d} days` : `${d} d`;
}

/** How long ago a watch was checked: `just now`, `12 min ago`, `3 h ago`, `2 days ago`; `never checked` without one. */
export function checkedWords(lastCheck: number | undefined, now: number): string {
  if (lastCheck === undefined) return 'never checked';
  const ago = now - lastCheck;
  return ago < 60_000
    ? 'checked just now'
    : `checked ${durationWords(ago, { smallest: 'min', round: 'down', upTo: 60, days: 'days' })} ago`;
}

// Whole numbers are grouped here, without ICU: a process's first Intl formatter loads ICU's locale data (12 to 17 ms,
// the largest single cost of `devindex mcp`'s first answer). A fraction or an inexact number goes to one formatter.
let enUs: Intl.NumberFormat | undefined;

/** `n` with en-US grouping: 12000 -> "12,000", -1234567 -> "-1,234,567". */
export function grouped(n: number): string {
  if (Number.isSafeInteger(n)) {
    const digits = String(Math.abs(n));
    let out = '';
    for (let end = digits.length; end > 0; end -= 3)
      out = (end > 3 ? ',' : '') + digits.slice(Math.max(0, end - 3), end) + out;
    return n < 0 ? `-${out}` : out;
  }
  enUs ??= new Intl.NumberFormat('en-US');
  return enUs.format(n);
}

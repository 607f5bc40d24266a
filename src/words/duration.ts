// The one duration formatter: how long a wait, a run, a countdown or an age is, in the units a person
// reads ("45 s", "12 min", "13 h 30 min", "2 d"). Each surface picks its rounding and units. Pure; no
// vscode, no Node, no clock (the length is passed in).

export interface DurationOptions {
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

// A long wait in human time: "10:00 tomorrow (in 13 h)". A day-long wait is never said in seconds.
// Pure: `now` and the time zone are passed in (the system's zone by default).
import { durationWords } from './duration';

interface WaitWordsOptions {
  /** IANA zone to say the clock time in; the system's own by default. */
  timeZone?: string;
}

function dayKey(t: number, timeZone: string | undefined): string {
  return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone }).format(t);
}

/**
 * When a wait that ends at `at` (epoch ms) ends, seen from `now`: "17:30 (in 45 min)",
 * "10:00 tomorrow (in 13 h)", "10:00 on Sat 28 Nov (in 3 d)".
 */
export function untilWords(at: number, now: number, o: WaitWordsOptions = {}): string {
  const clock = new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    timeZone: o.timeZone,
  }).format(at);
  const day = dayKey(at, o.timeZone);
  let when = '';
  if (day !== dayKey(now, o.timeZone)) {
    when =
      day === dayKey(now + 86_400_000, o.timeZone)
        ? ' tomorrow'
        : ` on ${new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: o.timeZone }).format(at)}`;
  }
  return `${clock}${when} (in ${durationWords(at - now)})`;
}

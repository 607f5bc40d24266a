// Pure words of a watch shared by the CLI, the editor and the Search view's browser bundle (no semver, no fs).
import { durationWords } from './duration';

/** How long ago a watch was checked: `just now`, `12 min ago`, `3 h ago`, `2 days ago`; `never checked` without one. */
export function checkedWords(lastCheck: number | undefined, now: number): string {
  if (lastCheck === undefined) return 'never checked';
  const ago = now - lastCheck;
  return ago < 60_000
    ? 'checked just now'
    : `checked ${durationWords(ago, { smallest: 'min', round: 'down', upTo: 60, days: 'days' })} ago`;
}

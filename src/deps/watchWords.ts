// Pure words of a watch shared by the CLI, the editor and the Search view's browser bundle (no semver, no fs).

/** How long ago a watch was checked: `just now`, `12 min ago`, `3 h ago`, `2 days ago`; `never checked` without one. */
export function checkedWords(lastCheck: number | undefined, now: number): string {
  if (lastCheck === undefined) return 'never checked';
  const m = Math.floor(Math.max(0, now - lastCheck) / 60_000);
  if (m < 1) return 'checked just now';
  if (m < 60) return `checked ${m} min ago`;
  const h = Math.round(m / 60);
  return `checked ${h < 48 ? `${h} h` : `${Math.round(h / 24)} days`} ago`;
}

// Pure words of the editor's watches: a watch's scope and what a notification says. vscode-free.
import type { SearchParams } from '../api/params';
import type { InstalledDependency } from '../versions/versionCompare';
import { installedChipLabel } from '../words/viewWords';
import type { WatchEvent } from './watcher';

/** The scope of a watch in words: the chip's words per dependency, else the repositories. */
export function watchScopeWords(params: SearchParams, installed: readonly InstalledDependency[]): string {
  return installed.length
    ? installed.map((d) => installedChipLabel(d)).join(', ')
    : (params.repos ?? []).join(', ') || 'no repository scope';
}

export function quoted(q: string): string {
  return `“${q.length > 60 ? `${q.slice(0, 59)}…` : q}”`;
}

/** The notification of a check: what is new, in words. */
export function newsText(e: WatchEvent): string {
  const q = quoted(e.watch.params.query);
  if (e.kind === 'fixIncluded')
    return `Developer Index: your installed version now includes the fix for ${q} (${e.text}). The watch can be removed.`;
  if (e.kind === 'vanished')
    return `Developer Index: ${e.repos.join(', ')} is no longer in the index; the watch for ${q} cannot find anything new there.`;
  const fixes = e.news.filter((n) => n.badge && /newer than/.test(n.badge));
  const first = e.news[0]!;
  const kind = (id: string) =>
    id.startsWith('pull_request:') ? 'pull request' : id.startsWith('issue:') ? 'issue' : 'result';
  const head =
    e.news.length === 1
      ? `a new ${kind(first.id)}: ${first.title.slice(0, 120)}`
      : `${e.news.length} new results, the first: ${first.title.slice(0, 100)}`;
  return `Developer Index: watch ${q} found ${head}${fixes.length ? ` · ${fixes[0]!.badge}` : ''}.`;
}

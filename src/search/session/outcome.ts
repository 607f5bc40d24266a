// The Search view's projection of a search (plain data for the webview protocol): the outcome with kind,
// provenance, license and passage links precomputed, its version badges and summary, and the Markdown
// document Open as Markdown shows. Editor-free.
import type { SearchParams } from '../../api/params';
import { licenseLabel, passageLink, provenance } from '../../api/results';
import type { SearchResponse } from '../../api/schemas';
import type { InstalledDependency } from '../../versions/versionCompare';
import { externalUrl } from '../../webview/linkPolicy';
import type { ViewInstalled, ViewNote, ViewOutcome } from '../../webview/protocol';
import { compareVersions } from './searchRun';

/** The wire response as the webview shows it: kind, provenance, license and passage links precomputed. */
export function toOutcome(params: SearchParams, response: SearchResponse, notes: ViewNote[], ms: number): ViewOutcome {
  const coverage: Record<string, string> = {};
  for (const [k, v] of Object.entries(response.coverage ?? {})) if (typeof v === 'string') coverage[k] = v;
  return {
    params,
    results: response.results.map((r) => {
      const license = licenseLabel(r);
      return {
        id: r.id,
        type: r.type,
        url: r.url,
        ...(r.title && r.title.trim() ? { title: r.title } : {}),
        provenance: provenance(r).text,
        ...(license ? { license } : {}),
        passages: r.passages.map((p) => {
          const link = passageLink(p, r);
          return link !== r.url ? { text: p.text, link } : { text: p.text };
        }),
      };
    }),
    coverage,
    ...(response.reranked !== undefined ? { reranked: response.reranked } : {}),
    ...(response.repos
      ? {
          repos: response.repos.map((e) => ({
            repo: e.repo,
            indexed: e.indexed,
            ...(e.types
              ? { types: { issue: e.types.issue, pullRequest: e.types.pullRequest, readme: e.types.readme } }
              : {}),
          })),
        }
      : {}),
    ...(response.sources ? { sources: response.sources.map((e) => ({ source: e.source, indexed: e.indexed })) } : {}),
    notes: notes.map((n) => ({
      level: n.level,
      text: n.text,
      ...(n.type ? { type: n.type } : {}),
      ...(n.fix ? { fix: { kind: n.fix.kind, label: n.fix.label } } : {}),
    })),
    ms,
  };
}

/** Issue 23: each result's badges against the dependency whose repository it is from, and the summary lines. */
export function withVersions(outcome: ViewOutcome, installed: readonly InstalledDependency[]): ViewOutcome {
  if (!installed.length) return outcome;
  const { badges, summaries } = compareVersions(outcome.results, installed);
  const lines = summaries.filter((x): x is string => !!x);
  return {
    ...outcome,
    results: outcome.results.map((r, i) =>
      badges[i]?.length
        ? {
            ...r,
            versions: badges[i]!.map((b) => ({
              label: b.label,
              sentence: b.sentence,
              highlight: b.highlight,
              verdict: b.verdict,
            })),
          }
        : r,
    ),
    installed: installed.map(viewInstalled),
    ...(lines.length ? { versionSummary: lines } : {}),
  };
}

export function viewInstalled(d: InstalledDependency): ViewInstalled {
  return { ecosystem: d.ecosystem, name: d.name, slug: d.slug, ...(d.version ? { version: d.version } : {}) };
}

/** The Markdown document Open as Markdown shows; the version badges stay, as text with their sentences. */
export function passagesDocument(
  title: string,
  url: string,
  passages: string[],
  versions: ReadonlyArray<{ label: string; sentence: string }> = [],
): string {
  const heading = title.replace(/\s+/g, ' ').trim() || 'Passages';
  const link = externalUrl(url);
  const parts = [`# ${heading}`, ...(link ? [`<${link}>`] : [])];
  if (versions.length)
    parts.push(versions.map((v) => `- **${v.label}** — “${v.sentence.replace(/\s+/g, ' ')}”`).join('\n'));
  passages.forEach((p, i) => parts.push(`## Passage ${i + 1}\n\n${p.trim()}`));
  return parts.join('\n\n') + '\n';
}

// Features side (dist/features.js): the dependency pick of "Search in a Dependency's Repository…", a multi-select of
// the folder's dependencies that shows each one's repository and, once the index's echo answers, what it indexes.
import * as vscode from 'vscode';
import type { InstalledDependency } from '../versions/versionCompare';
import type { Dependency } from './resolver';

const REASON_TEXT: Record<string, string> = {
  'no-repository-field': 'no repository field',
  'not-on-github': 'not on GitHub',
  invalid: 'repository field not understood',
  'not-installed': 'not installed',
};

/** One row of the dependency pick (also what the command returns). */
export interface DependencyRow {
  name: string;
  ecosystem: string;
  slug?: string;
  version?: string;
  reason?: string;
  indexed?: boolean;
  types?: { issue: boolean; pullRequest: boolean; readme: boolean };
}

/** Resolves with the picked rows that have a repository (none when the pick is dismissed). */
export function showDependencyPick(
  rows: DependencyRow[],
  listed: { truncated: boolean; total: number },
  withEcho: (rows: DependencyRow[]) => Promise<DependencyRow[]>,
): Promise<DependencyRow[]> {
  type Item = vscode.QuickPickItem & { row?: DependencyRow };
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = "Developer Index: Search in a Dependency's Repository";
  qp.placeholder = listed.truncated
    ? `The first ${rows.length} of ${listed.total} dependencies (devIndex.dependencies.maxDependencies); pick one or several`
    : 'Pick one or several dependencies';
  qp.canSelectMany = true;
  qp.matchOnDescription = true;
  const render = (rs: DependencyRow[], checking: boolean) => {
    const resolved = rs.filter((r) => r.slug);
    const rest = rs.filter((r) => !r.slug);
    const indexWords = (r: DependencyRow): string =>
      r.indexed === undefined
        ? checking
          ? 'checking the index…'
          : 'index not checked'
        : r.indexed
          ? `indexed: ${indexedTypes(r)}`
          : 'not indexed';
    const items: Item[] = resolved.map((r) => ({
      label: r.version ? `${r.name} ${r.version}` : r.name,
      description: `${r.slug} · ${indexWords(r)}`,
      iconPath: new vscode.ThemeIcon(r.indexed ? 'database' : r.indexed === false ? 'circle-slash' : 'repo'),
      row: r,
    }));
    if (rest.length) {
      items.push({ label: 'Without a GitHub repository', kind: vscode.QuickPickItemKind.Separator });
      // Listed for the reason; picking one does nothing.
      items.push(
        ...rest.map((r) => ({ label: r.name, description: r.reason, iconPath: new vscode.ThemeIcon('warning') })),
      );
    }
    const picked = new Set(qp.selectedItems.map((i) => i.row?.slug).filter(Boolean));
    qp.items = items;
    qp.selectedItems = items.filter((i) => i.row?.slug && picked.has(i.row.slug));
  };
  render(rows, true);
  qp.busy = true;
  void withEcho(rows).then((rs) => {
    qp.busy = false;
    render(rs, false);
  });
  qp.show();
  return new Promise((resolve) => {
    let done = false;
    qp.onDidAccept(() => {
      done = true;
      const picked = qp.selectedItems.filter((i) => i.row?.slug).map((i) => i.row!);
      const without = qp.selectedItems.filter((i) => !i.row?.slug);
      if (!picked.length && without.length) {
        void vscode.window.showInformationMessage(
          `Developer Index: ${without.map((i) => `${i.label} (${i.description ?? 'no repository'})`).join(', ')} ` +
            `has no GitHub repository to search in.`,
        );
      }
      resolve(picked);
      qp.hide();
    });
    qp.onDidHide(() => {
      if (!done) resolve([]);
      qp.dispose();
    });
  });
}

function indexedTypes(r: DependencyRow): string {
  const t = r.types;
  if (!t) return 'yes';
  const names = [t.issue && 'issues', t.pullRequest && 'pull requests', t.readme && 'README'].filter(Boolean);
  return names.length ? names.join(', ') : 'no result types';
}

/** What a dependency-scoped search carries to the view (its chip and badges). */
export function installedOf(deps: ReadonlyArray<Dependency | DependencyRow>): InstalledDependency[] {
  return deps
    .filter((d) => d.slug)
    .map((d) => ({
      ecosystem: d.ecosystem as InstalledDependency['ecosystem'],
      name: d.name,
      slug: d.slug!,
      ...(d.version ? { version: d.version } : {}),
    }));
}

/** A resolved dependency as a row of the pick: its repository, or why it has none. */
export function pickRow(d: Dependency): DependencyRow {
  return {
    name: d.name,
    ecosystem: d.ecosystem,
    ...(d.version ? { version: d.version } : {}),
    ...(d.slug
      ? { slug: d.slug }
      : {
          reason:
            d.reason === 'no-repository-field' && d.detail
              ? d.detail
              : `${REASON_TEXT[d.reason ?? 'invalid']}${d.detail ? `: ${d.detail}` : ''}`,
        }),
  };
}

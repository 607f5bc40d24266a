// The fixes report as a model reads it (devIndex_fixes, `devindex mcp`'s tool and `@devindex /fixes`): where it comes
// from first, then per dependency the fixes its installed version lacks with their URLs, then what was not checked
// and why; bounded, with what was left out said. No vscode import.
import type { CheckedDependency, FixesOutcome } from '../fixes/report';
import { clean } from './modelText';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const line = (s: string) => clean(s).replace(/\s+/g, ' ').trim();

function dependencyBlock(d: CheckedDependency): string[] {
  const head =
    `${line(d.name)} ${line(d.installed)} installed (${d.ecosystem}, ` +
    `github.com/${d.repository}, ${d.manifest.file}:${d.manifest.line})`;
  const out = [head];
  for (const f of d.fixes)
    out.push(
      `- fixed in ${line(f.fixedIn)}: ${line(f.title || f.id)} [${f.kind === 'pull_request' ? 'PR' : 'issue'}] ${f.url}`,
    );
  for (const a of d.affecting)
    out.push(
      `- affects ${line(a.affects)}, no fix stated: ${line(a.title || a.id)} [${a.kind === 'pull_request' ? 'PR' : 'issue'}] ${a.url}`,
    );
  return out;
}

/** `folder`: what was checked, as the caller named it. */
export function fixesText(outcome: FixesOutcome, folder: string, maxChars: number): string {
  const { report, stop } = outcome;
  const lacking = report.dependencies.filter((d) => d.fixes.length || d.affecting.length);
  const clear = report.dependencies.filter((d) => !d.fixes.length && !d.affecting.length);
  const head = [
    `Fixes check of ${folder}: ${plural(report.dependencies.length, 'dependency', 'dependencies')} checked, ` +
      `${plural(report.searches, 'search', 'searches')} of the developer index sent, ` +
      `${outcome.fromCache} from a day's cache.`,
    "Each line below is a GitHub issue or pull request of the dependency's own repository " +
      'that states the version with the fix (or the versions a bug affects), ' +
      'compared with the installed version; cite its URL.',
    lacking.length
      ? `${plural(lacking.filter((d) => d.fixes.length).length, 'dependency', 'dependencies')} lack fixes:`
      : 'No dependency lacks a fix the index states.',
  ].join('\n');
  const tail: string[] = [];
  if (clear.length)
    tail.push(`No fix lacking: ${clear.map((d) => `${line(d.name)} ${line(d.installed)}`).join(', ')}.`);
  if (report.skipped.length)
    tail.push(
      `Skipped (nothing to search): ${report.skipped.map((s) => `${line(s.name)} (${line(s.reason)})`).join(', ')}.`,
    );
  if (report.unchecked.length) {
    const why = stop ? line(stop.message) : 'not answered';
    const next =
      stop?.reason === 'rate-limited'
        ? stop.keyless
          ? ` Tell the user: without an API key the keyless quota is used up; ` +
            `set a key (Developer Index: Set API Key, or DEVINDEX_API_KEY for devindex ` +
            `mcp)${stop.signupUrl ? `, one can be created at ${stop.signupUrl}` : ''}, ` +
            `then check again.`
          : ' Check again later; answers so far are cached.'
        : ' Check again to cover them.';
    tail.push(`Not checked (${why}): ${report.unchecked.map((s) => line(s.name)).join(', ')}.${next}`);
  }
  let text = head;
  let shown = 0;
  const tailText = tail.length ? `\n\n${tail.join('\n')}` : '';
  for (const d of lacking) {
    const block = `\n\n${dependencyBlock(d).join('\n')}`;
    if (text.length + block.length + tailText.length + 200 > maxChars) break;
    text += block;
    shown++;
  }
  if (shown < lacking.length) {
    const rest = lacking.slice(shown).map((d) => line(d.name));
    text +=
      `\n\n${plural(rest.length, 'more dependency', 'more dependencies')} with fixes not shown ` +
      `(size limit): ${rest.join(', ')}. Call again with dependencies set to some of them.`;
  }
  return (text + tailText).slice(0, maxChars);
}

// Pure, no parser: version strings, go.mod `replace` directives and a Python METADATA's version. Split from
// lockfiles.ts so that the resolver (in dist/core.js) reads these without bundling the lockfile parsers.

/** A version string as a lockfile or manifest wrote it, or undefined when it is not one (links, paths, garbage). */
export function plainVersion(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  return /^v?\d+(?:\.[0-9A-Za-z-]+)*(?:[-+][0-9A-Za-z.+-]*)?$/.test(s) && s.length <= 100 ? s : undefined;
}

/** go.mod `replace` directives: module path (optionally at a version) -> the replacement (a module at a version, or a local path). */
export function parseGoReplaces(
  text: string,
): Array<{ from: string; fromVersion?: string; to: string; toVersion?: string }> {
  const out: Array<{ from: string; fromVersion?: string; to: string; toVersion?: string }> = [];
  let inBlock = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (!line) continue;
    if (inBlock && line === ')') {
      inBlock = false;
      continue;
    }
    if (/^replace\s*\($/.test(line)) {
      inBlock = true;
      continue;
    }
    const body = inBlock ? line : /^replace\s+(.*)$/.exec(line)?.[1];
    if (!body) continue;
    const m = /^(\S+)(?:\s+(\S+))?\s*=>\s*(\S+)(?:\s+(\S+))?$/.exec(body);
    if (m)
      out.push({
        from: m[1]!.replace(/^"|"$/g, ''),
        ...(m[2] ? { fromVersion: m[2] } : {}),
        to: m[3]!.replace(/^"|"$/g, ''),
        ...(m[4] ? { toVersion: m[4] } : {}),
      });
  }
  return out;
}

/** A Python distribution's `Version:` header of its METADATA. */
export function pythonMetadataVersion(text: string): string | undefined {
  const end = text.search(/\r?\n\r?\n/);
  const m = /^Version:[ \t]*(\S+)[ \t]*$/im.exec(end >= 0 ? text.slice(0, end) : text);
  return m ? (plainVersion(m[1]) ?? undefined) : undefined;
}

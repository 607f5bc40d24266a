// Pure: a lockfile's text -> the installed version of each wanted top-level dependency, as the file states it (else
// left out). Each reader looks only for the wanted names, so a 30 MB lockfile is scanned, not parsed whole. Its parsers
// are only in dist/lockfiles.js (the editor's lockfile worker) and the CLI bundles, never in dist/core.js.
import { parseSyml } from '@yarnpkg/parsers';
import type * as SmolToml from 'smol-toml' with { 'resolution-mode': 'import' };
// smol-toml ships ES modules only; the bundle (esbuild) turns this require into the bundled module.
const { parse: parseToml } = require('smol-toml') as typeof SmolToml;
import { parse as parseYaml } from 'yaml';
import { plainVersion } from './versionText';
// The light readers (no parser) live in versionText.ts, which the resolver loads in every bundle.
export { parseGoReplaces, plainVersion, pythonMetadataVersion } from './versionText';

export type Versions = Map<string, string>;

/** The JSON object that starts at `text[start]` (`{`), cut by brace matching that skips strings. */
function objectAt(text: string, start: number): Record<string, unknown> | undefined {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length && i - start < 1_000_000; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123) depth++;
    else if (c === 125 && --depth === 0) {
      try {
        const v = JSON.parse(text.slice(start, i + 1)) as unknown;
        return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The value object of `"key": {` at the top level of a lockfile section; the first occurrence after `from`. */
function entryFor(text: string, key: string, from = 0): Record<string, unknown> | undefined {
  const needle = `${JSON.stringify(key)}:`;
  let at = text.indexOf(needle, from);
  while (at >= 0) {
    const brace = text.slice(at + needle.length, at + needle.length + 8).search(/\S/);
    const pos = at + needle.length + brace;
    if (brace >= 0 && text[pos] === '{') return objectAt(text, pos);
    at = text.indexOf(needle, at + needle.length);
  }
  return undefined;
}

/** The index just past the JSON value that starts at `i` (strings, objects, arrays, scalars). */
function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') {
    for (let j = i + 1; j < text.length; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === '"') return j + 1;
    }
    return text.length;
  }
  if (c === '{' || c === '[') {
    let depth = 0;
    let inString = false;
    for (let j = i; j < text.length; j++) {
      const d = text[j];
      if (inString) {
        if (d === '\\') j++;
        else if (d === '"') inString = false;
        continue;
      }
      if (d === '"') inString = true;
      else if (d === '{' || d === '[') depth++;
      else if ((d === '}' || d === ']') && --depth === 0) return j + 1;
    }
    return text.length;
  }
  const m = /^[^,}\]\s]*/.exec(text.slice(i, i + 64));
  return i + (m?.[0].length ?? 1);
}

/** The members of the object at `start` (`{`), one level deep: key and where its value starts and ends. */
function* members(text: string, start: number): Generator<{ key: string; from: number; to: number }> {
  let i = start + 1;
  for (;;) {
    while (i < text.length && /[\s,]/.test(text[i]!)) i++;
    if (i >= text.length || text[i] !== '"') return;
    const keyEnd = skipValue(text, i);
    let key: string;
    try {
      key = JSON.parse(text.slice(i, keyEnd)) as string;
    } catch {
      return;
    }
    i = keyEnd;
    while (i < text.length && /[\s:]/.test(text[i]!)) i++;
    const to = skipValue(text, i);
    yield { key, from: i, to };
    i = to;
  }
}

/**
 * package-lock.json / npm-shrinkwrap.json, lockfileVersion 1 to 3: v2/v3 `packages["node_modules/<name>"].version`
 * (that key is unique: a nested copy's key is longer), else v1's top-level `dependencies["<name>"].version` (walked
 * one level deep, so a nested copy of the same name never answers). A lockfile of an unknown future version or a
 * half-written one gives what it can (possibly nothing).
 */
export function npmLockVersions(text: string, names: readonly string[]): Versions {
  const out: Versions = new Map();
  const head = /"lockfileVersion"\s*:\s*(\d+)/.exec(text.slice(0, 4096));
  const lockVersion = head ? Number(head[1]) : 1;
  const packagesAt = text.indexOf('"packages"');
  if (lockVersion >= 2 && packagesAt >= 0) {
    for (const name of names) {
      const e = entryFor(text, `node_modules/${name}`, packagesAt);
      const v = e && e.link !== true ? plainVersion(e.version) : undefined;
      if (v) out.set(name, v);
    }
    return out;
  }
  const rootStart = text.indexOf('{');
  if (rootStart < 0) return out;
  const wanted = new Set(names);
  for (const m of members(text, rootStart)) {
    if (m.key !== 'dependencies' || text[m.from] !== '{') continue;
    for (const d of members(text, m.from)) {
      if (!wanted.has(d.key)) continue;
      let e: unknown;
      try {
        e = JSON.parse(text.slice(d.from, d.to));
      } catch {
        continue;
      }
      const v = e && typeof e === 'object' ? plainVersion((e as { version?: unknown }).version) : undefined;
      if (v) out.set(d.key, v);
    }
  }
  return out;
}

/** The package name of a yarn.lock descriptor: `@scope/name@npm:^1`, `name@^1`, `"name@patch:..."`. */
function descriptorName(d: string): string {
  const s = d.trim().replace(/^"|"$/g, '');
  const at = s.indexOf('@', s.startsWith('@') ? 1 : 0);
  return at > 0 ? s.slice(0, at) : s;
}

/**
 * yarn.lock, classic (v1) and berry (`__metadata`): the `version` of the block whose descriptors name the
 * package. Only the blocks of wanted names are parsed. Several blocks (two ranges resolved apart): the one whose
 * descriptor carries the manifest's range, when given; else, if they disagree, unknown.
 */
export function yarnLockVersions(
  text: string,
  names: readonly string[],
  ranges: ReadonlyMap<string, string> = new Map(),
): Versions {
  const out: Versions = new Map();
  const wanted = new Set(names);
  // @yarnpkg/parsers reads the classic format only under its header line.
  const classic = /^# yarn lockfile v1\s*$/m.test(text.slice(0, 1024)) ? '# yarn lockfile v1\n\n' : '';
  const found = new Map<string, Array<{ descriptors: string[]; version?: string }>>();
  for (const block of text.split(/\r?\n(?=\S)/)) {
    const header = block.split(/\r?\n/, 1)[0]!;
    if (!header.endsWith(':') || header.startsWith('#') || header.startsWith('__metadata')) continue;
    const descriptors = header
      .slice(0, -1)
      .split(/,\s*/)
      .map((d) => d.trim().replace(/^"|"$/g, ''));
    const name = descriptorName(descriptors[0] ?? '');
    if (!wanted.has(name)) continue;
    let version: string | undefined;
    try {
      const parsed = parseSyml(classic + block) as Record<string, { version?: unknown } | undefined>;
      const entry = Object.values(parsed)[0];
      version = plainVersion(entry?.version);
    } catch {
      /* a half-written block: no version */
    }
    (found.get(name) ?? found.set(name, []).get(name)!).push({ descriptors, ...(version ? { version } : {}) });
  }
  for (const [name, blocks] of found) {
    const range = ranges.get(name);
    const byRange = range
      ? blocks.find((b) => b.descriptors.some((d) => d === `${name}@${range}` || d === `${name}@npm:${range}`))
      : undefined;
    const versions = [...new Set(blocks.map((b) => b.version).filter((v): v is string => !!v))];
    const v = byRange?.version ?? (versions.length === 1 ? versions[0] : undefined);
    if (v) out.set(name, v);
  }
  return out;
}

/** pnpm's `version` value: `2.0.3`, `2.0.3(react@18.2.0)` (v6+ peers), `2.0.3_react@18.2.0` (v5); `link:` is not a version. */
function pnpmVersion(v: unknown): string | undefined {
  const s = typeof v === 'object' && v !== null ? (v as { version?: unknown }).version : v;
  if (typeof s !== 'string') return undefined;
  return plainVersion(s.replace(/\(.*$/, '').replace(/_.*$/, ''));
}

/**
 * pnpm-lock.yaml (lockfile 5.x, 6.x, 9.x): the root importer's `dependencies` / `devDependencies` /
 * `optionalDependencies` (`importers['.']` from 6 on, the top level before). Only the part before
 * `packages:` is parsed.
 */
export function pnpmLockVersions(text: string, names: readonly string[]): Versions {
  const out: Versions = new Map();
  const cut = text.search(/^(?:packages|snapshots):/m);
  let doc: Record<string, unknown>;
  try {
    const v = parseYaml(cut > 0 ? text.slice(0, cut) : text) as unknown;
    if (!v || typeof v !== 'object') return out;
    doc = v as Record<string, unknown>;
  } catch {
    return out;
  }
  const importers = doc.importers as Record<string, Record<string, unknown>> | undefined;
  const root = importers?.['.'] ?? doc;
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
    const deps = root[field];
    if (!deps || typeof deps !== 'object') continue;
    for (const name of names) {
      if (out.has(name)) continue;
      const v = pnpmVersion((deps as Record<string, unknown>)[name]);
      if (v) out.set(name, v);
    }
  }
  return out;
}

/**
 * Cargo.lock (versions 1 to 4): a crate's version when the lockfile holds it once; when it holds several,
 * the one the root package depends on (`"name version"` in its dependencies); else unknown.
 */
export function cargoLockVersions(text: string, crates: readonly string[], rootPackage?: string): Versions {
  const out: Versions = new Map();
  let doc: { package?: Array<{ name?: unknown; version?: unknown; source?: unknown; dependencies?: unknown }> };
  try {
    doc = parseToml(text) as typeof doc;
  } catch {
    return out;
  }
  const pkgs = Array.isArray(doc.package) ? doc.package : [];
  const root =
    rootPackage !== undefined ? pkgs.find((p) => p.name === rootPackage && p.source === undefined) : undefined;
  const rootDeps = Array.isArray(root?.dependencies)
    ? (root.dependencies as unknown[]).filter((d): d is string => typeof d === 'string')
    : [];
  for (const crate of crates) {
    const versions = [
      ...new Set(
        pkgs
          .filter((p) => p.name === crate && p !== root)
          .map((p) => plainVersion(p.version))
          .filter((v): v is string => !!v),
      ),
    ];
    if (versions.length === 1) out.set(crate, versions[0]!);
    else if (versions.length > 1) {
      const named = rootDeps.find((d) => d.startsWith(`${crate} `))?.split(' ')[1];
      if (named && versions.includes(named)) out.set(crate, named);
    }
  }
  return out;
}

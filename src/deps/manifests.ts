// Pure: the manifest files' names, and reading the manifests of Go, Rust and Python (text in, names and slugs out).
// No vscode, no fs.
import { slugFromUrl, toSlug, type SlugResult, type UnresolvedReason } from './repositoryField';
import { parseGoReplaces, plainVersion } from './versionText';

/** The files that say what a folder depends on, for watchers and root finding (the browser build reads them too). */
export const MANIFEST_GLOB =
  '{package.json,package-lock.json,npm-shrinkwrap.json,yarn.lock,pnpm-lock.yaml,go.mod,go.sum,' +
  'Cargo.toml,Cargo.lock,pyproject.toml,requirements.txt,poetry.lock,uv.lock,Pipfile.lock}';
export const MANIFEST_NAMES = [
  'package.json',
  'go.mod',
  'Cargo.toml',
  'pyproject.toml',
  'requirements.txt',
  'setup.py',
  '.venv',
  'venv',
];

// ---------------------------------------------------------------- Go

/** The `require` entries of a go.mod (block and single-line forms; `// indirect` kept as a flag). */
export function parseGoMod(text: string): Array<{ path: string; version: string; indirect: boolean }> {
  const out: Array<{ path: string; version: string; indirect: boolean }> = [];
  let inBlock = false;
  for (const rawLine of text.split(/\r?\n/)) {
    const indirect = /\/\/\s*indirect\b/.test(rawLine);
    const line = rawLine.replace(/\/\/.*$/, '').trim();
    if (!line) continue;
    if (inBlock) {
      if (line === ')') {
        inBlock = false;
        continue;
      }
      const m = /^(\S+)\s+(\S+)/.exec(line);
      if (m) out.push({ path: unquote(m[1]!), version: m[2]!, indirect });
      continue;
    }
    if (/^require\s*\($/.test(line)) {
      inBlock = true;
      continue;
    }
    const one = /^require\s+(\S+)\s+(\S+)/.exec(line);
    if (one) out.push({ path: unquote(one[1]!), version: one[2]!, indirect });
  }
  return out;
}

function unquote(s: string): string {
  return s.replace(/^"(.*)"$/, '$1');
}

/**
 * A Go module path to its repository: `github.com/owner/repo[/vN][/sub]`; also the two well-known vanity
 * hosts whose repositories are on GitHub by a fixed rule (`golang.org/x/<name>` is `golang/<name>`,
 * `gopkg.in/<owner>/<name>.vN` is `<owner>/<name>`, `gopkg.in/<name>.vN` is `go-<name>/<name>`).
 * Other hosts would need a network lookup (`?go-get=1`), which this never does.
 */
export function slugFromGoModule(path: string): SlugResult {
  const parts = path.split('/');
  const host = parts[0]!.toLowerCase();
  if (host === 'github.com') {
    const slug = toSlug(parts[1], parts[2]);
    return slug ? { ok: true, slug } : { ok: false, reason: 'invalid', detail: `${path} is not github.com/owner/repo` };
  }
  if (host === 'golang.org' && parts[1] === 'x' && parts[2]) {
    const slug = toSlug('golang', parts[2]);
    if (slug) return { ok: true, slug };
  }
  if (host === 'gopkg.in') {
    const strip = (s: string | undefined) => s?.replace(/\.v\d+$/, '');
    const slug =
      parts.length >= 3 && /\.v\d+$/.test(parts[2]!)
        ? toSlug(parts[1], strip(parts[2]))
        : toSlug(`go-${strip(parts[1])}`, strip(parts[1]));
    if (slug) return { ok: true, slug };
  }
  return { ok: false, reason: 'not-on-github', detail: `module path on ${host}` };
}

// ---------------------------------------------------------------- Rust

/** The dependency names of a Cargo.toml (`[dependencies]`, dev-, build-, target-specific), with `package = ` renames. */
export function parseCargoToml(text: string): Array<{ name: string; crate: string; version?: string }> {
  const out: Array<{ name: string; crate: string; version?: string }> = [];
  let section = '';
  let tableDep: { name: string; crate: string; version?: string } | undefined;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/\s+#.*$/, '').trim();
    if (!line || line.startsWith('#')) continue;
    const head = /^\[([^\]]+)\]$/.exec(line);
    if (head) {
      section = head[1]!.trim();
      tableDep = undefined;
      // [dependencies.serde] style
      const sub = /^(?:target\.[^\]]+?\.)?(?:dev-|build-)?dependencies\.("?)([A-Za-z0-9_-]+)\1$/.exec(section);
      if (sub) {
        tableDep = { name: sub[2]!, crate: sub[2]! };
        out.push(tableDep);
      }
      continue;
    }
    if (tableDep) {
      const kv = /^(\w+)\s*=\s*"([^"]*)"/.exec(line);
      if (kv?.[1] === 'package') tableDep.crate = kv[2]!;
      if (kv?.[1] === 'version') tableDep.version = kv[2]!;
      continue;
    }
    if (!/^(?:target\..+\.)?(?:dev-|build-)?dependencies$/.test(section)) continue;
    const m = /^("?)([A-Za-z0-9_-]+)\1(?:\.workspace)?\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    const value = m[3]!;
    const pkg = /\bpackage\s*=\s*"([^"]+)"/.exec(value)?.[1];
    const version = /^"([^"]*)"/.exec(value)?.[1] ?? /\bversion\s*=\s*"([^"]+)"/.exec(value)?.[1];
    out.push({ name: m[2]!, crate: pkg ?? m[2]!, ...(version ? { version } : {}) });
  }
  return out;
}

/** `[package]` fields of a crate's own Cargo.toml: `repository`, then `homepage`. */
export function slugFromCrateToml(text: string): SlugResult {
  let section = '';
  const fields: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    const head = /^\[([^\]]+)\]$/.exec(line);
    if (head) {
      section = head[1]!.trim();
      continue;
    }
    if (section !== 'package') continue;
    const kv = /^(repository|homepage)\s*=\s*["']([^"']*)["']/.exec(line);
    if (kv) fields[kv[1]!] = kv[2]!;
  }
  return firstSlug([fields.repository, fields.homepage], 'no repository field in Cargo.toml');
}

// ---------------------------------------------------------------- Python

/** A wheel's METADATA (RFC 822 headers): the name and the repository from `Project-URL` (Source first) or `Home-page`. */
export function parsePythonMetadata(text: string): { name?: string; result: SlugResult } {
  const headerEnd = text.search(/\r?\n\r?\n/);
  const headers = (headerEnd >= 0 ? text.slice(0, headerEnd) : text).split(/\r?\n/);
  let name: string | undefined;
  const projectUrls: Array<{ label: string; url: string }> = [];
  let home: string | undefined;
  for (const h of headers) {
    const m = /^([A-Za-z-]+):\s*(.*)$/.exec(h);
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    if (key === 'name') name = m[2]!.trim();
    else if (key === 'home-page') home = m[2]!.trim();
    else if (key === 'project-url') {
      const [label, ...rest] = m[2]!.split(',');
      if (rest.length) projectUrls.push({ label: label!.trim().toLowerCase(), url: rest.join(',').trim() });
    }
  }
  const rank = (l: string) =>
    /^(source|source code|repository|code|github)$/.test(l)
      ? 0
      : /issue|bug|tracker/.test(l)
        ? 1
        : /home/.test(l)
          ? 2
          : 3;
  const urls = projectUrls.sort((a, b) => rank(a.label) - rank(b.label)).map((p) => p.url);
  return { ...(name ? { name } : {}), result: firstSlug([...urls, home], 'no Project-URL or Home-page in METADATA') };
}

/** The first value that names a GitHub repository; else the first real reason; else `no-repository-field`. */
function firstSlug(values: Array<string | undefined>, none: string): SlugResult {
  let reason: SlugResult | undefined;
  for (const v of values) {
    if (!v || !v.trim() || v.trim().toUpperCase() === 'UNKNOWN') continue;
    const r = slugFromUrl(v);
    if (r.ok) return r;
    reason ??= r;
  }
  return reason ?? { ok: false, reason: 'no-repository-field', detail: none };
}

/** PEP 503 normalised distribution name (what `pip` compares). */
export function normalizePythonName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/**
 * The import names a wheel's RECORD installs (for wheels without top_level.txt): the top-level package folders
 * and modules (`pkg/__init__.py` -> `pkg`, `mod.py` -> `mod`, `_speedups.cpython-312-x86_64-linux-gnu.so` ->
 * `_speedups`), without metadata, scripts, data and caches.
 */
export function importsFromRecord(text: string): string[] {
  const out = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    // Installers on Windows may write `\` (`pkg\__init__.py`, `..\..\Scripts\x.exe`): read as `/`.
    const path = (line.startsWith('"') ? /^"((?:[^"]|"")*)"/.exec(line)?.[1]?.replace(/""/g, '"') : line.split(',')[0])
      ?.trim()
      .replace(/\\/g, '/');
    if (!path || path.startsWith('..') || path.startsWith('/') || /^[A-Za-z]:/.test(path)) continue;
    const parts = path.split('/');
    const first = parts[0]!;
    if (
      /\.(?:dist-info|data|egg-info)$/.test(first) ||
      first === '__pycache__' ||
      first === 'bin' ||
      first === 'Scripts'
    )
      continue;
    if (parts.length > 1) {
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(first)) out.add(first);
      continue;
    }
    const mod = /^([A-Za-z_][A-Za-z0-9_]*)(?:\.[\w-]+)?\.(?:py|pyd|so)$/.exec(first);
    if (mod) out.add(mod[1]!);
  }
  return [...out];
}

/** A go.mod requirement as a dependency: its repository (or why none), and the version go.mod (or its `replace`) builds. */
type GoModDependency = { ecosystem: 'go'; name: string; version?: string; versionFrom?: string } & (
  { slug: string; from: 'go.mod' } | { reason: UnresolvedReason; detail: string }
);

/** A go.mod's requirements, direct ones first, at most `budget`; read from the text alone (the resolver and the browser share it). */
export function goModDependencies(text: string, budget: number): { deps: GoModDependency[]; total: number } {
  const reqs = parseGoMod(text).sort((a, b) => Number(a.indirect) - Number(b.indirect));
  const replaces = parseGoReplaces(text);
  const deps = reqs.slice(0, budget).map((r): GoModDependency => {
    const s = slugFromGoModule(r.path);
    // `replace` wins: a module replacement's version is what builds; a local directory's version is unknown.
    const rep = replaces.find((x) => x.from === r.path && (!x.fromVersion || x.fromVersion === r.version));
    const version = rep ? (rep.toVersion ? plainVersion(rep.toVersion) : undefined) : plainVersion(r.version);
    const v = version ? { version, versionFrom: rep ? 'go.mod replace' : 'go.mod' } : {};
    return s.ok
      ? { ecosystem: 'go', name: r.path, slug: s.slug, from: 'go.mod', ...v }
      : { ecosystem: 'go', name: r.path, reason: s.reason, detail: s.detail, ...v };
  });
  return { deps, total: reqs.length };
}

/** A package.json's declared dependencies (dependencies, dev, peer, optional; the first field naming one wins): name -> range. */
export function npmDeclared(pkg: Record<string, unknown>): Map<string, string> {
  const specs = new Map<string, string>();
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
    const d = pkg[field];
    if (d && typeof d === 'object')
      for (const [n, v] of Object.entries(d as Record<string, unknown>))
        if (!specs.has(n)) specs.set(n, typeof v === 'string' ? v : '');
  }
  return specs;
}

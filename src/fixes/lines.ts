// Pure, line scans only (no parser, so a 30 MB lockfile costs one pass): the 1-based line that declares a
// dependency in its manifest, and every package a lockfile holds with its version and line (`--all`).
// A name a scan cannot place gets line 1 of the file: the location is then the file itself.

export interface LockEntry {
  name: string;
  version: string;
  line: number;
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function lineOf(lines: readonly string[], test: (l: string, i: number) => boolean, from = 0): number | undefined {
  for (let i = from; i < lines.length; i++) if (test(lines[i]!, i)) return i + 1;
  return undefined;
}

/** package.json: each dependency's `"name":` key inside a dependencies field (dependencies, dev, peer, optional). */
export function packageJsonLines(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const keep = (name: string, i: number) => {
    if (!out.has(name)) out.set(name, i + 1);
  };
  const lines = text.split(/\r?\n/);
  let inDeps = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/"(?:dev|peer|optional)?[dD]ependencies"\s*:\s*\{/.test(l)) {
      inDeps = true;
      for (const m of l.slice(l.indexOf('{')).matchAll(/"([^"]+)"\s*:/g)) keep(m[1]!, i);
      continue;
    }
    if (inDeps && /^\s*\}/.test(l)) inDeps = false;
    else if (inDeps) {
      const key = /^\s*"([^"]+)"\s*:/.exec(l);
      if (key) keep(key[1]!, i);
    }
  }
  return out;
}

/** go.mod: the `require` line of a module path (block or single-line form). */
export function goModLine(text: string, path: string): number {
  const lines = text.split(/\r?\n/);
  const re = new RegExp(`^\\s*(?:require\\s+)?"?${escapeRe(path)}"?\\s+v`);
  return lineOf(lines, (l) => re.test(l)) ?? 1;
}

/** Cargo.toml: `name = …` in a dependencies table, `[dependencies.name]`, or an entry renamed to the crate. */
export function cargoTomlLine(text: string, name: string): number {
  const lines = text.split(/\r?\n/);
  const n = escapeRe(name);
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.trim();
    const head = /^\[([^\]]+)\]$/.exec(l);
    if (head) {
      section = head[1]!.trim();
      if (new RegExp(`dependencies\\."?${n}"?$`).test(section)) return i + 1;
      continue;
    }
    if (/(?:^|\.)(?:dev-|build-)?dependencies$/.test(section) && new RegExp(`^"?${n}"?(?:\\.workspace)?\\s*=`).test(l))
      return i + 1;
  }
  return 1;
}

/** A Python requirement line (`name`, `name==1.0`, `name[extra]>=1`, quoted in pyproject.toml) by its normalised name. */
export function pythonRequirementLine(text: string, normalized: string): number | undefined {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.replace(/#.*$/, '');
    for (const m of l.matchAll(
      /(?:^|["'\s,[])([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?:[=<>!~;@]|["',\]]|$)/g,
    )) {
      if (m[1]!.toLowerCase().replace(/[-_.]+/g, '-') === normalized) return i + 1;
    }
  }
  return undefined;
}

/** The distribution names a requirements file or pyproject.toml lists (normalised), for which dependencies are direct. */
export function pythonRequirementNames(file: string, text: string): Set<string> {
  const out = new Set<string>();
  const norm = (s: string) => s.toLowerCase().replace(/[-_.]+/g, '-');
  if (file.endsWith('.txt')) {
    for (const raw of text.split(/\r?\n/)) {
      const l = raw.replace(/#.*$/, '').trim();
      if (!l || l.startsWith('-')) continue;
      const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(l);
      if (m) out.add(norm(m[1]!));
    }
    return out;
  }
  // pyproject.toml: quoted requirement strings (PEP 621, dependency groups) and Poetry's dependency tables.
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const l = raw.replace(/\s#.*$/, '').trim();
    const head = /^\[([^\]]+)\]$/.exec(l);
    if (head) {
      section = head[1]!.trim();
      continue;
    }
    if (/^tool\.poetry\.(?:dev-|group\.[^.]+\.)?dependencies$/.test(section)) {
      const m = /^"?([A-Za-z0-9][A-Za-z0-9._-]*)"?\s*=/.exec(l);
      if (m && m[1]!.toLowerCase() !== 'python') out.add(norm(m[1]!));
      continue;
    }
    if (section === 'project' || section === 'project.optional-dependencies' || section === 'dependency-groups') {
      for (const q of l.matchAll(/["']([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?:[=<>!~;@ ]|["'])/g))
        out.add(norm(q[1]!));
    }
  }
  return out;
}

/** package-lock.json / npm-shrinkwrap.json v2/v3: every `node_modules/…` entry; of several copies, the top-level one. */
export function npmLockEntries(text: string): LockEntry[] {
  const top = new Map<string, LockEntry>();
  const nested = new Map<string, LockEntry>();
  const lines = text.split(/\r?\n/);
  let current: { name: string; line: number; depth: number; nested: boolean } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const head = /^(\s*)"((?:[^"\\]|\\.)*node_modules\/(?:@[^/"]+\/)?[^/"]+)"\s*:\s*\{/.exec(l);
    if (head) {
      const path = head[2]!;
      const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
      current = { name, line: i + 1, depth: head[1]!.length, nested: path !== `node_modules/${name}` };
      continue;
    }
    if (!current) continue;
    const v = /^\s*"version"\s*:\s*"([^"]+)"/.exec(l);
    if (v) {
      const into = current.nested ? nested : top;
      if (!into.has(current.name)) into.set(current.name, { name: current.name, version: v[1]!, line: current.line });
      current = undefined;
    } else if (new RegExp(`^\\s{${current.depth}}\\}`).test(l)) current = undefined;
  }
  for (const [name, e] of nested) if (!top.has(name)) top.set(name, e);
  return [...top.values()];
}

/** yarn.lock, classic and berry: each block's first descriptor's name and its `version`. */
export function yarnLockEntries(text: string): LockEntry[] {
  const out: LockEntry[] = [];
  const lines = text.split(/\r?\n/);
  let current: { name: string; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^\S.*:$/.test(l) && !l.startsWith('#') && !l.startsWith('__metadata')) {
      const first = l.slice(0, -1).split(/,\s*/)[0]!.trim().replace(/^"|"$/g, '');
      const at = first.indexOf('@', first.startsWith('@') ? 1 : 0);
      current =
        at > 0 && !/@(?:workspace|link|portal|file):/.test(first)
          ? { name: first.slice(0, at), line: i + 1 }
          : undefined;
      continue;
    }
    const v = current && /^\s+version:?\s+"?([^"\s]+)"?\s*$/.exec(l);
    if (current && v) {
      out.push({ name: current.name, version: v[1]!, line: current.line });
      current = undefined;
    }
  }
  return out;
}

/** pnpm-lock.yaml, lockfile 5 to 9: the keys under `packages:` (`/name/1.0.0`, `/name@1.0.0`, `name@1.0.0(peer@1)`). */
export function pnpmLockEntries(text: string): LockEntry[] {
  const out: LockEntry[] = [];
  const lines = text.split(/\r?\n/);
  let inPackages = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^\S/.test(l)) {
      inPackages = /^packages:\s*$/.test(l);
      continue;
    }
    if (!inPackages) continue;
    const key = /^ {2}['"]?\/?((?:@[^/@'"]+\/)?[^/@'"(]+)[@/]([0-9][^:'"(_]*)/.exec(l);
    if (key) out.push({ name: key[1]!, version: key[2]!, line: i + 1 });
  }
  return out;
}

/** Cargo.lock: every `[[package]]` from a registry (path and git packages have no release to compare). */
export function cargoLockEntries(text: string): Array<LockEntry & { registry: boolean }> {
  const out: Array<LockEntry & { registry: boolean }> = [];
  const lines = text.split(/\r?\n/);
  let cur: { line: number; name?: string; version?: string; registry: boolean } | undefined;
  const flush = () => {
    if (cur?.name && cur.version)
      out.push({ name: cur.name, version: cur.version, line: cur.line, registry: cur.registry });
  };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.trim();
    if (l === '[[package]]') {
      flush();
      cur = { line: i + 1, registry: false };
      continue;
    }
    if (!cur) continue;
    const kv = /^(name|version|source)\s*=\s*"([^"]*)"/.exec(l);
    if (kv?.[1] === 'name') {
      cur.name = kv[2]!;
      cur.line = i + 1;
    } else if (kv?.[1] === 'version') cur.version = kv[2]!;
    else if (kv?.[1] === 'source') cur.registry = kv[2]!.startsWith('registry+') || kv[2]!.startsWith('sparse+');
  }
  flush();
  return out;
}

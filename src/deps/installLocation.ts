// Where an installed package lives, from a stack frame's path: the install location, its manifest, its dependency.
import { promises as fsp } from 'node:fs';
import { join, posix, win32 } from 'node:path';
import { plainVersion, pythonMetadataVersion } from './versionText';
import { normalizePythonName, parsePythonMetadata, slugFromCrateToml, slugFromGoModule } from './manifests';
import type { PackageRef } from './packageRefs';
import { slugFromPackageJson } from './repositoryField';
import { findInstalled, importNames, readJson, readText, type Dependency } from './resolver';

/** A path module: `node:path` for this platform, or `path.win32` / `path.posix` named (tests run Windows paths on Linux). */
type PathApi = typeof posix | typeof win32;
const PLATFORM_PATH: PathApi = process.platform === 'win32' ? win32 : posix;

/** What to read for the install a frame's path points into: a package's own manifest, or the site-packages folder it sits in. */
type InstallLocation =
  | { ecosystem: 'npm'; manifest: string }
  | { ecosystem: 'cargo'; manifest: string }
  | { ecosystem: 'pypi'; sitePackages: string };

/**
 * Where the install a frame's path points into keeps what names its repository, in `pathApi`'s form: the
 * package's `node_modules/<name>/package.json`, the crate's `registry/src/<index>/<crate>-<version>/Cargo.toml`,
 * the `site-packages` (or `dist-packages`) folder. `\`, `/`, a mix of both, drive letters and UNC shares
 * are read alike. Go needs nothing read (the module path names the repository): undefined, as for no install.
 */
export function installLocationOfPath(
  framePath: string,
  ref: PackageRef,
  pathApi: PathApi = PLATFORM_PATH,
): InstallLocation | undefined {
  const p = framePath.replace(/\\/g, '/');
  if (ref.ecosystem === 'npm') {
    const at = p.lastIndexOf(`/node_modules/${ref.name}/`);
    return at < 0
      ? undefined
      : {
          ecosystem: 'npm',
          manifest: pathApi.join(p.slice(0, at) || '/', 'node_modules', ...ref.name.split('/'), 'package.json'),
        };
  }
  if (ref.ecosystem === 'cargo') {
    const m = /^(.*\/registry\/src\/[^/]+\/[A-Za-z0-9_-]+?-\d+\.\d+\.\d+[^/]*)\//.exec(p);
    return m ? { ecosystem: 'cargo', manifest: pathApi.join(m[1]!, 'Cargo.toml') } : undefined;
  }
  if (ref.ecosystem === 'pypi') {
    const site = /^(.*\/(?:site|dist)-packages)\//.exec(p)?.[1];
    return site ? { ecosystem: 'pypi', sitePackages: pathApi.normalize(site) } : undefined;
  }
  return undefined;
}

/** A crate's own version: its Cargo.toml's `[package] version` (a registry crate's manifest is normalised: a literal). */
function crateTomlVersion(toml: string): string | undefined {
  return plainVersion(/^\[package\][^[]*?^version\s*=\s*"([^"]+)"/m.exec(toml)?.[1]);
}

/**
 * A Go module's version from its folder in the module cache (`.../pkg/mod/<module>@v1.2.3/...`, any GOMODCACHE):
 * the cache holds one folder per version.
 */
function goModuleCacheVersion(framePath: string, module: string): string | undefined {
  const p = framePath.replace(/\\/g, '/');
  // The cache writes upper-case letters as `!` + lower case.
  const escaped = module.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
  const at = p.indexOf(`/${escaped}@`);
  if (at < 0) return undefined;
  return plainVersion(/^@(v[^/]+)\//.exec(p.slice(at + escaped.length + 1))?.[1]);
}

/**
 * The installed package a frame's path points into, read from that very install (its package.json, the
 * crate's Cargo.toml, the distribution's METADATA, a Go module's folder in the module cache), so a trace from
 * any folder scopes to the right repository, with the version that install states (absent when it states none).
 */
export async function dependencyAtPath(path: string, ref: PackageRef): Promise<Dependency | undefined> {
  if (ref.ecosystem === 'go') {
    const s = slugFromGoModule(ref.name);
    const version = goModuleCacheVersion(path, ref.name);
    return s.ok
      ? {
          ecosystem: 'go',
          name: ref.name,
          slug: s.slug,
          from: 'module path',
          ...(version ? { version, versionFrom: 'module cache' } : {}),
        }
      : undefined;
  }
  const at = installLocationOfPath(path, ref);
  if (at?.ecosystem === 'npm') {
    const pkg = await readJson(at.manifest);
    const r = pkg ? slugFromPackageJson(pkg) : undefined;
    const version = plainVersion(pkg?.version);
    return r?.ok
      ? {
          ecosystem: 'npm',
          name: ref.name,
          slug: r.slug,
          from: r.field,
          ...(version ? { version, versionFrom: 'node_modules' } : {}),
        }
      : undefined;
  }
  if (at?.ecosystem === 'cargo') {
    const toml = await readText(at.manifest);
    const r = toml !== undefined ? slugFromCrateToml(toml) : undefined;
    const version = toml !== undefined ? crateTomlVersion(toml) : undefined;
    return r?.ok
      ? {
          ecosystem: 'cargo',
          name: ref.name,
          slug: r.slug,
          from: 'Cargo.toml repository',
          ...(version ? { version, versionFrom: 'Cargo.toml' } : {}),
        }
      : undefined;
  }
  if (at?.ecosystem !== 'pypi') return undefined;
  const site = at.sitePackages;
  let infos: string[] = [];
  try {
    infos = (await fsp.readdir(site)).filter((e) => e.endsWith('.dist-info'));
  } catch {
    return undefined;
  }
  const want = normalizePythonName(ref.name);
  for (const info of infos) {
    const top = await importNames(join(site, info));
    if (normalizePythonName(info.replace(/-[^-]+\.dist-info$/, '')) !== want && !top.includes(ref.name)) continue;
    const meta = await readText(join(site, info, 'METADATA'));
    const r = meta !== undefined ? parsePythonMetadata(meta) : undefined;
    const version = meta !== undefined ? pythonMetadataVersion(meta) : undefined;
    if (r?.result.ok)
      return {
        ecosystem: 'pypi',
        name: r.name ?? ref.name,
        slug: r.result.slug,
        from: 'METADATA',
        ...(version ? { version, versionFrom: 'METADATA' } : {}),
      };
  }
  return undefined;
}

/**
 * An npm package as Node would find it from `fromDir` (its node_modules, then the parents'), read from its
 * own package.json (its version too, when it states one): for a file whose folder's manifest does not list the
 * package (a monorepo's workspace package, a transitive import).
 */
export async function installedNpmDependency(fromDir: string, name: string): Promise<Dependency | undefined> {
  const pkg = await findInstalled(fromDir, name);
  const r = pkg ? slugFromPackageJson(pkg) : undefined;
  const version = plainVersion(pkg?.version);
  return r?.ok
    ? {
        ecosystem: 'npm',
        name,
        slug: r.slug,
        from: r.field,
        ...(version ? { version, versionFrom: 'node_modules' } : {}),
      }
    : undefined;
}

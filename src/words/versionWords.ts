// Pure words shared by the extension and the Search view's browser bundle (no semver, no fs): the chip of a
// dependency-scoped search.

/** The chip's words: `acme/widgets · 2.0.3 installed`, or `acme/widgets · version unknown`. */
export function installedChipLabel(dep: { slug: string; version?: string }): string {
  return `${dep.slug} · ${dep.version ? `${dep.version} installed` : 'version unknown'}`;
}

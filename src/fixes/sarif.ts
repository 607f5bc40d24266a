// Pure: the fixes report as a SARIF 2.1.0 log (GitHub code scanning and other SARIF viewers): one result per
// fix a dependency lacks (`devindex/fix-available`) and per issue that affects it unfixed (`devindex/known-issue`),
// each at the manifest line that declares the dependency. Checked by Microsoft's validator (test/unit/fixes).
import { createHash } from 'node:crypto';
import { VERSION } from '../api/version';
import type { CheckedDependency, FixesReport } from './report';

const FIX_AVAILABLE = 'devindex/fix-available';
const KNOWN_ISSUE = 'devindex/known-issue';

const RULES = [
  {
    id: FIX_AVAILABLE,
    name: 'FixAvailable',
    shortDescription: { text: 'A newer version of a dependency fixes a known bug.' },
    fullDescription: {
      text:
        "An issue or pull request in the dependency's own repository states that a bug was fixed " +
        'in a version newer than the one installed here.',
    },
    help: {
      text: 'Read the linked issue; if the bug can reach you, upgrade the dependency to the fixed-in version or later.',
      markdown:
        'Read the linked issue or pull request. If the bug can reach you, ' +
        'upgrade the dependency to the **fixed-in** version or later. Found by `devindex fixes`.',
    },
    defaultConfiguration: { level: 'warning' as const },
    properties: { tags: ['dependencies', 'maintainability'] },
  },
  {
    id: KNOWN_ISSUE,
    name: 'KnownIssue',
    shortDescription: { text: 'A known bug affects the installed version and has no fix yet.' },
    fullDescription: {
      text:
        "An issue or pull request in the dependency's own repository states that the installed " +
        'version is affected, and states no fixed version.',
    },
    help: {
      text: 'Read the linked issue for a workaround; watch it for a fix.',
      markdown: 'Read the linked issue for a workaround, and watch it for a fix (`devindex watch add`).',
    },
    defaultConfiguration: { level: 'note' as const },
    properties: { tags: ['dependencies', 'reliability'] },
  },
];

const fingerprint = (...parts: string[]): string =>
  createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);

/** Ends a message with a period, as SARIF's own rule SARIF2001 asks. */
const sentence = (s: string): string => (/[.!?]$/.test(s) ? s : `${s}.`);

function location(d: CheckedDependency) {
  return [
    {
      physicalLocation: {
        artifactLocation: { uri: d.manifest.file, uriBaseId: '%SRCROOT%' },
        region: { startLine: d.manifest.line },
      },
    },
  ];
}

/** `%SRCROOT%` as a file URI ending in `/`. */
function folderUri(folder: string): string {
  const p = folder.replace(/\\/g, '/');
  const abs = /^[A-Za-z]:\//.test(p) ? `/${p}` : p;
  return `file://${encodeURI(abs.endsWith('/') ? abs : `${abs}/`)}`;
}

/** The report as a SARIF log; `folder` is the workspace folder the manifest paths are relative to. */
export function fixesSarif(report: FixesReport, folder: string): Record<string, unknown> {
  const results: unknown[] = [];
  for (const d of report.dependencies) {
    for (const f of d.fixes)
      results.push({
        ruleId: FIX_AVAILABLE,
        ruleIndex: 0,
        level: 'warning',
        message: {
          text: sentence(
            `${d.name} ${d.installed} lacks a fix: "${f.title}" ` +
              `(${f.kind === 'pull_request' ? 'pull request' : 'issue'} ${f.url}) ` +
              `is fixed in ${f.fixedIn}`,
          ),
        },
        locations: location(d),
        relatedLocations: [
          { id: 1, physicalLocation: { artifactLocation: { uri: f.url } }, message: { text: f.title } },
        ],
        partialFingerprints: { 'devindexFix/v1': fingerprint(d.ecosystem, d.name, f.id, f.fixedIn) },
        properties: { dependency: d.name, ecosystem: d.ecosystem, installed: d.installed, fixedIn: f.fixedIn },
      });
    for (const a of d.affecting)
      results.push({
        ruleId: KNOWN_ISSUE,
        ruleIndex: 1,
        level: 'note',
        message: {
          text: sentence(
            `${d.name} ${d.installed} is affected by "${a.title}" ` +
              `(${a.kind === 'pull_request' ? 'pull request' : 'issue'} ${a.url}; affects ${a.affects}), not fixed yet`,
          ),
        },
        locations: location(d),
        relatedLocations: [
          { id: 1, physicalLocation: { artifactLocation: { uri: a.url } }, message: { text: a.title } },
        ],
        partialFingerprints: { 'devindexKnownIssue/v1': fingerprint(d.ecosystem, d.name, a.id) },
        properties: { dependency: d.name, ecosystem: d.ecosystem, installed: d.installed, affects: a.affects },
      });
  }
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'devindex',
            fullName: 'devindex fixes',
            version: VERSION,
            semanticVersion: VERSION,
            rules: RULES,
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: folderUri(folder) } },
        results,
      },
    ],
  };
}

// The folder the version badges' CLI and MCP tests run in: installed versions older and newer than the corpus's fixes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A folder with fetchline 3.2.0 (older than the corpus's fix) and keel-schema 2.6.0 (newer than its fix) installed. */
export function writeVersionsFixture(dir: string): void {
  const files: Record<string, string> = {
    'package.json': JSON.stringify({
      name: 'versions-fixture',
      private: true,
      dependencies: { fetchline: '^3.2.0', 'keel-schema': '^2.6.0', 'gitlab-only': '^1.0.0', 'only-locked': '^1.0.0' },
    }),
    'node_modules/fetchline/package.json': JSON.stringify({
      name: 'fetchline',
      version: '3.2.0',
      repository: { type: 'git', url: 'git+https://github.com/fetchline/fetchline.git' },
    }),
    'node_modules/keel-schema/package.json': JSON.stringify({
      name: 'keel-schema',
      version: '2.6.0',
      repository: 'github:keelhq/keel-schema',
    }),
    'node_modules/gitlab-only/package.json': JSON.stringify({
      name: 'gitlab-only',
      version: '1.0.0',
      repository: 'gitlab:acme/gitlab-only',
    }),
    'package-lock.json': JSON.stringify(
      {
        name: 'versions-fixture',
        lockfileVersion: 3,
        packages: { '': {}, 'node_modules/only-locked': { version: '1.4.0' } },
      },
      null,
      2,
    ),
  };
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), t);
  }
}

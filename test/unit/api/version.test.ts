import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { it } from 'node:test';
import { USER_AGENT, VERSION } from '../../../src/api/version';

function packageJson(): { name: string; version: string } {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const p = join(dir, 'package.json');
    if (existsSync(p)) {
      const pkg = JSON.parse(readFileSync(p, 'utf8')) as { name: string; version: string };
      if (pkg.name === 'devindex') return pkg;
    }
    if (dirname(dir) === dir) throw new Error('package.json of devindex not found');
  }
}

it('VERSION equals package.json version, and the user agent names it', () => {
  assert.equal(VERSION, packageJson().version);
  assert.equal(USER_AGENT, `devindex/${packageJson().version}`);
});

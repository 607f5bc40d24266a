// The walkthrough: the first-run rule (opened once, only when allowed, remembered only after
// it opened) and its contribution in package.json (six steps, each with a button that runs a command
// that exists, a completion event, and a themed SVG that exists).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findRepoRoot } from '../../../sandbox/serverParts';
import {
  openWalkthroughOnce,
  SHOWN_KEY,
  WALKTHROUGH_ID,
  walkthroughRef,
  type FlagStore,
} from '../../../src/walkthrough/firstRun';

function memento(initial: Record<string, unknown> = {}): FlagStore & { data: Record<string, unknown> } {
  const data = { ...initial };
  return {
    data,
    get: (k) => data[k],
    update: async (k, v) => {
      data[k] = v;
    },
  };
}

describe('walkthrough: first run', () => {
  it('opens <publisher>.<name>#<id> on a first install, then never again', async () => {
    const state = memento();
    const opened: string[] = [];
    const deps = {
      state,
      enabled: () => true,
      extensionId: 'devindex.devindex',
      open: async (r: string) => {
        opened.push(r);
      },
    };
    assert.equal(await openWalkthroughOnce(deps), 'opened');
    assert.deepEqual(opened, ['devindex.devindex#devIndex.gettingStarted']);
    assert.equal(state.data[SHOWN_KEY], true);
    assert.equal(await openWalkthroughOnce(deps), 'already-shown');
    assert.equal(await openWalkthroughOnce(deps), 'already-shown');
    assert.equal(opened.length, 1);
  });

  it('the setting turned off: nothing opens and nothing is remembered (turned on again before the first open, it opens once)', async () => {
    const state = memento();
    const opened: string[] = [];
    let on = false;
    const deps = {
      state,
      enabled: () => on,
      extensionId: 'p.n',
      open: async (r: string) => {
        opened.push(r);
      },
    };
    assert.equal(await openWalkthroughOnce(deps), 'disabled');
    assert.deepEqual(opened, []);
    assert.equal(state.data[SHOWN_KEY], undefined);
    on = true;
    assert.equal(await openWalkthroughOnce(deps), 'opened');
    assert.equal(opened.length, 1);
  });

  it('a workbench that could not open it: not remembered, so the next start tries again', async () => {
    const state = memento();
    let fail = true;
    const deps = {
      state,
      enabled: () => true,
      extensionId: 'p.n',
      open: async () => {
        if (fail) throw new Error('no such walkthrough');
      },
    };
    assert.equal(await openWalkthroughOnce(deps), 'failed');
    assert.equal(state.data[SHOWN_KEY], undefined);
    fail = false;
    assert.equal(await openWalkthroughOnce(deps), 'opened');
  });

  it('walkthroughRef names the contributed walkthrough', () => {
    assert.equal(walkthroughRef('a.b'), `a.b#${WALKTHROUGH_ID}`);
  });
});

interface Step {
  id: string;
  title: string;
  description: string;
  media: { svg?: string; image?: unknown; markdown?: string; altText?: string };
  completionEvents?: string[];
}
const root = findRepoRoot(__dirname)!;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  publisher: string;
  name: string;
  contributes: {
    walkthroughs: Array<{ id: string; title: string; steps: Step[] }>;
    commands: Array<{ command: string }>;
    configuration: { properties: Record<string, { default: unknown }> };
  };
};

describe('walkthrough: contribution', () => {
  const w = pkg.contributes.walkthroughs.find((x) => x.id === WALKTHROUGH_ID);

  it('is contributed under the id the first-run rule opens, with its six steps in order', () => {
    assert.ok(w, `no walkthrough ${WALKTHROUGH_ID}`);
    assert.deepEqual(
      w.steps.map((s) => s.id),
      ['key', 'selection', 'repository', 'problem', 'agent', 'agents'],
    );
  });

  it('the repository step says where the repository comes from on both builds: git remotes on the desktop, the browsed repository in vscode.dev and github.dev', () => {
    const d = w!.steps.find((s) => s.id === 'repository')!.description;
    assert.match(d, /desktop VS Code[^.]*git remotes/);
    assert.match(d, /vscode\.dev and github\.dev[^.]*repository you are browsing/);
    assert.doesNotMatch(d, /\(its git remotes\)/, 'not the desktop-only wording');
  });

  it('every step has a button that runs a command that exists, and a completion event on a real command or setting', () => {
    const ours = new Set(pkg.contributes.commands.map((c) => c.command));
    for (const s of w!.steps) {
      const buttons = [...s.description.matchAll(/^\[[^\]]+\]\(command:([\w.]+)(\?[^)]*)?\)$/gm)].map((m) => m[1]!);
      assert.ok(buttons.length > 0, `${s.id}: no button (a command link on a line of its own)`);
      for (const b of buttons)
        assert.ok(ours.has(b), `${s.id}: the button runs ${b}, which the extension does not contribute`);
      assert.ok(s.completionEvents?.length, `${s.id}: no completion event`);
      for (const e of s.completionEvents!) {
        const [kind, arg] = e.split(':') as [string, string];
        if (kind === 'onCommand') assert.ok(ours.has(arg), `${s.id}: completes on ${arg}, which is not contributed`);
        else if (kind === 'onSettingChanged')
          assert.ok(arg in pkg.contributes.configuration.properties, `${s.id}: completes on an unknown setting ${arg}`);
        else
          assert.ok(
            ['onContext', 'onView', 'onLink', 'onEvent', 'extensionInstalled'].includes(kind),
            `${s.id}: unknown completion event ${e}`,
          );
      }
    }
  });

  it("every step's media is a small SVG under media/walkthrough/ with alt text, coloured only by theme variables", () => {
    for (const s of w!.steps) {
      assert.match(s.media.svg ?? '', /^media\/walkthrough\/[\w-]+\.svg$/, s.id);
      assert.ok((s.media.altText ?? '').length > 10, `${s.id}: alt text`);
      const file = join(root, s.media.svg!);
      assert.ok(existsSync(file), `${s.id}: ${s.media.svg} is missing`);
      const svg = readFileSync(file, 'utf8');
      assert.ok(svg.length < 4096, `${s.id}: ${svg.length} bytes`);
      // A fixed colour would be right in one theme only: every fill and stroke is a theme variable (or none).
      const fixed = [...svg.matchAll(/(fill|stroke)="(?!none|var\(--vscode-)([^"]*)"/g)].map(
        (m) => `${m[1]}="${m[2]}"`,
      );
      assert.deepEqual(fixed, [], `${s.id}: fixed colours`);
    }
  });

  it('the setting that turns the first-run opening off is declared, on by default', () => {
    assert.equal(pkg.contributes.configuration.properties['devIndex.walkthrough.openOnFirstRun']?.default, true);
  });
});

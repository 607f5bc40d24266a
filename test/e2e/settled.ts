// Conditions a screenshot waits for (no fixed settle waits): an element that has stopped moving,
// no hover tooltip over the workbench, and every webview wearing the workbench's theme. Each is read with the
// shared poll (test/support/until.ts).
import type { Frame, Locator, Page } from 'playwright-core';
import { until } from '../support/until';

/** Waits until `target`'s box reads the same twice in a row (a toast sliding in, a pane animating to its height). */
export async function stableBox(target: Locator, what: string, timeoutMs = 10_000): Promise<void> {
  let last = '';
  await until(
    async () => JSON.stringify(await target.boundingBox()),
    (box) => {
      const same = box === last && box !== 'null';
      last = box;
      return same;
    },
    { timeoutMs, stepMs: 100, message: (box) => `${what} still moving after ${timeoutMs} ms (last box ${box})` },
  );
}

/** Waits until no hover tooltip of the workbench is shown (after the mouse moved off what showed it). */
export async function noHover(page: Page, timeoutMs = 10_000): Promise<void> {
  await page.waitForFunction(
    () =>
      ![...document.querySelectorAll('.monaco-hover, .workbench-hover, .custom-hover')].some(
        (el) => (el as HTMLElement).offsetParent !== null && !el.classList.contains('hidden'),
      ),
    undefined,
    { timeout: timeoutMs },
  );
}

const WEBVIEW_CLASS = { light: 'vscode-light', dark: 'vscode-dark', hc: 'vscode-high-contrast' } as const;

async function bodyClass(f: Frame): Promise<string> {
  return f.evaluate(() => document.body?.className ?? '').catch(() => '');
}

/**
 * Waits until every webview document on the page wears `kind` (VS Code sets the body class of a webview's
 * document a moment after the workbench itself has switched); documents that are not webviews are left alone.
 */
export async function webviewsWear(page: Page, kind: keyof typeof WEBVIEW_CLASS, timeoutMs = 10_000): Promise<void> {
  const want = WEBVIEW_CLASS[kind];
  const others = Object.values(WEBVIEW_CLASS).filter((c) => c !== want);
  await until(
    async () => Promise.all(page.frames().map(bodyClass)),
    (classes) =>
      classes.every((c) => {
        const words = c.split(/\s+/);
        return !others.some((o) => words.includes(o)) || words.includes(want);
      }),
    {
      timeoutMs,
      stepMs: 100,
      message: (classes) => `the webviews do not all wear ${want}: ${JSON.stringify(classes)}`,
    },
  );
}

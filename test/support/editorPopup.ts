// The editor's popups as the e2e suites ask for them: the Quick Fix menu (Ctrl+.) and the hover (Ctrl+K Ctrl+I).
// One helper asks until the popup shows what the test needs, waiting on conditions only: the popup shown after a
// request, the target in it, and (for menus) no menu open before asking again.
import type { Locator, Page } from 'playwright-core';
import { until } from './until';

export interface PopupRequest {
  /** What the test needs to see in the popup (a menu row, a hover with its text). */
  target: Locator;
  /** Asks for the popup (the cursor is where the test put it). */
  open: () => Promise<void>;
  /**
   * The popups of this kind that are open, for a menu: a request while a menu is open accepts its selected item
   * (VS Code's acceptSelectedCodeAction), so before asking again every menu is closed (Escape) and must stay closed
   * for `quietMs` (one still being computed may show late). Without it (a hover) the request is simply repeated.
   */
  openPopups?: Locator;
  /** How long one request may take to show a popup. */
  shownWithinMs: number;
  /** How long to keep asking. */
  timeoutMs: number;
  /** What is asked for, for the failure's message. */
  what: string;
  /** The workbench's state (menus, focus, cursor), recorded at each try for the failure's message. */
  state?: () => Promise<string>;
  quietMs?: number;
}

/** Asks for the popup until `target` is visible in it; throws with what each try found after `timeoutMs`. */
export async function showPopupWith(page: Page, r: PopupRequest): Promise<void> {
  const tries: string[] = [];
  const quietMs = r.quietMs ?? 1500;
  try {
    await until(
      async () => {
        if (r.state) tries.push(await r.state());
        if (await r.target.first().isVisible()) return true;
        if (r.openPopups) {
          const menus = r.openPopups;
          await page.keyboard.press('Escape');
          let quietSince = 0;
          const closed = await until(
            async () => {
              if (await r.target.first().isVisible()) return 'ours';
              if ((await menus.count()) > 0) {
                quietSince = 0;
                await page.keyboard.press('Escape');
                return undefined;
              }
              if (!quietSince) quietSince = Date.now();
              return Date.now() - quietSince >= quietMs ? 'closed' : undefined;
            },
            (v) => v !== undefined,
            { timeoutMs: 10_000, stepMs: 250, message: () => 'the menus did not stay closed' },
          ).catch(() => undefined);
          if (closed === 'ours') return true;
          if (!closed) return false;
        }
        await r.open();
        await (r.openPopups ?? r.target)
          .first()
          .waitFor({ state: 'visible', timeout: r.shownWithinMs })
          .catch(() => undefined);
        return r.target.first().isVisible();
      },
      Boolean,
      { timeoutMs: r.timeoutMs, stepMs: 250, message: () => `timed out waiting for ${r.what}` },
    );
  } catch (e) {
    const now = r.state ? `; now: ${await r.state().catch(() => '?')}` : '';
    throw new Error(
      `${(e as Error).message}${tries.length ? `; each try found: ${tries.slice(-8).join(' | ')}` : ''}${now}`,
    );
  }
}

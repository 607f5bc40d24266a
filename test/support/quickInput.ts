// The workbench's quick input (input boxes and pick lists) as the e2e suites drive it: each helper waits for
// what it acts on to be shown, acts, and waits for it to go, never for a fixed time.
import type { Locator, Page } from 'playwright-core';
import { until } from './until';

const STEP_MS = 15_000;

/** Answers one input box step: waits for its prompt (message), types `text`, presses Enter, waits for the step to end. */
export async function answerInputStep(page: Page, prompt: RegExp, text: string): Promise<void> {
  const widget = page.locator('.quick-input-widget');
  const message = widget.locator('.quick-input-message').filter({ hasText: prompt }).first();
  await message.waitFor({ state: 'visible', timeout: STEP_MS });
  await widget.locator('input.input').fill(text);
  await page.keyboard.press('Enter');
  await message.waitFor({ state: 'hidden', timeout: STEP_MS });
}

/**
 * Accepts a pick step found by an item it lists: the pre-selected item, or (with `filter`) the first item left
 * after typing `filter`. Waits for the list to be shown and for it to go.
 */
export async function acceptPick(page: Page, item: RegExp, filter?: string): Promise<void> {
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: item }).first();
  await row.waitFor({ state: 'visible', timeout: STEP_MS });
  if (filter) await page.locator('.quick-input-widget input.input').fill(filter);
  await page.keyboard.press('Enter');
  await row.waitFor({ state: 'hidden', timeout: STEP_MS });
}

/** Reads a tree row's accessible label until it matches (the tree redraws a row in place when its item changes). */
export function rowLabel(l: Locator, match: RegExp, timeoutMs: number, stepMs = 200): Promise<string> {
  return until(async () => (await l.getAttribute('aria-label')) ?? '', (s) => match.test(s), {
    timeoutMs, stepMs, onError: () => '',
    message: (last) => `the row's label never matched ${match} within ${timeoutMs} ms; last: "${last ?? ''}"`,
  });
}

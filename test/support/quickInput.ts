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
  return until(
    async () => (await l.getAttribute('aria-label')) ?? '',
    (s) => match.test(s),
    {
      timeoutMs,
      stepMs,
      onError: () => '',
      message: (last) => `the row's label never matched ${match} within ${timeoutMs} ms; last: "${last ?? ''}"`,
    },
  );
}

/** Step 6 of the start flow, what the run gives back: its row, and the text typed to filter to it (if any). */
export interface ModePick {
  item: RegExp;
  filter?: string;
}
/** The service's default mode (data, JSON), the step's default row. */
export const DATA_MODE: ModePick = { item: /Collect data \(JSON\)/ };
/** A chat run (an answer in words), filtered to. */
export const CHAT_MODE: ModePick = { item: /Ask \(an answer in words\)/, filter: 'Ask' };

/**
 * Answers Start Agent Job…'s steps once its first step is open: the prompt, no start pages, the credit ceiling (''
 * for the default), spark-1-mini, the service's default effort, the mode, and no paid tool calls.
 */
export async function answerStartFlow(
  page: Page,
  a: { prompt: string; credits: string; mode: ModePick },
): Promise<void> {
  await answerInputStep(page, /What should the agent do/, a.prompt);
  await answerInputStep(page, /Pages to start from/, '');
  await answerInputStep(page, /Credit ceiling/, a.credits);
  await acceptPick(page, /spark-1-mini/);
  await acceptPick(page, /service default/);
  await acceptPick(page, a.mode.item, a.mode.filter);
  await acceptPick(page, /No paid tool calls/);
}

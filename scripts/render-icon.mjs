#!/usr/bin/env node
// `node scripts/render-icon.mjs`: draws the marketplace icon (media/icon.png, 128×128 PNG) from the
// activity bar's line drawing (media/devindex.svg) with the Debian chromium the browser tiers use, so
// the two never drift apart. The drawing's strokes (`currentColor`) go white on a rounded square of
// the gallery banner's colour (package.json `galleryBanner.color`). Run it again after changing either.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM } from './vscode/provision.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const background = pkg.galleryBanner?.color ?? '#1f3a5f';
const svg = readFileSync(join(root, 'media', 'devindex.svg'), 'utf8')
  .replace(/\swidth="\d+"/, ' width="96"')
  .replace(/\sheight="\d+"/, ' height="96"');
const out = join(root, pkg.icon ?? 'media/icon.png');

const html = `<!doctype html><html><body style="margin:0;background:transparent">
<div id="icon" style="width:128px;height:128px;border-radius:24px;background:${background};color:#ffffff;
display:flex;align-items:center;justify-content:center">${svg}</div></body></html>`;

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(html);
  await page.locator('#icon').screenshot({ path: out, omitBackground: true });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
}

// A real Chromium for the console's tests: the system's package (/usr/bin/chromium, or
// CHROMIUM_PATH), driven by playwright-core, with a fresh profile per launch and nothing that
// reaches outside loopback on its own.
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { after } from './test.ts';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The system's Chromium on a fresh profile (playwright passes a new --user-data-dir, and
 * --headless, to every launch), closed after the file. Launch it before starting the service:
 * `after` hooks run in order, so the page's open event streams end before the service stops.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
  after(() => browser.close());
  return browser;
}

/** A signed-out visitor: a context of its own, with its own cookies. */
export async function newVisitor(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext();
  // A step that fails should fail its test soon, not after playwright's 30 s.
  context.setDefaultTimeout(10_000);
  return context;
}

/** `requests`: every request the page or its frames started; `answered`: those that got a response; `refused`: those the browser stopped, with why. */
export type PageLog = { errors: string[]; requests: string[]; answered: string[]; refused: Array<{ url: string; error: string }> };

/** A new page whose console errors, uncaught exceptions and requests are recorded. */
export async function openPage(context: BrowserContext): Promise<{ page: Page; log: PageLog }> {
  const page = await context.newPage();
  const log: PageLog = { errors: [], requests: [], answered: [], refused: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') log.errors.push(m.text());
  });
  page.on('pageerror', (e) => log.errors.push(e.message));
  page.on('request', (r) => log.requests.push(r.url()));
  // Chromium's console says only "404"; the address says which.
  page.on('requestfailed', (r) => log.refused.push({ url: r.url(), error: r.failure()?.errorText ?? '' }));
  page.on('response', (r) => {
    log.answered.push(r.url());
    if (r.status() >= 400) log.errors.push(`${r.status()} ${new URL(r.url()).pathname}`);
  });
  return { page, log };
}

const require = createRequire(import.meta.url);
let axeSource: string | null = null;

/** axe-core run inside the page; the violations of impact serious or critical. */
export async function seriousA11yViolations(page: Page): Promise<Array<{ id: string; impact: string; nodes: string[] }>> {
  axeSource ??= await fs.readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated by the debugger protocol, not as a page script, so the page's CSP stays as it is.
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n: any) => n.target.join(' ')) }));
  });
  return result.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical');
}

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { CHROMIUM_BASE_ARGS } from '../../src/upstream/challenge/chromium.js';
import { listenOnLoopback, startTestStack, type TestStack } from '../helpers/testApp.js';

// Debian's Chromium (never a downloaded browser), launched with the same base flags as the solver.
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Screenshots are for people to look at; test-output/ is git-ignored. */
const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'test-output', 'screenshots');

/**
 * Pictures are taken when a person asks for them (`SCREENSHOTS=1 npm run test:browser`): no assertion
 * reads them, and a whole page of the landing or status page costs Chromium more than loading it.
 */
const SCREENSHOTS_WANTED = process.env.SCREENSHOTS === '1';

export const WIDTHS = [1280, 360] as const;

export interface BrowserStack {
  stack: TestStack;
  browser: Browser;
  baseUrl: string;
  /**
   * The file's context for pages with JavaScript and no permissions, one page of it kept open: a new
   * page then starts in the context's renderer process rather than in a new one.
   */
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * The solver's flags, with one renderer process for all the pages: every page a test opens comes from
 * the one loopback app, so a process per site or per context would isolate nothing here, and each new
 * one costs its start.
 */
const TEST_ARGS = [...CHROMIUM_BASE_ARGS, '--disable-site-isolation-trials', '--renderer-process-limit=1'];

let launched: Promise<Browser> | undefined;

/**
 * One Chromium for every browser file of a worker (its files share one module graph): a launch and its
 * close cost more than a second of CPU. Playwright ends the browser when the worker's process ends.
 */
export function sharedBrowser(): Promise<Browser> {
  launched ??= chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: TEST_ARGS }).then((browser) => {
    browser.on('disconnected', () => (launched = undefined));
    return browser;
  });
  launched.catch(() => (launched = undefined));
  return launched;
}

/** The real app listening on loopback (so a browser can reach it), and the worker's Chromium. */
export async function startBrowserStack(env: Record<string, string> = {}): Promise<BrowserStack> {
  const stack = await startTestStack({ env: { REPORT_RATE_LIMIT_MAX: '10000', ...env } });
  const server = await listenOnLoopback(stack.app);
  const browser = await sharedBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.newPage();
  return {
    stack,
    browser,
    baseUrl: server.baseUrl,
    context,
    async close() {
      // The browser stays for the worker's next file; what this file left open does not.
      await Promise.all(browser.contexts().map((context) => context.close()));
      await server.close();
      await stack.close();
    },
  };
}

interface PageOptions {
  javaScriptEnabled?: boolean;
  width?: number;
  permissions?: string[];
}

/**
 * A blank page, for a test that listens before the first load; `close` ends it. A page of its own in
 * the file's context (no cookie or storage of the app's to share; each test loads what it reads), with
 * the permissions asked granted to the app until `close` takes them back (a context of its own would
 * cost Chromium a renderer process and more CPU than the page); with JavaScript off, which only a
 * whole context can be, in a fresh context of its own, which `close` ends.
 */
export async function blankPage(env: BrowserStack, options: PageOptions = {}): Promise<{ page: Page; close: () => Promise<void> }> {
  const viewport = { width: options.width ?? 1280, height: 900 };
  if (options.javaScriptEnabled !== false) {
    const permissions = options.permissions ?? [];
    const page = await env.context.newPage();
    await page.setViewportSize(viewport);
    if (permissions.length === 0) return { page, close: () => page.close() };
    await env.context.grantPermissions(permissions, { origin: env.baseUrl });
    return {
      page,
      async close() {
        await page.close();
        await env.context.clearPermissions();
      },
    };
  }
  const context = await env.browser.newContext({ javaScriptEnabled: false, viewport });
  const page = await context.newPage();
  return { page, close: () => context.close() };
}

/** A page (see blankPage) on `path`; `close` ends it. */
export async function openPage(
  env: BrowserStack,
  path: string,
  options: PageOptions = {},
): Promise<{ page: Page; close: () => Promise<void> }> {
  const opened = await blankPage(env, options);
  await opened.page.goto(`${env.baseUrl}${path}`);
  return opened;
}

/**
 * A screenshot at the page's current width, named `<name>-<width>.png`, when they are wanted: of the
 * whole page, of the window (`'window'`) where the test has scrolled to what it shows, or for the top
 * of /docs, whose whole length (30,000 px at 1280, 53,000 at 360) takes seconds to capture, or of one
 * element (a locator) where the page around it is too long a picture.
 */
export async function screenshot(page: Page, name: string, part: 'whole page' | 'window' | Locator = 'whole page'): Promise<void> {
  if (!SCREENSHOTS_WANTED) return;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}-${page.viewportSize()?.width ?? 0}.png`);
  if (typeof part === 'string') await page.screenshot({ path, fullPage: part === 'whole page' });
  else await part.screenshot({ path });
}

/** The id of the element that has the keyboard focus. */
export function focusedId(page: Page): Promise<string> {
  return page.evaluate('document.activeElement?.id ?? ""');
}

/** Nothing sticks out sideways: the page never scrolls horizontally. */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  // Page code is passed as text: the tests are type-checked without the DOM library.
  const [scrollWidth, clientWidth] = await page.evaluate<[number, number]>(
    '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
  );
  expect(scrollWidth).toBe(clientWidth);
}

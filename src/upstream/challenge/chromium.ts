import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Logger } from '../../config/logger.js';
import { clearanceExpiry, pickClientHints, type Clearance, type ClearanceCookie } from './clearance.js';
import type { BrowserTransport, ChallengeSolver } from './solver.js';

/**
 * Features Chromium runs without. Chromium reads only the last --disable-features of its command line,
 * and Playwright passes its own list first, so that list (playwright-core's chromiumSwitches) is
 * repeated here (test/browser/chromiumFlags.test.ts fails when a Playwright upgrade changes it). Then
 * the omnibox popup: Chromium preloads it, a WebUI page in a renderer process of its own, for every
 * window, so for every browser context a solve or a test opens; nothing here types in an omnibox. And
 * the spare renderer: Chromium starts one more renderer process with each context for the navigation
 * that might follow, and a solve's context closes after one page, so it only ever started and died.
 */
const CHROMIUM_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'WebUIOmniboxFullPopup',
  'SpareRendererForSitePerProcess',
];

/**
 * What Debian's Chromium needs here: as root in a sandbox without a GPU, and without calling home
 * (on a closed network those connections are refused and slow everything down).
 * @internal exported for the tests: the browser tests launch Debian's Chromium as the solver does.
 */
export const CHROMIUM_BASE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
  `--disable-features=${CHROMIUM_DISABLED_FEATURES.join(',')}`,
];

// Hardened so that a challenge script sees a browser rather than automation: no
// `--enable-automation`, no AutomationControlled blink feature (navigator.webdriver stays false),
// and a User-Agent without "HeadlessChrome".
const LAUNCH_ARGS = [
  ...CHROMIUM_BASE_ARGS,
  '--disable-blink-features=AutomationControlled',
  // Set the languages at launch: a context `locale` reorders Accept-Language, which a wall may notice.
  '--lang=id-ID',
  '--accept-lang=id-ID,id;q=0.9,en-US;q=0.8,en;q=0.7',
];

// FlareSolverr's and crawlee's signs that a challenge is still on screen.
const CHALLENGE_TITLES = ['Just a moment...', 'DDoS-Guard'];
const CHALLENGE_SELECTORS =
  '#challenge-running, #cf-challenge-running, #challenge-form, #cf-please-wait, #challenge-spinner, #turnstile-wrapper, .ray_id';
const SKIPPED_RESOURCES = new Set(['image', 'font', 'media']);
const POLL_MS = 50;

export interface ChromiumSolverOptions {
  executablePath: string;
  /** Limit for one solve, launch included. */
  timeoutMs: number;
  /** The browser closes after this long without a solve or an open transport. */
  idleMs: number;
  logger: Logger;
}

export function createChromiumSolver(options: ChromiumSolverOptions): ChallengeSolver {
  const { logger } = options;
  let launched: Promise<{ browser: Browser; userAgent: string }> | null = null;
  let users = 0;
  let idleTimer: NodeJS.Timeout | null = null;

  function launch(): Promise<{ browser: Browser; userAgent: string }> {
    launched ??= (async () => {
      // Loaded on the first solve: playwright-core alone adds ~70 MB to a process that may never meet a wall.
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({
        executablePath: options.executablePath,
        headless: true,
        args: LAUNCH_ARGS,
        ignoreDefaultArgs: ['--enable-automation'],
        timeout: options.timeoutMs,
      });
      browser.on('disconnected', () => {
        launched = null;
      });
      return { browser, userAgent: await headfulUserAgent(browser) };
    })();
    launched.catch(() => {
      launched = null;
    });
    return launched;
  }

  /** Keeps the browser from closing while a solve or a transport uses it. */
  function hold(): void {
    users++;
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
  }

  /** The last user out starts the idle timer. */
  function release(): void {
    users--;
    if (users > 0) return;
    idleTimer = setTimeout(() => {
      idleTimer = null;
      void closeBrowser();
    }, options.idleMs);
    idleTimer.unref();
  }

  async function using<T>(work: (browser: Browser, userAgent: string) => Promise<T>): Promise<T> {
    hold();
    try {
      const { browser, userAgent } = await launch();
      return await work(browser, userAgent);
    } finally {
      release();
    }
  }

  async function closeBrowser(): Promise<void> {
    const current = launched;
    launched = null;
    if (current) await current.then(({ browser }) => browser.close()).catch(() => undefined);
  }

  async function solve(url: string): Promise<Clearance> {
    const deadline = Date.now() + options.timeoutMs;
    return using(async (browser, userAgent) => {
      const context = await browser.newContext({ userAgent });
      try {
        await skipHeavyResources(context);
        const page = await context.newPage();
        let hints: Promise<Record<string, string>> = Promise.resolve({});
        page.on('request', (request) => {
          if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
          const navigation = request.allHeaders().then(pickClientHints);
          // The challenge's own redirect may start after the hints are read and fail as the context
          // closes; unawaited, that rejection would be unhandled (and stop the process).
          navigation.catch(() => undefined);
          hints = navigation;
        });
        await page.goto(url, { waitUntil: 'domcontentloaded', timeout: options.timeoutMs });
        await waitUntilCleared(page, deadline);
        const cookies = (await context.cookies(url)).map(cookieFields);
        const obtainedAt = Date.now();
        return {
          origin: new URL(url).origin,
          userAgent,
          clientHints: await hints,
          cookies,
          obtainedAt,
          expiresAt: clearanceExpiry(cookies, obtainedAt),
        };
      } finally {
        await context.close().catch(() => undefined);
      }
    });
  }

  async function openTransport(clearance: Clearance): Promise<BrowserTransport> {
    hold();
    let context: BrowserContext | null = null;
    try {
      const { browser } = await launch();
      context = await browser.newContext({ userAgent: clearance.userAgent });
      await skipHeavyResources(context);
      await context.addCookies(clearance.cookies.map(cookieFields));
      const page = await context.newPage();
      // A page of the origin, so that in-page fetches are same-origin and carry its cookies.
      await page.goto(`${clearance.origin}/`, { waitUntil: 'domcontentloaded', timeout: options.timeoutMs });
      await waitUntilCleared(page, Date.now() + options.timeoutMs);
    } catch (error) {
      await context?.close().catch(() => undefined);
      release();
      throw error;
    }
    const open = context;
    let closed = false;
    const page = open.pages()[0] as Page;
    logger.info({ origin: clearance.origin }, 'fetching through the browser: the handed-over cookie was refused');
    return {
      async fetch(url) {
        try {
          const answer = await page.evaluate(async (target) => {
            const response = await fetch(target, { credentials: 'include' });
            const headers: Record<string, string> = {};
            response.headers.forEach((value, name) => {
              headers[name] = value;
            });
            return { url: response.url, status: response.status, headers, body: await response.text() };
          }, url);
          return { ...answer, body: Buffer.from(answer.body) };
        } catch (error) {
          return { url, failure: error instanceof Error ? error.message : String(error) };
        }
      },
      async close() {
        if (closed) return;
        closed = true;
        await open.close().catch(() => undefined);
        release();
      },
    };
  }

  return {
    kind: 'chromium',
    solve,
    openTransport,
    async close() {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = null;
      await closeBrowser();
    },
  };
}

function cookieFields({ name, value, domain, path, expires, httpOnly, secure }: ClearanceCookie): ClearanceCookie {
  return { name, value, domain, path, expires, httpOnly, secure };
}

/**
 * Headless Chromium calls itself HeadlessChrome; a wall refuses that, so the context says Chrome. The
 * browser's own User-Agent (what navigator.userAgent says) is asked over CDP: a page to read it from
 * would cost a browser context and a renderer process of its own.
 */
async function headfulUserAgent(browser: Browser): Promise<string> {
  const session = await browser.newBrowserCDPSession();
  try {
    const { userAgent } = await session.send('Browser.getVersion');
    return userAgent.replace('HeadlessChrome', 'Chrome');
  } finally {
    await session.detach();
  }
}

/** Images, fonts and media cost time and never matter to a challenge; scripts and XHR do. */
async function skipHeavyResources(context: BrowserContext): Promise<void> {
  await context.route('**/*', (route) => (SKIPPED_RESOURCES.has(route.request().resourceType()) ? route.abort() : route.continue()));
}

/**
 * Polls until the wall hands out its clearance cookie, or no challenge title or element is left
 * (walls without a cf_clearance). The challenge's own reload may interrupt a poll.
 */
async function waitUntilCleared(page: Page, deadline: number): Promise<void> {
  const cleared = async () =>
    (await page.context().cookies(page.url())).some((cookie) => cookie.name === 'cf_clearance') ||
    (!CHALLENGE_TITLES.includes(await page.title()) && (await page.locator(CHALLENGE_SELECTORS).count()) === 0);
  while (Date.now() < deadline) {
    if (await cleared().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error('the challenge did not clear in time');
}

import { describe, expect, it } from 'vitest';
import { sharedBrowser } from './browser.js';

// Chromium reads only the last --disable-features of its command line: the list the solver's flags
// add (src/upstream/challenge/chromium.ts) comes after Playwright's own, so it must name every feature
// Playwright turns off, and its own additions must still exist in this Chromium.

/** The features of each --disable-features on a command line, in order. */
const disabledFeatureLists = (commandLine: string) =>
  [...commandLine.matchAll(/--disable-features=(\S+)/g)].map((match) => match[1]!.split(','));

describe("Chromium's flags", () => {
  it('turn off every feature Playwright turns off, and no context gets an omnibox popup preloaded', async () => {
    const browser = await sharedBrowser();
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto('chrome://version');
      const [playwrights, ours, ...more] = disabledFeatureLists((await page.locator('#command_line').textContent()) ?? '');
      expect(more).toEqual([]);
      expect(playwrights!.filter((feature) => !ours!.includes(feature))).toEqual([]);
      const session = await browser.newBrowserCDPSession();
      const targets = await session.send('Target.getTargets');
      await session.detach();
      expect(targets.targetInfos.map((target) => target.url).filter((url) => url.startsWith('chrome://omnibox-popup'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

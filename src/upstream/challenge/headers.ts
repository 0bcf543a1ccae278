import type { Clearance } from './clearance.js';

// A current desktop Chrome on Windows, with the headers it sends on a top-level navigation.
// The upstream sits behind Cloudflare, which scores requests that do not look like a browser.
const BROWSER_HEADERS: Readonly<Record<string, string>> = {
  'User-Agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8',
  'Accept-Language': 'id-ID,id;q=0.9,en-US;q=0.8,en;q=0.7',
  'Accept-Encoding': 'gzip, deflate, br',
  'Sec-CH-UA': '"Chromium";v="156", "Google Chrome";v="156", "Not.A/Brand";v="99"',
  'Sec-CH-UA-Mobile': '?0',
  'Sec-CH-UA-Platform': '"Windows"',
  'Sec-Fetch-Dest': 'document',
  'Sec-Fetch-Mode': 'navigate',
  'Sec-Fetch-Site': 'none',
  'Sec-Fetch-User': '?1',
  'Upgrade-Insecure-Requests': '1',
};

/**
 * Headers for one upstream request. With a clearance, the browser that earned it speaks: its exact
 * User-Agent and client hints, and its cookies. A wall binds the cookie to that User-Agent.
 */
export function requestHeaders(clearance: Clearance | undefined): Record<string, string> {
  if (clearance === undefined) return { ...BROWSER_HEADERS };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(BROWSER_HEADERS)) {
    if (!/^sec-ch-ua/i.test(name)) headers[name] = value;
  }
  Object.assign(headers, clearance.clientHints);
  headers['User-Agent'] = clearance.userAgent;
  headers.Cookie = clearance.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  return headers;
}

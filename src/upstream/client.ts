import http from 'node:http';
import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { classifyAnswer } from './classify.js';
import {
  UpstreamBadResponseError,
  UpstreamBlockedError,
  UpstreamError,
  UpstreamMovedError,
  UpstreamNotFoundError,
  UpstreamTimeoutError,
} from './errors.js';

export interface UpstreamPage {
  /** The URL that finally answered (after same-origin redirects). */
  url: string;
  status: number;
  html: string;
  fetchedAt: Date;
  attempts: number;
}

export interface UpstreamClient {
  readonly origin: string;
  /** Fetches one page (path plus query, e.g. "/ongoing/page/2/") within the page deadline. */
  fetchPage(path: string): Promise<UpstreamPage>;
}

export interface UpstreamClientOptions {
  origin: string;
  /** Deadline for one page, retries and queueing included. */
  timeoutMs: number;
  /** Concurrent connections per upstream host, so that we stay polite. */
  maxConnectionsPerHost?: number;
  /** Retries after the first attempt, on network errors and 5xx only. */
  maxRetries?: number;
}

// A current desktop Chrome on Windows, with the headers it sends on a top-level navigation.
// The upstream sits behind Cloudflare, which scores requests that do not look like a browser.
const BROWSER_HEADERS = {
  'User-Agent':
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  Accept:
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8',
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

const MAX_REDIRECTS = 3;
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const BACKOFF_BASE_MS = 250;
const BLOCKED_RETRY_AFTER_SECONDS = 60;

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const maxSockets = options.maxConnectionsPerHost ?? 4;
  const maxRetries = options.maxRetries ?? 2;
  // The agents' maxSockets is the per-host concurrency cap: further requests queue for a socket,
  // and the page deadline's abort signal takes them out of that queue.
  const transport: AxiosInstance = axios.create({
    httpAgent: new http.Agent({ keepAlive: true, maxSockets }),
    httpsAgent: new https.Agent({ keepAlive: true, maxSockets }),
    headers: BROWSER_HEADERS,
    decompress: true,
    maxRedirects: 0,
    maxContentLength: MAX_BODY_BYTES,
    responseType: 'text',
    transformResponse: (data: unknown) => data,
    validateStatus: () => true,
  });

  async function fetchPage(path: string): Promise<UpstreamPage> {
    const startUrl = new URL(path, options.origin).href;
    const deadline = AbortSignal.timeout(options.timeoutMs);
    const deadlineAt = Date.now() + options.timeoutMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return { ...(await fetchFollowingRedirects(startUrl, deadline)), attempts: attempt };
      } catch (error) {
        if (deadline.aborted) {
          throw new UpstreamTimeoutError(`No answer from the upstream within ${options.timeoutMs} ms`, startUrl, {
            cause: error,
          });
        }
        const retryable = isRetryable(error);
        const delay = jitteredBackoff(attempt);
        if (!retryable || attempt > maxRetries || Date.now() + delay >= deadlineAt) throw toUpstreamError(error, startUrl);
        await sleep(delay, undefined, { signal: deadline }).catch(() => undefined);
      }
    }
  }

  async function fetchFollowingRedirects(url: string, signal: AbortSignal): Promise<Omit<UpstreamPage, 'attempts'>> {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const response: AxiosResponse<string> = await transport.get(current, { signal });
      const body = typeof response.data === 'string' ? response.data : '';
      const verdict = classifyAnswer({ status: response.status, headers: flatHeaders(response), body, url: current });
      switch (verdict.kind) {
        case 'ok':
          return { url: current, status: response.status, html: body, fetchedAt: new Date() };
        case 'redirect':
          current = verdict.location;
          continue;
        case 'moved':
          throw new UpstreamMovedError(`The upstream redirected to another site (${verdict.location})`, current, verdict.location);
        case 'challenge':
          throw new UpstreamBlockedError('The upstream answered with an anti-bot challenge page', current, BLOCKED_RETRY_AFTER_SECONDS);
        case 'rate-limited':
          throw new UpstreamBlockedError(
            'The upstream is rate limiting us',
            current,
            verdict.retryAfterSeconds ?? BLOCKED_RETRY_AFTER_SECONDS,
          );
        case 'blocked':
          throw new UpstreamBlockedError('The upstream firewall blocked the request', current, BLOCKED_RETRY_AFTER_SECONDS);
        case 'not-found':
          throw new UpstreamNotFoundError(`The upstream has no page at ${current}`, current);
        case 'upstream-error':
          throw new UpstreamBadResponseError(`The upstream answered HTTP ${response.status}`, current, response.status);
      }
    }
    throw new UpstreamBadResponseError(`More than ${MAX_REDIRECTS} redirects`, url, null);
  }

  return { origin: options.origin, fetchPage };
}

function flatHeaders(response: AxiosResponse): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value == null ? undefined : String(value);
  }
  return headers;
}

/** Only network failures and upstream 5xx are worth another try; walls and 404s are not. */
function isRetryable(error: unknown): boolean {
  if (error instanceof UpstreamBadResponseError) return error.status !== null && error.status >= 500;
  if (error instanceof UpstreamError) return false;
  return axios.isAxiosError(error) && error.response === undefined && error.code !== 'ERR_BAD_RESPONSE';
}

function toUpstreamError(error: unknown, url: string): UpstreamError {
  if (error instanceof UpstreamError) return error;
  const reason = axios.isAxiosError(error) ? (error.code ?? error.message) : String(error);
  return new UpstreamBadResponseError(`Could not read the upstream page (${reason})`, url, null, { cause: error });
}

/** Exponential backoff with ±50 % jitter, so that retries from many requests do not line up. */
function jitteredBackoff(attempt: number): number {
  return Math.round(BACKOFF_BASE_MS * 2 ** (attempt - 1) * (0.5 + Math.random()));
}

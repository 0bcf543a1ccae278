import http from 'node:http';
import https from 'node:https';
import axios, { type AxiosResponse } from 'axios';
import { MAX_PAGE_BYTES, PAGE_TOO_LARGE, type UpstreamAnswer, type UpstreamFailure } from './classify.js';

/** The one axios instance: plain GETs that never throw for a status and never follow redirects. */
export interface HttpTransport {
  get(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<UpstreamAnswer | UpstreamFailure>;
}

export function createHttpTransport(options: { maxConnectionsPerHost: number }): HttpTransport {
  const maxSockets = options.maxConnectionsPerHost;
  // The client's connection turns decide how many requests run (connectionTurns.ts); maxSockets,
  // sized to match, is only the backstop, so that nothing waits in the agent's own queue, where a
  // wait would be spent out of the page's deadline.
  const instance = axios.create({
    httpAgent: new http.Agent({ keepAlive: true, maxSockets }),
    httpsAgent: new https.Agent({ keepAlive: true, maxSockets }),
    decompress: true,
    maxRedirects: 0,
    // Counted on the decompressed body as it arrives: reading stops at the bound.
    maxContentLength: MAX_PAGE_BYTES,
    // Bytes: the page is decoded on its parse thread (pageText in siteLinks.ts), not on the main thread.
    responseType: 'arraybuffer',
    transformResponse: (data: unknown) => data,
    validateStatus: () => true,
  });

  return {
    async get(url, headers, signal) {
      try {
        const response: AxiosResponse<unknown> = await instance.get(url, { headers, signal });
        return {
          url,
          status: response.status,
          headers: flatHeaders(response),
          body: Buffer.isBuffer(response.data) ? response.data : Buffer.alloc(0),
        };
      } catch (error) {
        if (axios.isAxiosError(error) && error.message.startsWith('maxContentLength')) return { url, failure: PAGE_TOO_LARGE };
        return { url, failure: axios.isAxiosError(error) ? (error.code ?? error.message) : String(error) };
      }
    },
  };
}

function flatHeaders(response: AxiosResponse): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value == null ? undefined : String(value);
  }
  return headers;
}

import http from 'node:http';
import https from 'node:https';
import axios, { type AxiosResponse } from 'axios';
import { MAX_PAGE_BYTES, PAGE_TOO_LARGE, type UpstreamAnswer, type UpstreamFailure } from './classify.js';
import { decodeBody, DecodedBodyTooLargeError } from './bodyDecoding.js';

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
    // The body is decoded whole, once it has arrived (bodyDecoding.ts): axios's decoding streams
    // cost the main thread several times the inflate itself.
    decompress: false,
    maxRedirects: 0,
    // Counted on the bytes as they arrive (reading stops at the bound), and again on the decoded ones.
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
        const arrived = Buffer.isBuffer(response.data) ? response.data : Buffer.alloc(0);
        const decoded = await decodeBody(arrived, flatHeaders(response), MAX_PAGE_BYTES);
        return { url, status: response.status, ...decoded };
      } catch (error) {
        if (error instanceof DecodedBodyTooLargeError) return { url, failure: PAGE_TOO_LARGE };
        if (axios.isAxiosError(error) && error.message.startsWith('maxContentLength')) return { url, failure: PAGE_TOO_LARGE };
        if (axios.isAxiosError(error)) return { url, failure: error.code ?? error.message };
        // zlib's code for a body that is not what its encoding says (Z_DATA_ERROR…).
        return { url, failure: (error as NodeJS.ErrnoException).code ?? String(error) };
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

import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../config/logger.js';
import { API_HEADERS } from './apiAnswer.js';
import { errorResponse } from './errorHandler.js';
import { MalformedRequestError } from './errors.js';
import { SERVER_TIMEOUTS, type ServerTimeouts } from '../config/requestLimits.js';

/** The status Node itself would answer for a parser error (its default clientError handler's choice). */
function statusOf(error: NodeJS.ErrnoException): number {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 431;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return 413;
  return 400;
}

/**
 * The HTTP server of the app: its timeouts, and the JSON error envelope (with a request id) for
 * requests Node's HTTP parser refuses before any listener sees them (a raw non-ASCII byte in the
 * URL, headers over 16 KB, a request that stalls), which Node would answer with an empty body.
 */
export function createHttpServer(listener: RequestListener, logger: Logger, timeouts: ServerTimeouts = SERVER_TIMEOUTS): Server {
  const server = createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      connectionsCheckingInterval: timeouts.timeoutCheckEveryMs,
    },
    listener,
  );
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already under way on this connection must not get raw bytes in its middle (Node's own check).
    const inProgress = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inProgress?.headersSent) {
      socket.destroy();
      return;
    }
    const requestId = randomUUID();
    const { status, headers, body } = errorResponse(new MalformedRequestError(statusOf(error), error.message), '', requestId, logger);
    // The head of any API answer, then the error's own, as the door and Express write them.
    const head = [...API_HEADERS, 'X-Request-Id', requestId, ...headers, 'Connection', 'close'];
    const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`];
    for (let i = 0; i < head.length; i += 2) lines.push(`${head[i]}: ${head[i + 1]}`);
    // Destroyed once the answer is out: only ending our side would leave the socket (and its file
    // descriptor) open for as long as the client keeps its own side open.
    socket.end([...lines, '', body].join('\r\n'), () => socket.destroy());
  });
  return server;
}

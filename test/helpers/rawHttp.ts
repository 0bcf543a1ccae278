import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

/** Undoes chunked transfer coding (Express streams some answers). */
function unchunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    const size = Number.parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

function parseResponse(raw: Buffer): RawResponse {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) throw new Error(`no HTTP response, got ${JSON.stringify(raw.toString('latin1'))}`);
  const [statusLine = '', ...headerLines] = raw.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = raw.subarray(headEnd + 4);
  const body = headers['transfer-encoding'] === 'chunked' ? unchunk(rest) : rest;
  return { status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') };
}

/**
 * Sends `request` byte for byte over a fresh connection and reads until the server closes it, for
 * requests supertest cannot send (raw bytes in the URL, bad percent-encoding, a declared body that
 * never comes). Our side stays open, as a client's whose body is still to come, so the answer ends
 * it: ask for `Connection: close` unless the server closes by itself.
 */
export function rawRequest(port: number, request: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        resolve(parseResponse(Buffer.concat(received)));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    socket.write(request);
  });
}

export interface StreamedBodyResult {
  response: RawResponse;
  /** Body bytes written (chunk framing excluded) when the first byte of the answer arrived. */
  sentBeforeAnswer: number;
  /** Whether the server closed the connection within a second of answering. */
  closedByServer: boolean;
}

/**
 * Sends `head` (a request line and headers with `Transfer-Encoding: chunked`), then a chunked body
 * of `chunkBytes` every `pauseMs` until the server answers or `maxBytes` are sent, and never ends
 * the body. The slow pace keeps what the client has written close to what the server has read.
 */
export function streamChunkedBody(
  port: number,
  head: string,
  options: { chunkBytes: number; pauseMs: number; maxBytes: number },
): Promise<StreamedBodyResult> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let sent = 0;
    let sentBeforeAnswer: number | undefined;
    let timer: NodeJS.Timeout | undefined;
    let closeWait: NodeJS.Timeout | undefined;
    const finish = (closedByServer: boolean) => {
      clearTimeout(timer);
      clearTimeout(closeWait);
      socket.destroy();
      try {
        resolve({ response: parseResponse(Buffer.concat(received)), sentBeforeAnswer: sentBeforeAnswer ?? sent, closedByServer });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    socket.on('data', (data) => {
      received.push(data);
      if (sentBeforeAnswer === undefined) {
        sentBeforeAnswer = sent;
        closeWait = setTimeout(() => finish(false), 1_000);
      }
    });
    socket.on('end', () => finish(true));
    // The server closing with our body unread may reset the connection; the answer came before.
    socket.on('error', () => finish(sentBeforeAnswer !== undefined));
    const chunk = Buffer.from(`${options.chunkBytes.toString(16)}\r\n${'x'.repeat(options.chunkBytes)}\r\n`);
    const writeNext = () => {
      if (sentBeforeAnswer !== undefined || socket.destroyed) return;
      if (sent >= options.maxBytes) {
        closeWait = setTimeout(() => finish(false), 2_000);
        return;
      }
      socket.write(chunk);
      sent += options.chunkBytes;
      timer = setTimeout(writeNext, options.pauseMs);
    };
    socket.write(head, () => {
      timer = setTimeout(writeNext, options.pauseMs);
    });
  });
}

export interface FloodedBodyResult {
  response: RawResponse;
  /** Milliseconds from the first byte of the answer to the server's closing of the connection (null: still open when the flood stopped). */
  closedAfterAnswerMs: number | null;
}

/**
 * Sends `head` (a request that declares a body, e.g. `Content-Length: 100000000000`), then body
 * bytes as fast as the connection takes them, for at most `floodMs` after the answer began: a
 * client that keeps sending whatever the server answers. Bytes the server read are counted on the
 * server's side of the socket, by the test.
 */
export function floodDeclaredBody(port: number, head: string, floodMs: number): Promise<FloodedBodyResult> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let answeredAt: number | undefined;
    let stopTimer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(stopTimer);
      const closedAfterAnswerMs = closedByServer && answeredAt !== undefined ? performance.now() - answeredAt : null;
      socket.destroy();
      try {
        resolve({ response: parseResponse(Buffer.concat(received)), closedAfterAnswerMs });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    const pump = () => {
      while (!done && !socket.destroyed && socket.write(chunk));
    };
    socket.on('data', (data) => {
      received.push(data);
      if (answeredAt === undefined) {
        answeredAt = performance.now();
        stopTimer = setTimeout(() => finish(false), floodMs);
      }
    });
    socket.on('drain', pump);
    socket.on('end', () => finish(true));
    // The server closing with our body unread resets the connection; the answer came before.
    socket.on('error', () => finish(answeredAt !== undefined));
    socket.on('close', () => finish(answeredAt !== undefined));
    socket.write(head, pump);
  });
}

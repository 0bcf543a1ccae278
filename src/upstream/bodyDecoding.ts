import { promisify } from 'node:util';
import zlib from 'node:zlib';

const unzip = promisify(zlib.unzip);
const inflateRaw = promisify(zlib.inflateRaw);
const brotliDecompress = promisify(zlib.brotliDecompress);

/** A body whose decoded bytes would pass the bound: it is not decoded further. */
export class DecodedBodyTooLargeError extends Error {}

// The leniency axios's streams had: a compressed body cut short gives what it holds (the page is
// then judged cut off by its markup), not an error. The output comes in chunks of this size, each a
// hand-off between the pool and the main thread: at zlib's default 16 KB a page took twenty.
const CHUNK_BYTES = 256 * 1024;
const ZLIB_OPTIONS = { finishFlush: zlib.constants.Z_SYNC_FLUSH, chunkSize: CHUNK_BYTES };
const BROTLI_OPTIONS = { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH, chunkSize: CHUNK_BYTES };

/** A zlib stream starts with 0x78 (deflate, 32 KB window: what every server sends); a raw deflate stream has no header. */
const hasZlibHeader = (body: Buffer) => body[0] === 0x78;

/**
 * The body's bytes as the server meant them, per its Content-Encoding (gzip, deflate, br and the
 * names axios took for them), in one call on zlib's thread pool rather than through a stream on the
 * main thread. At most `maxBytes` come out: a small compressed body that would inflate past them is
 * refused. An encoding it does not know leaves the body as it arrived and the header in place.
 */
export async function decodeBody(
  body: Buffer,
  headers: Record<string, string | undefined>,
  maxBytes: number,
): Promise<{ body: Buffer; headers: Record<string, string | undefined> }> {
  const encoding = headers['content-encoding']?.trim().toLowerCase();
  if (!encoding || encoding === 'identity') return { body, headers };
  const decode = decoderOf(encoding, body);
  if (!decode) return { body, headers };
  const { 'content-encoding': _decoded, ...rest } = headers;
  // A HEAD answer or a 204 names an encoding and has no body to decode.
  if (body.length === 0) return { body, headers: rest };
  try {
    return { body: await decode({ maxOutputLength: maxBytes }), headers: rest };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new DecodedBodyTooLargeError();
    throw error;
  }
}

function decoderOf(encoding: string, body: Buffer): ((bound: { maxOutputLength: number }) => Promise<Buffer>) | undefined {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
    case 'compress':
    case 'x-compress':
      return (bound) => unzip(body, { ...ZLIB_OPTIONS, ...bound });
    case 'deflate':
      // Servers send "deflate" both with the zlib header (as the RFC says) and without it.
      return (bound) =>
        hasZlibHeader(body) ? unzip(body, { ...ZLIB_OPTIONS, ...bound }) : inflateRaw(body, { ...ZLIB_OPTIONS, ...bound });
    case 'br':
      return (bound) => brotliDecompress(body, { ...BROTLI_OPTIONS, ...bound });
    default:
      return undefined;
  }
}

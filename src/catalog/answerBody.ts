import { createHash } from 'node:crypto';

/** A catalog answer's bytes as they are sent and kept, and its ETag. */
export interface AnswerBody {
  body: Buffer;
  etag: string;
}

const OPENING = '{"status":"success",';

/**
 * The answer to `content` (a parse's `{data, pagination}` as JSON), read from `source` at
 * `fetchedAt`: `{"status":"success","data":…,"pagination":…,"meta":{"source":…,"fetchedAt":…}}`.
 * Its last member is meta: staleAnswer (answer.ts) puts the stale facts before its two closing braces.
 *
 * Written straight into memory of its own exact size, with no joined copy of the text first:
 * Buffer.from puts a short text in a slice of a shared 8 KB slab, and a kept slice keeps its whole
 * slab alive; and a parse thread hands this memory to the main thread as it is (parseTask.ts).
 *
 * The ETag covers what the client reads (data, pagination, source) but not fetchedAt, so a refetch
 * of unchanged upstream data still revalidates with 304; hence a weak validator.
 */
export function answerBody(content: string, source: string, fetchedAt: number): AnswerBody {
  const members = content.slice(1, -1);
  const closing = `,"meta":${JSON.stringify({ source, fetchedAt: new Date(fetchedAt).toISOString() })}}`;
  const membersEnd = OPENING.length + Buffer.byteLength(members);
  const body = Buffer.allocUnsafeSlow(membersEnd + Buffer.byteLength(closing));
  body.write(OPENING, 0);
  body.write(members, OPENING.length);
  body.write(closing, membersEnd);
  // The hash of `source` and `content`, read back from the body rather than encoded a second time.
  const hash = createHash('sha1').update(source).update('{').update(body.subarray(OPENING.length, membersEnd)).update('}');
  return { body, etag: `W/"${hash.digest('base64url')}"` };
}

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { answerBody } from '../../../src/catalog/answerBody.js';

const SOURCE = 'http://127.0.0.1:4000/?s=s%C3%A9rie';
const FETCHED_AT = Date.UTC(2026, 10, 29, 9, 30);

describe('answerBody', () => {
  it("writes the answer's envelope around the parse's JSON, its meta last", () => {
    const content = '{"data":{"query":"série 世界","results":[]},"pagination":null}';
    const { body } = answerBody(content, SOURCE, FETCHED_AT);
    expect(body.toString()).toBe(
      '{"status":"success","data":{"query":"série 世界","results":[]},"pagination":null,' +
        `"meta":{"source":"${SOURCE}","fetchedAt":"2026-11-29T09:30:00.000Z"}}`,
    );
  });

  it('holds a short answer in memory of its own size, not in a slice of a shared slab', () => {
    const content = '{"data":{"query":"série","results":[]},"pagination":null}';
    const { body } = answerBody(content, SOURCE, FETCHED_AT);
    expect(body.buffer.byteLength).toBe(body.length);
    // What it replaces: a slice that keeps the pool's whole slab alive.
    expect(Buffer.from(body.toString()).buffer.byteLength).toBeGreaterThan(body.length);
  });

  it('gives the weak ETag of the source and the JSON, the same for another fetchedAt', () => {
    const content = '{"data":{"title":"Perjalanan ke Barat – 西游记","episodes":[1,2]},"pagination":null}';
    const { etag } = answerBody(content, SOURCE, FETCHED_AT);
    expect(etag).toBe(`W/"${createHash('sha1').update(SOURCE).update(content).digest('base64url')}"`);
    expect(answerBody(content, SOURCE, FETCHED_AT + 60_000).etag).toBe(etag);
    expect(answerBody(content, `${SOURCE}&page=2`, FETCHED_AT).etag).not.toBe(etag);
  });
});

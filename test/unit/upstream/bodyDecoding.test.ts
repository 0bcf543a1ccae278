import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeBody, DecodedBodyTooLargeError } from '../../../src/upstream/bodyDecoding.js';

const PAGE = Buffer.from(`<!DOCTYPE html><html><body>${'<li>Episode 1 — “Halo”</li>'.repeat(2_000)}</body></html>`);
const HEADERS = { 'content-type': 'text/html; charset=UTF-8' };

describe('decodeBody', () => {
  it.each([
    ['gzip', gzipSync(PAGE)],
    ['x-gzip', gzipSync(PAGE)],
    ['GZIP', gzipSync(PAGE)],
    ['deflate', deflateSync(PAGE)],
    ['br', brotliCompressSync(PAGE)],
  ])('decodes %s and drops the header it decoded', async (encoding, body) => {
    const decoded = await decodeBody(body, { ...HEADERS, 'content-encoding': encoding }, 2 << 20);
    expect(decoded.body.equals(PAGE)).toBe(true);
    expect(decoded.headers).toEqual(HEADERS);
  });

  it('decodes "deflate" sent without its zlib header, as servers do', async () => {
    const decoded = await decodeBody(deflateRawSync(PAGE), { 'content-encoding': 'deflate' }, 2 << 20);
    expect(decoded.body.equals(PAGE)).toBe(true);
  });

  it('leaves an unencoded body, and one in an encoding it does not know, as they arrived', async () => {
    expect(await decodeBody(PAGE, HEADERS, 10)).toEqual({ body: PAGE, headers: HEADERS });
    const unknown = { ...HEADERS, 'content-encoding': 'zz' };
    const kept = await decodeBody(PAGE, unknown, 10);
    expect(kept.body).toBe(PAGE);
    expect(kept.headers).toEqual(unknown);
  });

  it('gives an empty body that names an encoding (a HEAD answer, a 204) as it is, without the header', async () => {
    expect(await decodeBody(Buffer.alloc(0), { 'content-encoding': 'gzip' }, 10)).toEqual({ body: Buffer.alloc(0), headers: {} });
  });

  it('gives what a gzip body cut short holds, so the page is judged by its markup', async () => {
    const whole = gzipSync(PAGE);
    const decoded = await decodeBody(whole.subarray(0, Math.floor(whole.length / 2)), { 'content-encoding': 'gzip' }, 2 << 20);
    expect(decoded.body.length).toBeGreaterThan(0);
    expect(decoded.body.length).toBeLessThan(PAGE.length);
    expect(PAGE.subarray(0, decoded.body.length).equals(decoded.body)).toBe(true);
  });

  it('takes a body decoding to exactly the bound and refuses one past it (a small body that inflates far)', async () => {
    const bomb = gzipSync(Buffer.alloc(3 << 20, 'a'));
    expect(bomb.length).toBeLessThan(10_000);
    await expect(decodeBody(bomb, { 'content-encoding': 'gzip' }, 2 << 20)).rejects.toBeInstanceOf(DecodedBodyTooLargeError);
    await expect(decodeBody(brotliCompressSync(Buffer.alloc(3 << 20, 'a')), { 'content-encoding': 'br' }, 2 << 20)).rejects.toBeInstanceOf(
      DecodedBodyTooLargeError,
    );
    const exact = await decodeBody(gzipSync(PAGE), { 'content-encoding': 'gzip' }, PAGE.length);
    expect(exact.body.length).toBe(PAGE.length);
  });

  it('fails with zlib’s code on a body that is not what its encoding says', async () => {
    await expect(decodeBody(PAGE, { 'content-encoding': 'gzip' }, 2 << 20)).rejects.toMatchObject({ code: 'Z_DATA_ERROR' });
  });
});

import { describe, expect, it } from 'vitest';
import { decodeAnswer, encodeAnswer } from '../../../src/stores/answers/storedAnswer.js';

const answer = {
  body: Buffer.from('{"status":"success","data":{},"meta":{}}'),
  etag: 'W/"abc"',
  fetchedAt: 1_700_000_000_000,
  ttlSeconds: 600,
};

describe('the stored form of an answer', () => {
  it('reads back the answer it stored: header line, then the bytes as they are', () => {
    const stored = encodeAnswer(answer);
    expect(stored.toString()).toBe(`{"etag":"W/\\"abc\\"","fetchedAt":1700000000000,"ttlSeconds":600}\n${answer.body.toString()}`);
    expect(decodeAnswer(stored)).toEqual(answer);
  });

  it('reads an answer stored with the upstream facts in its header (the earlier form) as the same answer', () => {
    const header = { ...answer, body: undefined, upstream: { url: 'https://site.example/', status: 200, attempts: 1, durationMs: 12 } };
    const stored = Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), answer.body]);
    expect(decodeAnswer(stored)).toEqual(answer);
  });

  it('reads nothing from bytes of another form', () => {
    expect(decodeAnswer(Buffer.from('no header line'))).toBeUndefined();
    expect(decodeAnswer(Buffer.from('{"etag":1}\n{}'))).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { ownBuffer } from '../../../src/catalog/service.js';

describe('ownBuffer', () => {
  it('holds a short answer in memory of its own size, not in a slice of a shared slab', () => {
    const text = '{"status":"success","data":{"query":"série","results":[]}}';
    const body = ownBuffer(text);
    expect(body.toString()).toBe(text);
    expect(body.buffer.byteLength).toBe(Buffer.byteLength(text));
    // What it replaces: a slice that keeps the pool's whole slab alive.
    expect(Buffer.from(text).buffer.byteLength).toBeGreaterThan(Buffer.byteLength(text));
  });
});

import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { originOf, variesByHost } from '../../../src/http/requestOrigin.js';

function requestWith(
  headers: Record<string, string>,
  socket: { remoteAddress?: string; localAddress?: string; localPort?: number; encrypted?: boolean } = {},
): IncomingMessage {
  return {
    headers,
    socket: { remoteAddress: '10.0.0.1', localAddress: '127.0.0.1', localPort: 3000, ...socket },
  } as unknown as IncomingMessage;
}

const noProxy = { trustProxy: () => false, publicUrl: undefined };
const behindProxy = { trustProxy: (address: string) => address === '10.0.0.1', publicUrl: undefined };

describe('originOf', () => {
  it.each([
    ['api.example', 'http://api.example'],
    ['API.Example:8080', 'http://api.example:8080'],
    ['127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['[::1]:3000', 'http://[::1]:3000'],
    ['catalog_api:3000', 'http://catalog_api:3000'],
  ])('takes a plain Host %j as %j', (host, origin) => {
    expect(originOf(requestWith({ host }), noProxy)).toBe(origin);
  });

  it.each(['a"b', "a'b", 'a<b>', 'a b', 'a\\b', 'evil.example/path', 'user@evil.example', '', 'a.example:port', 'x'.repeat(300)])(
    'names the socket it was reached on instead of the Host %j',
    (host) => {
      expect(originOf(requestWith({ host }), noProxy)).toBe('http://127.0.0.1:3000');
      expect(originOf(requestWith({ host }, { localAddress: '::1', localPort: 8080 }), noProxy)).toBe('http://[::1]:8080');
    },
  );

  it('names the socket without a Host header', () => {
    expect(originOf(requestWith({}), noProxy)).toBe('http://127.0.0.1:3000');
  });

  it('takes X-Forwarded-Proto http or https from a trusted proxy only', () => {
    expect(originOf(requestWith({ host: 'api.example', 'x-forwarded-proto': 'HTTPS, http' }), behindProxy)).toBe('https://api.example');
    expect(originOf(requestWith({ host: 'api.example', 'x-forwarded-proto': 'https' }), noProxy)).toBe('http://api.example');
    expect(originOf(requestWith({ host: 'api.example', 'x-forwarded-proto': 'javascript' }), behindProxy)).toBe('http://api.example');
    expect(originOf(requestWith({ host: 'api.example' }, { encrypted: true }), noProxy)).toBe('https://api.example');
  });

  it('is PUBLIC_URL whatever the request says, and then does not vary by Host', () => {
    const rule = { trustProxy: () => true, publicUrl: 'https://api.example' };
    expect(originOf(requestWith({ host: 'evil.example', 'x-forwarded-proto': 'http' }), rule)).toBe('https://api.example');
    expect([variesByHost(rule), variesByHost(noProxy)]).toEqual([false, true]);
  });
});

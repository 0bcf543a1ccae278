import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { logRequest, type RequestLogFields, type RequestLogLine } from '../../../src/http/middleware/requestLog.js';

const request = (url: string) => ({ method: 'GET', url }) as IncomingMessage;
const response = (statusCode: number) => ({ statusCode }) as ServerResponse;

describe('logRequest', () => {
  it('writes the lines of one turn of the event loop at its end, in order, each followed by its hook', async () => {
    const written: Array<Record<string, unknown>> = [];
    const events: string[] = [];
    const logger = pino(
      { level: 'info', base: null, timestamp: false },
      {
        write: (line: string) => {
          const parsed = JSON.parse(line) as Record<string, unknown>;
          written.push(parsed);
          events.push(`line ${String(parsed.requestId)}`);
        },
      },
    );
    const told: RequestLogLine[] = [];
    const started = performance.now();
    const log = (url: string, status: number, fields: RequestLogFields) =>
      logRequest(logger, request(url), response(status), fields, started, (line) => {
        told.push(line);
        events.push(`told ${line.requestId}`);
      });
    log('/catalog/genres', 200, { requestId: 'first-0001', route: '/catalog/genres', cache: 'HIT' });
    log('/catalog/nope', 404, { requestId: 'second-002', route: 'unmatched', errorCode: 'NOT_FOUND' });
    expect(told).toEqual([]);
    expect(written).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['line first-0001', 'told first-0001', 'line second-002', 'told second-002']);
    expect(told.map((line) => [line.requestId, line.status])).toEqual([
      ['first-0001', 200],
      ['second-002', 404],
    ]);
    expect(written.map(({ durationMs: _durationMs, ...fields }) => fields)).toEqual([
      {
        level: 30,
        requestId: 'first-0001',
        route: '/catalog/genres',
        cache: 'HIT',
        method: 'GET',
        url: '/catalog/genres',
        status: 200,
        msg: 'request',
      },
      {
        level: 30,
        requestId: 'second-002',
        route: 'unmatched',
        errorCode: 'NOT_FOUND',
        method: 'GET',
        url: '/catalog/nope',
        status: 404,
        msg: 'request',
      },
    ]);
    expect(written.map((line) => typeof line.durationMs)).toEqual(['number', 'number']);
  });

  it('keeps the first 2,048 characters of a longer URL and says how long it was', async () => {
    const written: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => written.push(JSON.parse(line) as Record<string, unknown>) });
    const junk = `/catalog/genres?n1=${'x'.repeat(14 * 1024)}`;
    const fits = `/catalog/genres?n2=${'y'.repeat(2048 - '/catalog/genres?n2='.length)}`;
    for (const url of [junk, fits])
      logRequest(logger, request(url), response(429), { requestId: 'flood-0001', route: '/catalog/genres' }, 0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written.map((line) => line.url)).toEqual([`${junk.slice(0, 2048)}… (14355 characters)`, fits]);
  });
});

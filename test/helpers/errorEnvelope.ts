import type request from 'supertest';
import { expect } from 'vitest';
import { ErrorEnvelope } from '../../src/contract/schemas.js';

/** Checks the contract's error envelope and returns it; the body must never carry upstream HTML or a stack. */
export function expectErrorEnvelope(response: request.Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = ErrorEnvelope.parse(response.body);
  expect(body.error.code).toBe(code);
  expect(body.requestId).toBe(response.headers['x-request-id']);
  expect(response.text).not.toMatch(/<html|<!DOCTYPE|Just a moment|\bat .*\.(ts|js):\d+/i);
  return body;
}

import type { z } from 'zod';
import { InvalidBodyError } from '../errors.js';
import { errorDetails } from './validateQuery.js';

/** Parses a request body with its zod schema; every broken rule becomes one detail naming the field. */
export function validateBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new InvalidBodyError([{ field: 'body', rule: 'object', message: 'Send the fields as one object: JSON with Content-Type application/json, or a form' }]);
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw new InvalidBodyError(errorDetails(result.error, 'body'));
}

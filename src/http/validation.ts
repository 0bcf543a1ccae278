import type { z } from 'zod';
import type { ErrorDetail } from '../contract/schemas.js';
import { InvalidBodyError, InvalidParameterError } from './errors.js';

// Input parsed with its zod schema, every broken rule a typed error that names the field: plain
// functions the routes and the door's resolvers call, not middleware.

/** Parses a query with its zod schema; every broken rule becomes one detail naming the field. */
export function parseQuery<Schema extends z.ZodType>(schema: Schema, query: unknown): z.output<Schema> {
  const result = schema.safeParse(query);
  if (result.success) return result.data;
  throw new InvalidParameterError(errorDetails(result.error, 'query'));
}

/** Parses a request body with its zod schema; every broken rule becomes one detail naming the field. */
export function parseBody<Schema extends z.ZodType>(schema: Schema, body: unknown): z.output<Schema> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new InvalidBodyError([
      { field: 'body', rule: 'object', message: 'Send the fields as one object: JSON with Content-Type application/json, or a form' },
    ]);
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw new InvalidBodyError(errorDetails(result.error, 'body'));
}

/** One detail per zod issue; `whole` names the input when the issue is not about one field. */
export function errorDetails(error: z.ZodError, whole: string): ErrorDetail[] {
  return error.issues.map((issue) => {
    const params = 'params' in issue ? (issue.params as { rule?: string } | undefined) : undefined;
    return { field: issue.path.join('.') || whole, rule: params?.rule ?? issue.code, message: issue.message };
  });
}

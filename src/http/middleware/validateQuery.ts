import type { z } from 'zod';
import type { ErrorDetail } from '../../catalog/schemas.js';
import { InvalidParameterError } from '../errors.js';

/** Parses a query with its zod schema; every broken rule becomes one detail naming the field. */
export function validateQuery<Schema extends z.ZodType>(schema: Schema, query: unknown): z.output<Schema> {
  const result = schema.safeParse(query);
  if (result.success) return result.data;
  const details: ErrorDetail[] = result.error.issues.map((issue) => {
    const params = 'params' in issue ? (issue.params as { rule?: string } | undefined) : undefined;
    return { field: issue.path.join('.') || 'query', rule: params?.rule ?? issue.code, message: issue.message };
  });
  throw new InvalidParameterError(details);
}

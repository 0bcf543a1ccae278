import type { z } from 'zod';
import type { ErrorDetail } from '../../contract/schemas.js';
import { InvalidParameterError } from '../errors.js';

/** Parses a query with its zod schema; every broken rule becomes one detail naming the field. */
export function validateQuery<Schema extends z.ZodType>(schema: Schema, query: unknown): z.output<Schema> {
  const result = schema.safeParse(query);
  if (result.success) return result.data;
  throw new InvalidParameterError(errorDetails(result.error, 'query'));
}

/** One detail per zod issue; `whole` names the input when the issue is not about one field. */
export function errorDetails(error: z.ZodError, whole: string): ErrorDetail[] {
  return error.issues.map((issue) => {
    const params = 'params' in issue ? (issue.params as { rule?: string } | undefined) : undefined;
    return { field: issue.path.join('.') || whole, rule: params?.rule ?? issue.code, message: issue.message };
  });
}

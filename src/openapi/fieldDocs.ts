import type { z } from 'zod';

/** The JSON-schema hints a field carries in `.meta()` (see the query and report schemas). */
interface FieldHint {
  description?: string;
  type?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** A comma-separated list (`type: 'array'`): what each item is, and how many it takes at most. */
  items?: FieldHint;
  maxItems?: number;
  default?: string | number;
}

export interface FieldDoc {
  name: string;
  required: boolean;
  schema: FieldHint;
}

/**
 * Documents each field of an object schema from the schema itself: its hints from `.meta()`, and
 * whether it is required by asking the field's own parser about a missing value, so the docs
 * cannot claim a rule the validation does not apply.
 */
export function fieldDocs(object: z.ZodObject): FieldDoc[] {
  return Object.entries(object.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const { id: _id, ...hint } = (field.meta() ?? {}) as FieldHint & { id?: string };
    return { name, required: !field.safeParse(undefined).success, schema: hint };
  });
}

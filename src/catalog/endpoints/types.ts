import type { z } from 'zod';
import { NoParams } from '../../contract/params.js';
import type { ParsedPage } from '../../parsers/types.js';
import type { SitePathKind, UpstreamSite } from '../../upstream/sitePaths.js';

/** What an endpoint is asked: its path and query parameters, validated and merged. */
type Input<Params extends z.ZodObject, Query extends z.ZodObject> = z.output<Params> & z.output<Query>;

export interface Endpoint<
  Params extends z.ZodObject = z.ZodObject,
  Query extends z.ZodObject = z.ZodObject,
  Data extends z.ZodType = z.ZodType,
> {
  /** OpenAPI form: path parameters in braces, e.g. "/catalog/series/{slug}". */
  path: `/catalog/${string}`;
  summary: string;
  description: string;
  params: Params;
  query: Query;
  /** Params and query as one object: what routes validate and the service, cache key and parser receive. */
  input: z.ZodObject;
  data: Data;
  paginated: boolean;
  /** How long an answer stays fresh, in seconds, unless CACHE_TTL_OVERRIDES names the endpoint (see `freshSeconds`). */
  ttlSeconds: number;
  /** The path of the site `upstreamPath` is built on, learned before the first fetch (src/upstream/sitePaths.ts); none when it reads neither. */
  sitePath?: SitePathKind;
  upstreamPath(input: Input<Params, Query>, site: UpstreamSite): string;
  /** A second upstream page tried once when the first is a 404 (an episode's `-tamat-` URL); null when there is none. */
  fallbackPath?(input: Input<Params, Query>): string | null;
  parse(html: string, pageUrl: string, input: Input<Params, Query>): ParsedPage<z.output<Data>>;
}

type Definition<Params extends z.ZodObject, Query extends z.ZodObject, Data extends z.ZodType> = Omit<
  Endpoint<Params, Query, Data>,
  'params' | 'input'
> & { params?: Params };

export const MINUTE = 60;
export const HOUR = 60 * MINUTE;

/** One entry of the table; ties its parameter types to its functions while each group stays one list. */
export function endpoint<Query extends z.ZodObject, Data extends z.ZodType, Params extends z.ZodObject = typeof NoParams>(
  definition: Definition<Params, Query, Data>,
): Endpoint<Params, Query, Data> {
  const params = (definition.params ?? NoParams) as Params;
  return { ...definition, params, input: params.extend(definition.query.shape) };
}

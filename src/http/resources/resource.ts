import type { IncomingMessage } from 'node:http';
import type { NoSideEffects } from '../../catalog/answer.js';
import type { Representation } from '../apiAnswer.js';

/** A request a resource resolved: what it names and the route label of its log line and metrics, or why it is refused. */
export type Resolution<Request> =
  | { route: string; request: Request; error?: undefined }
  /** `route` is undefined when the path names nothing the resource can label (a malformed parameter). */
  | { route: string | undefined; request?: undefined; error: Error };

/**
 * One kind of API resource behind the door (src/http/door.ts): the catalog, the feeds, the export.
 * The door owns every path whose first segment is `segment` (resolved as a file server would, any
 * case), so no such path ever reaches a page or a static file; it resolves the request with
 * `resolve`, answers a conditional request for free from what `answer` finds held without side
 * effects when it can, counts everything else against the quota, and only then calls `answer`.
 * Adding a kind of resource is one object of this shape in the door's table (src/app.ts).
 */
export interface ApiResource<Request = unknown> {
  /** The first path segment, lower case: "catalog" for /catalog/*. */
  readonly segment: string;
  /**
   * Match and validation, once per request (the door remembers a valid resolution per URL):
   * undefined when the path names nothing of this resource (a 404). Pure: no fetch, no cache lookup.
   */
  resolve(method: string, pathname: string, rawQuery: string): Resolution<Request> | undefined;
  /**
   * Without side effects, for a conditional request not counted: the answer the service holds now,
   * synchronously, if any, without starting a refresh or a fetch and without keeping anything for
   * the request. Answered 304 when it matches.
   */
  answer(request: Request, req: IncomingMessage, pathname: string, options: NoSideEffects): Representation | undefined;
  /** The answer, once the request is counted: the one held (a stale one starts its refresh) or one fetch. */
  answer(request: Request, req: IncomingMessage, pathname: string): Representation | Promise<Representation>;
}

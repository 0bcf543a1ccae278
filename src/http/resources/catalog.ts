import type { CatalogAnswer, NoSideEffects } from '../../catalog/answer.js';
import type { AnyEndpoint } from '../../catalog/endpoints/index.js';
import type { IncomingMessage } from 'node:http';
import type { CatalogResult } from '../../catalog/answerLifecycle.js';
import type { CatalogService } from '../../catalog/service.js';
import { ageSecondsOf, cacheHeaders, type Representation } from '../apiAnswer.js';
import { resolveCatalogRequest } from '../catalogRequest.js';
import type { ApiResource } from './resource.js';

export interface ResolvedCatalogRequest {
  endpoint: AnyEndpoint;
  input: Record<string, unknown>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** /catalog/*: the endpoint table's answers, from the catalog's cache or one upstream fetch. */
export function catalogResource(catalog: CatalogService, now: () => number): ApiResource<ResolvedCatalogRequest> {
  // Each cached answer's representation, built once per second of its Age and per X-Cache: the
  // hits of that second share it, headers and all (for speed only; a MISS is built once anyway).
  const served = new WeakMap<CatalogAnswer, { ageSeconds: number; representation: Representation }>();
  const representation = (result: CatalogResult): Representation => {
    const ageSeconds = ageSecondsOf(result.answer, now());
    const built = served.get(result.answer);
    if (built !== undefined && built.ageSeconds === ageSeconds && built.representation.cacheStatus === result.cacheStatus)
      return built.representation;
    const fresh: Representation = {
      body: result.answer.body,
      contentType: JSON_TYPE,
      etag: result.answer.etag,
      headers: cacheHeaders(result, ageSeconds),
      cacheStatus: result.cacheStatus,
      upstream: result.upstream,
    };
    if (result.cacheStatus !== 'MISS') served.set(result.answer, { ageSeconds, representation: fresh });
    return fresh;
  };
  function answer(
    request: ResolvedCatalogRequest,
    req: IncomingMessage,
    pathname: string,
    options: NoSideEffects,
  ): Representation | undefined;
  function answer(request: ResolvedCatalogRequest): Representation | Promise<Representation>;
  function answer(
    { endpoint, input }: ResolvedCatalogRequest,
    _req?: IncomingMessage,
    _pathname?: string,
    options?: NoSideEffects,
  ): Representation | Promise<Representation> | undefined {
    if (options !== undefined) {
      const held = catalog.answer(endpoint, input, options);
      return held && representation(held);
    }
    const result = catalog.answer(endpoint, input);
    return result instanceof Promise ? result.then(representation) : representation(result);
  }
  return {
    segment: 'catalog',
    resolve(method, pathname, rawQuery) {
      const resolved = resolveCatalogRequest(method, pathname, rawQuery);
      if (resolved === undefined) return undefined;
      if (resolved.error !== undefined) return { route: resolved.endpoint?.path, error: resolved.error };
      return { route: resolved.endpoint.path, request: resolved };
    },
    answer,
  };
}

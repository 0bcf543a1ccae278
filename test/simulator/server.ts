import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createCatalogControls, type CatalogControls } from './catalogControls.js';
import { SERIES } from './dataset.js';
import { FaultSet, planFaults, SITE_DOWN_FAULTS, type Fault, type FaultPlan, type SiteDownMode } from './faults.js';
import { catalogSeries } from './largeCatalog.js';
import { LiveCatalog } from './liveCatalog.js';
import type { PageContext } from './pages/context.js';
import { withNotText } from './pages/notText.js';
import { pathologicalPage } from './pages/pathological.js';
import { redesign } from './pages/redesign.js';
import { RenderedPages } from './renderedPages.js';
import { challengeResponse, faultResponse, methodNotAllowed, send, siteResponse, type SimResponse } from './responses.js';
import { resolveRoute } from './router.js';
import { answerRoute } from './site.js';
import { seriesOfVariant, variantFromEnv, VARIANTS, type SeriesBase, type VariantName } from './variant.js';
import { createWall, type Wall, type WallOptions, type WallStats } from './wall.js';

/**
 * A loopback upstream that answers like the real WordPress site (AnimeStream theme) behind
 * Cloudflare, with switchable faults. Used by tests, benchmarks and `npm run demo`.
 */

export type { SiteDownMode } from './faults.js';
export { SITE_DOWN_MODES } from './faults.js';
export type { WallOptions } from './wall.js';

export interface SimulatorOptions {
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** The theme profile (see variant.ts); `SIM_PROFILE`, else `cafe`, when absent. */
  readonly variant?: VariantName;
  /** Added before every answer. */
  readonly latencyMs?: number;
  readonly faults?: readonly Fault[];
  /** A Cloudflare-like wall in front of every page: no valid clearance, no page (see wall.ts). */
  readonly wall?: WallOptions;
  /**
   * How many series the site lists: the default dataset (96) when absent; more (the real site has
   * about 1,500) adds generated series with Chinese, pinyin, English and Indonesian names; fewer
   * keeps the dataset's oldest posts.
   */
  readonly catalogSize?: number;
  /** The whole site down from the start (see `setSiteDown`). */
  readonly siteDown?: SiteDownMode;
}

interface Hit {
  readonly method: string;
  /** Path plus query, as requested. */
  readonly path: string;
  readonly at: number;
}

export interface Simulator extends CatalogControls {
  /** e.g. `http://127.0.0.1:43123` */
  readonly origin: string;
  readonly variant: VariantName;
  /** What pages are built from now: the origin, the profile (with its series path as moved) and the catalog. */
  pageContext(): PageContext;
  /**
   * The site moves its series pages to `base` (`/seri/`, `/anime/` or `/`), as a site does when its
   * settings change: pages link there from now on, and the old series paths answer 404.
   */
  moveSeriesPath(base: SeriesBase): void;
  /** Every request received, oldest first. */
  readonly hits: readonly Hit[];
  /** Requests whose path+query starts with `pathPrefix` (all when omitted). */
  hitCount(pathPrefix?: string): number;
  resetHits(): void;
  /** Replaces the active faults (their `times` counters start afresh). */
  setFaults(faults: readonly Fault[]): void;
  clearFaults(): void;
  /** Puts up a fresh wall (new secret, zeroed stats), or takes it down with null. */
  setWall(options: WallOptions | null): void;
  /**
   * Takes the whole site down in `mode` for every path and every client, before the wall and the
   * faults; null brings it back as it was (wall and faults included).
   */
  setSiteDown(mode: SiteDownMode | null): void;
  /** What the wall has done; all zero when there is none. */
  wallStats(): WallStats;
  /** A clearance cookie value for this IP and User-Agent, as a solver would earn it. */
  mintClearance(ip: string, userAgent: string): string;
  /** The series the site lists now, changed by the controls; pass it to catalog.ts / listings.ts helpers for expectations. */
  readonly catalog: LiveCatalog;
  /** Stops listening and destroys open connections, including hung ones. */
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function originOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** A Cloudflare-like Ray ID, different for every request and the same on every run. */
function rayId(sequence: number): string {
  const high = (Math.imul(sequence + 1, 0x9e3779b1) >>> 0).toString(16).padStart(8, '0');
  const low = (Math.imul(sequence + 7, 0x85ebca6b) >>> 0).toString(16).padStart(8, '0');
  return `${high}${low}-SIN`;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const variantName = options.variant ?? variantFromEnv();
  const baseLatency = options.latencyMs ?? 0;
  const hits: Hit[] = [];
  const faults = new FaultSet();
  faults.replace(options.faults ?? []);
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let context: PageContext | null = null;
  const rendered = new RenderedPages();
  const catalog = new LiveCatalog(
    seriesOfVariant(VARIANTS[variantName], options.catalogSize === undefined ? SERIES : catalogSeries(options.catalogSize)),
  );
  const controls = createCatalogControls(catalog, 0xadd + catalog.series.length);
  let wall: Wall | null = options.wall ? createWall(options.wall) : null;
  let siteDown: SiteDownMode | null = options.siteDown ?? null;
  let sequence = 0;
  let closed = false;

  const wait = (ms: number): Promise<void> =>
    ms <= 0
      ? Promise.resolve()
      : new Promise((resolve) => {
          const timer = setTimeout(() => {
            timers.delete(timer);
            resolve();
          }, ms);
          timers.add(timer);
        });

  function pageResponse(ctx: PageContext, pathWithQuery: string, ray: string, plan: FaultPlan): SimResponse {
    const page = rendered.page(ctx, catalog.version, pathWithQuery, () =>
      // Absolute-form or `*` request targets are not pages of the site.
      answerRoute(
        ctx,
        pathWithQuery.startsWith('/') ? resolveRoute(new URL(`${ctx.origin}${pathWithQuery}`), ctx.variant) : { kind: 'notFound' },
      ),
    );
    const response = siteResponse(page.answer, ctx.origin, ray);
    if (!plan.redesign && !plan.notText && plan.pathological === null && plan.cutOffAt === null) return { ...response, body: page.body };
    let body = page.body.utf8.toString('utf8');
    if (plan.redesign) body = redesign(body);
    if (plan.notText) body = withNotText(body);
    if (plan.pathological !== null) body = pathologicalPage(body, plan.pathological);
    if (plan.cutOffAt !== null) body = body.slice(0, Math.floor(body.length * plan.cutOffAt));
    return { ...response, body };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, ctx: PageContext): Promise<void> {
    const pathWithQuery = req.url ?? '/';
    const method = req.method ?? 'GET';
    hits.push({ method, path: pathWithQuery, at: Date.now() });
    const ray = rayId(sequence++);
    const down = siteDown;
    if (
      down === null &&
      wall !== null &&
      answerAtTheWall(wall, req, res, ctx, pathWithQuery, ray, method === 'POST' ? await readBody(req) : '')
    )
      return;
    const plan = planFaults(down === null ? faults.take(pathWithQuery) : [SITE_DOWN_FAULTS[down]]);
    await wait(baseLatency + plan.delayMs);
    if (closed || plan.terminal?.kind === 'hang') return;
    let response: SimResponse;
    if (method !== 'GET' && method !== 'HEAD') response = methodNotAllowed(ray);
    else if (plan.terminal?.kind === 'not-found') response = siteResponse(answerRoute(ctx, { kind: 'notFound' }), ctx.origin, ray);
    else if (plan.terminal !== null) response = faultResponse(plan.terminal, pathWithQuery, ctx.host, ray);
    else response = pageResponse(ctx, pathWithQuery, ray, plan);
    send(req, res, response, plan.bytesPerSecond, timers);
  }

  /** The wall's own paths, and the challenge for anyone without a clearance; false lets the request through. */
  function answerAtTheWall(
    active: Wall,
    req: IncomingMessage,
    res: ServerResponse,
    ctx: PageContext,
    pathWithQuery: string,
    ray: string,
    body: string,
  ): boolean {
    const own = active.handleOwnPath(req, pathWithQuery, body);
    if (own !== null) {
      send(req, res, own, null, timers);
      return true;
    }
    if (active.admits(req)) return false;
    const { difficulty, minSolveMs } = active.options;
    const live = {
      nonce: active.nonceFor(req, ray.split('-')[0] ?? ray),
      difficulty,
      minSolveMs,
      returnUrl: `${ctx.origin}${pathWithQuery}`,
    };
    send(req, res, challengeResponse(ctx.host, ray, live), null, timers);
    return true;
  }

  const server = createServer((req, res) => {
    if (context === null) return;
    handle(req, res, context).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=UTF-8' });
      res.end(`simulator error: ${String(error)}`);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const origin = originOf(server.address() as AddressInfo);
  context = { origin, host: new URL(origin).host, variant: VARIANTS[variantName], catalog };

  return {
    origin,
    variant: variantName,
    pageContext: () => context!,
    moveSeriesPath: (base) => {
      context = { ...context!, variant: { ...context!.variant, seriesBase: base } };
    },
    hits,
    hitCount: (pathPrefix = '') => hits.filter((hit) => hit.path.startsWith(pathPrefix)).length,
    resetHits: () => {
      hits.length = 0;
    },
    setFaults: (list) => faults.replace(list),
    clearFaults: () => faults.replace([]),
    setSiteDown: (mode) => {
      siteDown = mode;
    },
    setWall: (wallOptions) => {
      wall = wallOptions ? createWall(wallOptions) : null;
    },
    wallStats: () => ({ ...(wall?.stats ?? { challenged: 0, solved: 0, rejected: 0, passed: 0, passedSameOrigin: 0 }) }),
    mintClearance: (ip, userAgent) => {
      if (wall === null) throw new Error('mintClearance needs a wall');
      return wall.mintClearance(ip, userAgent);
    },
    catalog,
    ...controls,
    close: async () => {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await stopped;
    },
  };
}

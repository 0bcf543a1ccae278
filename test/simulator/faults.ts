import type { PathologicalShape } from './pages/pathological.js';

/**
 * Failures the simulator can inject. Each fault may be limited to requests whose path+query starts
 * with `pathPrefix`, and to the next `times` matching requests.
 */
interface FaultScope {
  readonly pathPrefix?: string;
  readonly times?: number;
}

export type Fault = FaultScope &
  (
    | { readonly kind: 'latency'; readonly ms: number }
    /** A plain origin error page with this status (e.g. 500, 502, 503; a 404 so is a bare one, not WordPress's). */
    | { readonly kind: 'status'; readonly status: number }
    /** The theme's own 404 page, as WordPress answers for a page that was taken down. */
    | { readonly kind: 'not-found' }
    /** Accept the request and never answer. */
    | { readonly kind: 'hang' }
    /** Cloudflare managed challenge: 403 + `cf-mitigated: challenge`. */
    | { readonly kind: 'challenge' }
    /** Legacy "I'm Under Attack" style: 503 with the challenge page, no `cf-mitigated`. */
    | { readonly kind: 'challenge-body-only' }
    /** Same pages, redesigned so no theme selector matches. */
    | { readonly kind: 'layout-change' }
    /** Domain move: 301 to `location` + the requested path. */
    | { readonly kind: 'redirect'; readonly location: string }
    /** The body is sent at this rate. */
    | { readonly kind: 'trickle'; readonly bytesPerSecond: number }
    /** Cloudflare rate limiting: 429, `Retry-After` and the error 1015 page. */
    | { readonly kind: 'rate-limit'; readonly retryAfterSeconds: number }
    /** A Cloudflare firewall rule: 403 and the error 1020 page ("Sorry, you have been blocked"). */
    | { readonly kind: 'block' }
    /** A parked domain: 200 with a page that is not WordPress at all. */
    | { readonly kind: 'parked' }
    /** The page stops after this share of its characters, a complete HTTP answer as PHP sends when it dies mid-render. */
    | { readonly kind: 'cut-off'; readonly fraction: number }
    /** About 1 MB of markup no real page has, in the page's main column (pages/pathological.ts). */
    | { readonly kind: 'pathological'; readonly shape: PathologicalShape }
    /** Control characters and noncharacters, raw and as references, in every text of the page (pages/notText.ts). */
    | { readonly kind: 'not-text' }
  );

/**
 * The whole site down at once, whatever the path and whoever asks: every page answers 503, every
 * client meets the challenge wall (a clearance does not help), no page ever answers, every page
 * comes in a layout no theme selector matches, or every path answers a bare 404 (no WordPress
 * page: a parked or misconfigured domain, a web server whose site is gone).
 */
export type SiteDownMode = 'unavailable' | 'challenge' | 'timeout' | 'layout-change' | 'bare-404';

export const SITE_DOWN_MODES: readonly SiteDownMode[] = ['unavailable', 'challenge', 'timeout', 'layout-change', 'bare-404'];

/** The fault every request meets while the site is down in `mode`. */
export const SITE_DOWN_FAULTS: Record<SiteDownMode, Fault> = {
  unavailable: { kind: 'status', status: 503 },
  challenge: { kind: 'challenge' },
  timeout: { kind: 'hang' },
  'layout-change': { kind: 'layout-change' },
  'bare-404': { kind: 'status', status: 404 },
};

const TERMINAL_KINDS = [
  'status',
  'not-found',
  'hang',
  'challenge',
  'challenge-body-only',
  'redirect',
  'rate-limit',
  'block',
  'parked',
] as const;

export type TerminalFault = Extract<Fault, { kind: (typeof TERMINAL_KINDS)[number] }>;

/** How the faults that matched one request shape its answer. */
export interface FaultPlan {
  /** Added to the simulator's base latency, before any answer. */
  readonly delayMs: number;
  /** Replaces the page; the first matching one wins. */
  readonly terminal: TerminalFault | null;
  readonly redesign: boolean;
  readonly bytesPerSecond: number | null;
  /** Share of the page's characters sent; null sends it whole. */
  readonly cutOffAt: number | null;
  readonly pathological: PathologicalShape | null;
  readonly notText: boolean;
}

function isTerminal(fault: Fault): fault is TerminalFault {
  return (TERMINAL_KINDS as readonly string[]).includes(fault.kind);
}

export function planFaults(faults: readonly Fault[]): FaultPlan {
  let delayMs = 0;
  let bytesPerSecond: number | null = null;
  for (const fault of faults) {
    if (fault.kind === 'latency') delayMs += fault.ms;
    if (fault.kind === 'trickle' && bytesPerSecond === null) bytesPerSecond = fault.bytesPerSecond;
  }
  return {
    delayMs,
    terminal: faults.find(isTerminal) ?? null,
    redesign: faults.some((fault) => fault.kind === 'layout-change'),
    bytesPerSecond,
    cutOffAt: faults.find((fault) => fault.kind === 'cut-off')?.fraction ?? null,
    pathological: faults.find((fault) => fault.kind === 'pathological')?.shape ?? null,
    notText: faults.some((fault) => fault.kind === 'not-text'),
  };
}

/** The active faults and how many uses each has left. */
export class FaultSet {
  #entries: { readonly fault: Fault; remaining: number }[] = [];

  replace(faults: readonly Fault[]): void {
    this.#entries = faults.map((fault) => ({ fault, remaining: fault.times ?? Number.POSITIVE_INFINITY }));
  }

  /** The faults that apply to this request; each one taken uses up one of its `times`. */
  take(pathWithQuery: string): Fault[] {
    const taken: Fault[] = [];
    for (const entry of this.#entries) {
      if (entry.remaining <= 0 || !pathWithQuery.startsWith(entry.fault.pathPrefix ?? '')) continue;
      entry.remaining -= 1;
      taken.push(entry.fault);
    }
    return taken;
  }
}

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * A Cloudflare-like wall in front of the simulated site. It emulates the protocol of a managed
 * challenge, not Cloudflare's judgement: a request without a valid `cf_clearance` gets the
 * challenge page, whose script must run (a SHA-256 proof of work over `navigator.userAgent`, then
 * a POST) to earn the cookie. The cookie is bound to the client's IP and User-Agent and expires,
 * and the nonce is an HMAC, so nothing is stored per visitor.
 */

export interface WallOptions {
  /** Lifetime of a clearance cookie (default 30 minutes, Cloudflare's default passage). */
  readonly clearanceTtlMs?: number;
  /** Leading zero hex digits the proof of work needs (default 2). */
  readonly difficulty?: number;
  /** The shortest time a solve may take, as Cloudflare's interstitial waits (default 300 ms). */
  readonly minSolveMs?: number;
  /**
   * `browser-only` admits a clearance only on requests a page makes (`Sec-Fetch-Site:
   * same-origin`): a stand-in for Cloudflare binding clearance to the browser's TLS fingerprint,
   * which loopback HTTP cannot model. A plain client's handed-over cookie is then refused.
   */
  readonly handOff?: 'any' | 'browser-only';
  /** The wall's clock, for clearance expiry and solve ages; tests move it to expire a clearance at once. */
  readonly now?: () => number;
}

export interface WallStats {
  /** Challenge pages served. */
  challenged: number;
  /** Proofs accepted (clearances issued). */
  solved: number;
  /** Proofs refused (bad work, automation, too fast, wrong IP or UA). */
  rejected: number;
  /** Requests let through with a valid clearance. */
  passed: number;
  /** Of those, the requests a page of the site made itself (Sec-Fetch-Site: same-origin), such as the challenge's reload in the solving browser. */
  passedSameOrigin: number;
}

const CHALLENGE_SCRIPT_PATH = '/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1';
const FLOW_PATH = '/cdn-cgi/challenge-platform/h/b/flow/ov1/';
const NONCE_LIFETIME_MS = 5 * 60 * 1000;

// Runs in the browser: the work Cloudflare's orchestrate script stands for.
const CHALLENGE_SCRIPT = `(async () => {
  const o = window._cf_chl_opt;
  const started = Date.now();
  const prefix = '0'.repeat(o.cDiff);
  const encoder = new TextEncoder();
  let answer = 0;
  for (;;) {
    const digest = await crypto.subtle.digest('SHA-256', encoder.encode(o.cN + ':' + navigator.userAgent + ':' + answer));
    const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
    if (hex.startsWith(prefix)) break;
    answer++;
  }
  const wait = Number(o.cTTimeMs) - (Date.now() - started);
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const response = await fetch('${FLOW_PATH}' + o.cRay, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ nonce: o.cN, answer, wd: navigator.webdriver }),
  });
  if (response.ok) location.replace(atob(o.cRq.ru));
})();`;

interface WallAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Wall {
  readonly stats: WallStats;
  readonly options: Required<WallOptions>;
  /** True when the request carries a clearance valid for its IP and User-Agent. */
  admits(req: IncomingMessage): boolean;
  /** The nonce a challenge page hands to this client. */
  nonceFor(req: IncomingMessage, ray: string): string;
  /** Answers the wall's own paths (script and proof POST); null for every other path. */
  handleOwnPath(req: IncomingMessage, path: string, body: string): WallAnswer | null;
  /** A clearance cookie value, as a solver would have earned it (browser-free tests). */
  mintClearance(ip: string, userAgent: string): string;
}

/** The client's address as the wall sees it (IPv4-mapped IPv6 unwrapped). */
function clientIp(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}

export function createWall(input: WallOptions = {}): Wall {
  const options: Required<WallOptions> = {
    clearanceTtlMs: input.clearanceTtlMs ?? 30 * 60 * 1000,
    difficulty: input.difficulty ?? 2,
    minSolveMs: input.minSolveMs ?? 300,
    handOff: input.handOff ?? 'any',
    now: input.now ?? Date.now,
  };
  const { now } = options;
  const secret = randomBytes(32);
  const stats: WallStats = { challenged: 0, solved: 0, rejected: 0, passed: 0, passedSameOrigin: 0 };
  const sign = (...parts: string[]) => createHmac('sha256', secret).update(parts.join('|')).digest('base64url');
  const userAgentOf = (req: IncomingMessage) => req.headers['user-agent'] ?? '';

  function same(a: string, b: string): boolean {
    const left = Buffer.from(a);
    const right = Buffer.from(b);
    return left.length === right.length && timingSafeEqual(left, right);
  }

  function mintClearance(ip: string, userAgent: string): string {
    const expires = now() + options.clearanceTtlMs;
    return `${expires}.${sign(String(expires), ip, userAgent)}`;
  }

  function admits(req: IncomingMessage): boolean {
    const cookie = /(?:^|;\s*)cf_clearance=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    if (cookie === undefined) return false;
    const [expires, signature] = cookie.split('.');
    if (expires === undefined || signature === undefined || Number(expires) <= now()) return false;
    if (!same(signature, sign(expires, clientIp(req), userAgentOf(req)))) return false;
    if (options.handOff === 'browser-only' && req.headers['sec-fetch-site'] !== 'same-origin') return false;
    stats.passed++;
    if (req.headers['sec-fetch-site'] === 'same-origin') stats.passedSameOrigin++;
    return true;
  }

  function nonceFor(req: IncomingMessage, ray: string): string {
    stats.challenged++;
    const issued = String(now());
    return `${issued}.${sign(issued, ray, clientIp(req), userAgentOf(req))}`;
  }

  /** Checks a proof against the POST's own IP and User-Agent; a clearance for someone else is worthless. */
  function acceptsProof(req: IncomingMessage, ray: string, body: string): boolean {
    let proof: { nonce?: unknown; answer?: unknown; wd?: unknown };
    try {
      proof = JSON.parse(body) as typeof proof;
    } catch {
      return false;
    }
    const userAgent = userAgentOf(req);
    if (typeof proof.nonce !== 'string' || typeof proof.answer !== 'number') return false;
    const [issued, signature] = proof.nonce.split('.');
    if (issued === undefined || signature === undefined) return false;
    const age = now() - Number(issued);
    const work = createHash('sha256').update(`${proof.nonce}:${userAgent}:${proof.answer}`).digest('hex');
    return (
      same(signature, sign(issued, ray, clientIp(req), userAgent)) &&
      age >= options.minSolveMs &&
      age <= NONCE_LIFETIME_MS &&
      work.startsWith('0'.repeat(options.difficulty)) &&
      proof.wd === false &&
      !userAgent.includes('HeadlessChrome')
    );
  }

  function handleOwnPath(req: IncomingMessage, path: string, body: string): WallAnswer | null {
    if (req.method === 'GET' && path.split('?')[0] === CHALLENGE_SCRIPT_PATH)
      return {
        status: 200,
        headers: { 'content-type': 'application/javascript; charset=UTF-8', 'cache-control': 'no-store' },
        body: CHALLENGE_SCRIPT,
      };
    if (req.method !== 'POST' || !path.startsWith(FLOW_PATH)) return null;
    if (!acceptsProof(req, path.slice(FLOW_PATH.length), body)) {
      stats.rejected++;
      return { status: 403, headers: { 'content-type': 'application/json' }, body: '{"ok":false}' };
    }
    stats.solved++;
    const value = mintClearance(clientIp(req), userAgentOf(req));
    const expires = new Date(Number(value.split('.')[0])).toUTCString();
    return {
      status: 200,
      headers: { 'content-type': 'application/json', 'set-cookie': `cf_clearance=${value}; Path=/; Expires=${expires}; HttpOnly` },
      body: '{"ok":true}',
    };
  }

  return { stats, options, admits, nonceFor, handleOwnPath, mintClearance };
}

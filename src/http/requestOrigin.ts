import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Application, Request } from 'express';
import proxyaddr from 'proxy-addr';

// The one place that says who a request comes from and where it reached us, by the TRUST_PROXY
// rule Express compiled (and PUBLIC_URL): for the API's door in front of Express and for Express's
// own routes alike.

/** Express's compiled `trust proxy` rule: whether the hop at `index` (0: the socket's peer) is a trusted proxy. */
export type TrustProxy = (address: string, index: number) => boolean;

/** The caller's address as Express's `req.ip` computes it (proxy-addr), from the socket and trusted proxies only. */
export function addressOf(req: IncomingMessage, trustProxy: TrustProxy): string {
  // Without X-Forwarded-For, proxy-addr's answer is the socket's peer whatever the rule: asking it
  // would only parse the missing header, on every request. A socket that closed before this was
  // asked has no address left.
  if (!req.headers['x-forwarded-for']) return req.socket.remoteAddress ?? 'unknown';
  const address: string | undefined = proxyaddr(req, trustProxy);
  return address ?? 'unknown';
}

/** How the service names its own origin in what it builds: PUBLIC_URL when it is set, else from each request. */
export interface OriginRule {
  trustProxy: TrustProxy;
  /** PUBLIC_URL, an origin (`https://api.example`) with no trailing slash. */
  publicUrl: string | undefined;
}

// A Host header that names a host: DNS labels (underscores too, as container names have them), an
// IPv4 address or a bracketed IPv6 one, and a port. Anything else (quotes, angle brackets, spaces)
// is no name a client reached us at; refusing it here means every origin this module gives is
// plain text that no HTML, JSON, JavaScript or shell escaping changes, so a page built once with a
// placeholder for the origin can take any of them unescaped.
const PLAIN_HOST = /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/;
const MAX_HOST_LENGTH = 261;

/**
 * The service's public origin for this request (`https://host:port`), what links in pages, feeds,
 * the export and /openapi.json are built on: PUBLIC_URL when set. Otherwise where the client
 * reached this instance, as `trust proxy` lets Express see it: Express's own req.protocol rule
 * (X-Forwarded-Proto from a trusted peer only, and only http or https) and the Host header when it
 * is a plain host (lower-cased), else the address of the socket the request came in on.
 */
export function originOf(req: IncomingMessage, { trustProxy, publicUrl }: OriginRule): string {
  if (publicUrl !== undefined) return publicUrl;
  const ownProtocol = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const forwarded = trustProxy(req.socket.remoteAddress ?? '', 0) ? req.headers['x-forwarded-proto'] : undefined;
  const named = typeof forwarded === 'string' ? forwarded.split(',')[0]!.trim().toLowerCase() : '';
  const protocol = named === 'http' || named === 'https' ? named : ownProtocol;
  const host = req.headers.host?.toLowerCase() ?? '';
  return `${protocol}://${host.length <= MAX_HOST_LENGTH && PLAIN_HOST.test(host) ? host : socketHost(req)}`;
}

function socketHost(req: IncomingMessage): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  return `${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort ?? 80}`;
}

/**
 * Whether what is built on originOf differs by the request's Host: it does unless PUBLIC_URL is
 * set. Such answers say `Vary: Host`, so that a shared cache never hands one built for a forged
 * Host to anyone else.
 */
export const variesByHost = (rule: OriginRule): boolean => rule.publicUrl === undefined;

/** The rule of an Express app: its compiled `trust proxy` and its `public url` setting (PUBLIC_URL, set in app.ts). */
export function originRuleOf(app: Application): OriginRule {
  return { trustProxy: app.get('trust proxy fn') as TrustProxy, publicUrl: app.get('public url') as string | undefined };
}

/** addressOf for an Express route. */
export const requestAddress = (req: Request) => addressOf(req, originRuleOf(req.app).trustProxy);

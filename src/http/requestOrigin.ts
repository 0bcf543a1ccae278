import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Request } from 'express';
import proxyaddr from 'proxy-addr';

// The one place that says who a request comes from and where it reached us, by the TRUST_PROXY
// rule Express compiled: for the door in front of Express and for Express's own routes alike.

/** Express's compiled `trust proxy` rule: whether the hop at `index` (0: the socket's peer) is a trusted proxy. */
export type TrustProxy = (address: string, index: number) => boolean;

/** The caller's address as Express's `req.ip` computes it (proxy-addr), from the socket and trusted proxies only. */
export function addressOf(req: IncomingMessage, trustProxy: TrustProxy): string {
  // A socket that closed before this was asked has no address left.
  const address: string | undefined = proxyaddr(req, trustProxy);
  return address ?? 'unknown';
}

/**
 * The origin the client reached this instance at (`https://host:port`), as `trust proxy` lets
 * Express see it: Express's own req.protocol rule (X-Forwarded-Proto from a trusted peer only) and
 * the Host header.
 */
export function originOf(req: IncomingMessage, trustProxy: TrustProxy): string {
  const ownProtocol = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const forwarded = trustProxy(req.socket.remoteAddress ?? '', 0) ? req.headers['x-forwarded-proto'] : undefined;
  const protocol = typeof forwarded === 'string' && forwarded !== '' ? forwarded.split(',')[0]!.trim() : ownProtocol;
  return `${protocol}://${req.headers.host}`;
}

const trustOf = (req: Request) => req.app.get('trust proxy fn') as TrustProxy;

/** originOf for an Express route. */
export const requestOrigin = (req: Request) => originOf(req, trustOf(req));

/** addressOf for an Express route. */
export const requestAddress = (req: Request) => addressOf(req, trustOf(req));

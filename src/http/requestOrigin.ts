import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Request } from 'express';

/** Express's compiled `trust proxy` rule: whether the hop at `index` (0: the socket's peer) is a trusted proxy. */
export type TrustProxy = (address: string, index: number) => boolean;

/**
 * The origin the client reached this instance at (`https://host:port`), as `trust proxy` lets
 * Express see it: Express's own req.protocol rule (X-Forwarded-Proto from a trusted peer only) and
 * the Host header, for requests Express never sees as well.
 */
export function originOf(req: IncomingMessage, trustProxy: TrustProxy): string {
  const ownProtocol = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const forwarded = trustProxy(req.socket.remoteAddress ?? '', 0) ? req.headers['x-forwarded-proto'] : undefined;
  const protocol = typeof forwarded === 'string' && forwarded !== '' ? forwarded.split(',')[0]!.trim() : ownProtocol;
  return `${protocol}://${req.headers.host}`;
}

export const requestOrigin = (req: Request) => originOf(req, req.app.get('trust proxy fn') as TrustProxy);

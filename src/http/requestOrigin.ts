import type { Request } from 'express';

/** The origin the client reached this instance at (`https://host:port`), as `trust proxy` lets Express see it. */
export const requestOrigin = (req: Request) => `${req.protocol}://${req.get('host')}`;

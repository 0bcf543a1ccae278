import { createServer } from 'node:net';

/**
 * Below Linux's ephemeral range (32768–60999): no outgoing connection takes one of these ports as
 * its own, so a server killed and started again on its port (a Redis outage) finds it free, while
 * test files in parallel workers open thousands of connections.
 */
const LOWEST = 20_000;
const HIGHEST = 32_767;

function bindsOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A loopback TCP port free right now, for a server a test or the bench starts itself. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = LOWEST + Math.floor(Math.random() * (HIGHEST - LOWEST + 1));
    if (await bindsOn(port)) return port;
  }
}

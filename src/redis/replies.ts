import type { ChainableCommander } from 'ioredis';

/** Runs a MULTI or pipeline and gives its replies; throws its first failed command's error, which exec itself does not. */
export async function execAll(batch: ChainableCommander): Promise<unknown[]> {
  const results = (await batch.exec()) ?? [];
  const failed = results.find(([error]) => error !== null)?.[0];
  if (failed) throw failed;
  return results.map(([, result]) => result);
}

/** A stored JSON text as a value, or undefined when it is not JSON (a schema then refuses it). */
export function parseJsonReply(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
}

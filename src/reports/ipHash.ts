import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const SALT_FILE = 'ip-hash.salt';
const SALT_BYTES = 32;

/**
 * The salt of the IP hashes, made once per DATA_DIR and kept beside the reports: hashes stay
 * comparable across restarts (one sender's reports can be grouped) but cannot be reversed by
 * hashing every IPv4 address without it.
 */
export async function loadIpHashSalt(dataDir: string): Promise<Buffer> {
  const path = join(dataDir, SALT_FILE);
  try {
    return parseSalt(await readFile(path, 'utf8'), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true });
  try {
    // "wx": when two processes race, one creates it and the other reads what won.
    await writeFile(path, `${randomBytes(SALT_BYTES).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parseSalt(await readFile(path, 'utf8'), path);
}

function parseSalt(text: string, path: string): Buffer {
  const hex = text.trim();
  if (!/^[0-9a-f]+$/.test(hex) || hex.length !== SALT_BYTES * 2)
    throw new Error(`${path} must hold ${SALT_BYTES} bytes as hex; delete it to make a new salt`);
  return Buffer.from(hex, 'hex');
}

export function hashIp(salt: Buffer, ip: string): string {
  return createHmac('sha256', salt).update(ip).digest('hex');
}

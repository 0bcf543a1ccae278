import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomically } from '../files/atomicFile.js';

const SALT_FILE = 'ip-hash.salt';
const SALT_BYTES = 32;

/**
 * The salt of the IP hashes, kept beside the reports (made once per DATA_DIR, or with REDIS_URL a
 * copy of the service's one): hashes stay comparable across restarts and instances (one sender's
 * reports can be grouped) but cannot be reversed by hashing every IPv4 address without it.
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

/** Replaces this DATA_DIR's salt with the service's shared one. */
export async function saveIpHashSalt(dataDir: string, salt: Buffer): Promise<void> {
  await writeFileAtomically(join(dataDir, SALT_FILE), `${salt.toString('hex')}\n`, { mode: 0o600 });
}

/** The salt written as hex, refused unless it is exactly SALT_BYTES long. */
export function parseSalt(text: string, path: string): Buffer {
  const hex = text.trim();
  if (!/^[0-9a-f]+$/.test(hex) || hex.length !== SALT_BYTES * 2)
    throw new Error(`${path} must hold ${SALT_BYTES} bytes as hex; delete it to make a new salt`);
  return Buffer.from(hex, 'hex');
}

export function hashIp(salt: Buffer, ip: string): string {
  return createHmac('sha256', salt).update(ip).digest('hex');
}

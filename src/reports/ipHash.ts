import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { link, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomically } from '../files/atomicFile.js';
import { moveAside, type DamageLog } from '../files/moveAside.js';

const SALT_FILE = 'ip-hash.salt';
const SALT_BYTES = 32;

/**
 * The salt of the IP hashes, kept beside the reports (made once per DATA_DIR, or with REDIS_URL a
 * copy of the service's one): hashes stay comparable across restarts and instances (one sender's
 * reports can be grouped) but cannot be reversed by hashing every IPv4 address without it. A salt
 * file that is not a whole salt (cut short by a full disk, or foreign) never salted a hash: it is
 * moved aside and a new salt made.
 */
export async function loadIpHashSalt(dataDir: string, log: DamageLog): Promise<Buffer> {
  const path = join(dataDir, SALT_FILE);
  const kept = await readIfThere(path);
  if (kept !== undefined) {
    const salt = saltOf(kept);
    if (salt !== undefined) return salt;
    moveAside(path, new Error(`it holds ${Buffer.byteLength(kept)} bytes, not ${SALT_BYTES} bytes as hex`), log);
  }
  await createSalt(path);
  return parseSalt(await readFile(path, 'utf8'), path);
}

/**
 * Writes a new salt whole (write-file-atomic) under a name of its own, then links it into place:
 * a full disk leaves no salt file rather than a short one, and when two processes race, the first
 * link wins and the other reads it.
 */
async function createSalt(path: string): Promise<void> {
  const draft = `${path}.${randomUUID()}`;
  try {
    await writeFileAtomically(draft, `${randomBytes(SALT_BYTES).toString('hex')}\n`, { mode: 0o600 });
    await link(draft, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(draft, { force: true });
  }
}

async function readIfThere(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Replaces this DATA_DIR's salt with the service's shared one. */
export async function saveIpHashSalt(dataDir: string, salt: Buffer): Promise<void> {
  await writeFileAtomically(join(dataDir, SALT_FILE), `${salt.toString('hex')}\n`, { mode: 0o600 });
}

/** The salt written as hex; undefined unless it is exactly SALT_BYTES long. */
function saltOf(text: string): Buffer | undefined {
  const hex = text.trim();
  return /^[0-9a-f]+$/.test(hex) && hex.length === SALT_BYTES * 2 ? Buffer.from(hex, 'hex') : undefined;
}

/** The salt written as hex, refused unless it is exactly SALT_BYTES long. */
export function parseSalt(text: string, where: string): Buffer {
  const salt = saltOf(text);
  if (salt === undefined) throw new Error(`${where} must hold ${SALT_BYTES} bytes as hex`);
  return salt;
}

export function hashIp(salt: Buffer, ip: string): string {
  return createHmac('sha256', salt).update(ip).digest('hex');
}

import { z } from 'zod';
import type { Logger } from '../../config/logger.js';
import { createJsonLinesFile } from '../../files/jsonLinesFile.js';
import { RememberedEntries } from './memory.js';
import type { FirstSeen, FirstSeenBounds, FirstSeenStore } from '../../feeds/firstSeenStore.js';

const FirstSeenRecord = z.object({ id: z.string(), firstSeen: z.number(), lastSeen: z.number() });

/** How often the times of last sight are written down, so that a crash cannot make an entry still shown look unseen for long. */
const PERSIST_LAST_SEEN_MS = 86_400_000;

/**
 * First-seen times in this instance's memory and in a DATA_DIR JSON-lines file, so that a restart
 * gives every entry the date it had: a new id is on disk before its date is served. The file grows
 * by one line per new id; it is replaced by the remembered entries (with their times of last
 * sight) once it holds more lines than entries, or once a day.
 */
export function createFileFirstSeen(
  filePath: string,
  bounds: FirstSeenBounds,
  logger: Logger,
): FirstSeenStore & { close(): Promise<void> } {
  const file = createJsonLinesFile(filePath, FirstSeenRecord, {
    onUnreadable: (lineNumber) => logger.warn({ file: filePath, lineNumber }, 'skipping an unreadable first-seen line (torn by a crash?)'),
  });
  const entries = new RememberedEntries(bounds);
  let lines = 0;
  let persistedAt = 0;
  // A write failed (a full disk): the times stay in memory and the next claim writes them all.
  let unsaved = false;
  const loaded = file.forEach(({ id, firstSeen, lastSeen }) => {
    entries.restore(id, { firstSeen, lastSeen });
    lines++;
  });
  // A read that failed (a broken disk) fails every claim alike, as a feed error, rather than dates made up anew.
  loaded.catch(() => undefined);

  async function rewrite(now: number): Promise<void> {
    const list = entries.list();
    await file.replace(list.map(([id, remembered]) => ({ id, ...remembered })));
    lines = list.length;
    persistedAt = now;
  }

  async function persist(added: FirstSeen[], now: number): Promise<void> {
    if (unsaved || lines + added.length > 2 * entries.size || now - persistedAt > PERSIST_LAST_SEEN_MS) await rewrite(now);
    else if (added.length > 0) {
      await file.append(added.map(({ id, at }) => ({ id, firstSeen: at, lastSeen: now })));
      lines += added.length;
    }
  }

  return {
    async claim(candidates, now) {
      await loaded;
      if (persistedAt === 0) persistedAt = now;
      const { times, added } = entries.claim(candidates, now);
      // A disk that cannot take the new times costs only those: the feed is answered with them.
      try {
        await persist(added, now);
        unsaved = false;
      } catch (error) {
        if (!unsaved)
          logger.warn({ err: error, file: filePath }, 'could not write first-seen times; kept in memory until a write succeeds');
        unsaved = true;
      }
      return times;
    },
    async close() {
      // The times of last sight since the last rewrite, so that a restart does not forget sooner than it should.
      await loaded;
      try {
        if (entries.size > 0) await rewrite(Date.now());
      } catch (error) {
        logger.warn({ err: error, file: filePath }, 'could not write first-seen times at shutdown');
      }
    },
  };
}

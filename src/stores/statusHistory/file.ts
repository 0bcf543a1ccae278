import { createJsonLinesFile } from '../../files/jsonLinesFile.js';
import { recordTime, StatusRecord } from '../../status/records.js';
import type { StatusHistoryStore, StatusStoreLog } from '../../status/historyStore.js';

/**
 * The status history in one JSON-lines file (src/files/jsonLinesFile.ts); the cursor is a byte
 * offset, so a reader takes only what was appended since. Pruning replaces the file atomically.
 */
export function createFileStatusStore(filePath: string, logger: StatusStoreLog): StatusHistoryStore {
  const file = createJsonLinesFile(filePath, StatusRecord, {
    onUnreadable: () => logger.warn({ file: filePath }, 'skipping an unreadable status history line (torn by a crash?)'),
  });

  async function read(cursor: string | null) {
    const { records, end } = await file.readFrom(cursor === null ? 0 : Number(cursor));
    return { records, cursor: String(end) };
  }

  async function prune(keepFrom: number) {
    const { records } = await file.readFrom(0);
    await file.replace(records.filter((record) => recordTime(record) >= keepFrom));
  }

  return { read, append: file.append, prune };
}

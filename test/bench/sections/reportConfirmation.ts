import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../../simulator/server.js';
import { startService } from '../processes.js';
import type { BenchReport } from '../report.js';

// What a report's confirmation page (/report/sent/{id}) costs with 100,000 stored reports against
// 10: it must not grow with the reports file, so the goal is a ratio measured in one run.

const MANY = Number(process.env.BENCH_REPORTS ?? 100_000);
const FEW = 10;
const VIEWS = 1_000;

/** A DATA_DIR whose reports.jsonl holds `count` reports of a realistic size; returns it and the ids. */
function dataDirWith(count: number): { dir: string; ids: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-reports-'));
  const ids: string[] = [];
  const lines: string[] = [];
  for (let n = 0; n < count; n++) {
    const id = randomUUID();
    ids.push(id);
    lines.push(
      JSON.stringify({
        id,
        createdAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
        category: 'wrong-data',
        endpoint: '/catalog/ongoing-series',
        title: `Poster kosong di halaman ${n}`,
        description: 'Beberapa serial di /catalog/ongoing-series?page=2 punya poster null, padahal di situs sumber ada gambarnya. '.repeat(
          3,
        ),
        severity: 'medium',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        ipHash: 'a'.repeat(64),
      }),
    );
  }
  writeFileSync(join(dir, 'reports.jsonl'), `${lines.join('\n')}\n`, { mode: 0o600 });
  return { dir, ids };
}

/** Median and p99 (ms) of VIEWS confirmations of random stored ids, one at a time, after a warm-up view. */
async function confirmations(count: number, upstream: string): Promise<{ median: number; p99: number; rssMB: number }> {
  const { dir, ids } = dataDirWith(count);
  const service = await startService({ DATA_DIR: dir, UPSTREAM_BASE_URLS: upstream });
  const view = async (id: string) => {
    const started = performance.now();
    const response = await fetch(`${service.origin}/report/sent/${id}`, { headers: { Accept: 'text/html' } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`confirmation answered ${response.status}`);
    return performance.now() - started;
  };
  // The first view waits for the id index, read once at start.
  await view(ids[0] as string);
  const times: number[] = [];
  for (let n = 0; n < VIEWS; n++) times.push(await view(ids[Math.floor(Math.random() * ids.length)] as string));
  const rssMB = service.rssMB();
  await service.stop();
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] as number, p99: times[Math.floor(times.length * 0.99)] as number, rssMB };
}

/** A report's confirmation page with MANY stored reports against FEW. */
export async function reportConfirmationSection(report: BenchReport): Promise<void> {
  report.section(
    `a report's confirmation page with ${MANY.toLocaleString('en')} stored reports against ${FEW} (${VIEWS} views each, one at a time)`,
  );
  const simulator = await startSimulator({ latencyMs: 0 });
  const few = await confirmations(FEW, simulator.origin);
  const many = await confirmations(MANY, simulator.origin);
  await simulator.close();
  const ratio = many.median / few.median;
  report.figure(`${FEW} reports`, `median ${few.median.toFixed(2)} ms, p99 ${few.p99.toFixed(2)} ms, RSS ${few.rssMB} MB`);
  report.figure(
    `${MANY.toLocaleString('en')} reports`,
    `median ${many.median.toFixed(2)} ms, p99 ${many.p99.toFixed(2)} ms, RSS ${many.rssMB} MB`,
  );
  report.goal(
    `confirmation median with ${MANY.toLocaleString('en')} reports against ${FEW}`,
    `${ratio.toFixed(2)}×`,
    '≤ 1.5×',
    ratio <= 1.5,
  );
}

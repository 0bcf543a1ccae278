import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { createLogger } from '../../src/config/logger.js';
import { openAnswerFile } from '../../src/stores/answers/answerFile.js';
import { ServiceExitedError, startService, type ServiceProcess } from '../bench/processes.js';
import { crawlEnv } from '../helpers/crawl.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';
import { SERIES } from '../simulator/dataset.js';
import { startSimulator, type Simulator } from '../simulator/server.js';

// The service started on a DATA_DIR with one damage each: it starts (or stops with one line naming
// DATA_DIR), answers, and repairs what was damaged. The real service (src/main.ts in a child process)
// where the test reads what the process does (its start again on a full disk, its exit on a
// read-only DATA_DIR) and where it crawls while the test polls its export (in this process, the
// simulated site's work on the same event loop would make the crawler yield to the polls); the app
// in this process where the test reads what it does with one file at its start.

const PAGE_BYTES = 4096;
const REPORT = {
  category: 'bug',
  endpoint: '/catalog/home',
  title: 'Slider kosong',
  description: 'Slider di /catalog/home kosong sejak pagi.',
  severity: 'high',
};
const SERIES_PATH = `/catalog/series/${SERIES[0]!.slug}`;
// The site the crawl tests crawl: what they show (a catalog crawled afresh, one row of it read again)
// holds for a catalog of any size, and 30 series are crawled in a third of the time of the 96.
const CRAWLED_SERIES = 30;

let site: Simulator;
let crawledSite: Simulator;
const services: ServiceProcess[] = [];
const stacks: TestStack[] = [];
const mounts: string[] = [];

beforeAll(async () => {
  [site, crawledSite] = await Promise.all([startSimulator(), startSimulator({ catalogSize: CRAWLED_SERIES })]);
});
afterAll(async () => {
  await Promise.all([...services.map((service) => service.stop()), ...stacks.map((stack) => stack.close())]);
  // Lazily, so that a mount a failed test left busy is still taken away.
  for (const mount of mounts) execFileSync('umount', ['-l', mount]);
  await Promise.all([site.close(), crawledSite.close()]);
});

const newDataDir = () => mkdtempSync(join(tmpdir(), 'damaged-data-'));

async function start(dataDir: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const service = await startService({ DATA_DIR: dataDir, UPSTREAM_BASE_URLS: site.origin, RATE_LIMIT_MAX: '100000', ...env });
  services.push(service);
  return service;
}

/** The environment of a service that crawls `simulator`. */
const crawlOf = (simulator: Simulator) => ({ ...crawlEnv(), UPSTREAM_BASE_URLS: simulator.origin });

async function stop(service: ServiceProcess): Promise<void> {
  services.splice(services.indexOf(service), 1);
  await service.stop();
}

/** The app in this process on `dataDir`, with its log lines as the service writes them (info and above). */
async function startHere(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ stack: TestStack; logs(): Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  const stack = await startTestStack({ sharedSimulator: site, env: { DATA_DIR: dataDir, ...env }, logger });
  stacks.push(stack);
  return { stack, logs: () => lines };
}

async function stopHere(stack: TestStack): Promise<void> {
  stacks.splice(stacks.indexOf(stack), 1);
  await stack.close();
}

/** The log lines that tell of a file moved aside, as `{ file, movedTo }`. */
const movedAside = (started: { logs(): Record<string, unknown>[] }) =>
  started
    .logs()
    .filter((line) => line.msg === 'damaged file moved aside; starting afresh')
    .map((line) => ({ file: line.file, movedTo: line.movedTo }));

const asideFiles = (dataDir: string, name: string) => readdirSync(dataDir).filter((file) => file.startsWith(`${name}.damaged-`));

/** A tmpfs of `size` at a new directory, or why none can be mounted here. */
function mountTmpfs(size: string): { dir: string } | { refused: string } {
  const dir = newDataDir();
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    return { refused: `mount -t tmpfs was refused (${String((error as { stderr?: Buffer }).stderr ?? error).trim()})` };
  }
  mounts.push(dir);
  return { dir };
}

function skipFor(context: TestContext, reason: string): never {
  console.warn(`skipped: ${reason}`);
  context.skip();
  throw new Error('unreachable');
}

/** Writes into `dir` until the disk is full. */
function fillDisk(dir: string): void {
  const fd = openSync(join(dir, 'filler'), 'w');
  const chunk = Buffer.alloc(PAGE_BYTES, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

const postReport = (service: ServiceProcess) =>
  fetch(`${service.origin}/api/reports`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(REPORT) });

describe('a DATA_DIR with damaged files', () => {
  it('moves answers.sqlite with damaged pages aside, starts, and keeps answers in a new file', async () => {
    const dataDir = newDataDir();
    const path = join(dataDir, 'answers.sqlite');
    // Answers written and half of them dropped (so the file has free pages to hand back at start), then every third page overwritten.
    const file = openAnswerFile({
      path,
      maxBytes: 1e9,
      keepUntil: () => Date.now() + 3_600_000,
      now: Date.now,
      logger: createLogger('silent'),
    });
    for (let index = 0; index < 300; index++)
      file.write(`key-${index}`, {
        body: Buffer.from(JSON.stringify({ data: 'x'.repeat(3000 + index), meta: {} })),
        etag: `W/"${index}"`,
        fetchedAt: Date.now(),
        ttlSeconds: 600,
      });
    for (let index = 0; index < 300; index += 2) file.delete(`key-${index}`);
    file.close();
    const fd = openSync(path, 'r+');
    for (let page = 2; page * PAGE_BYTES < statSync(path).size; page += 3)
      writeSync(fd, randomBytes(PAGE_BYTES), 0, PAGE_BYTES, page * PAGE_BYTES);
    closeSync(fd);

    const service = await startHere(dataDir);
    expect(movedAside(service)).toEqual([{ file: path, movedTo: join(dataDir, asideFiles(dataDir, 'answers.sqlite')[0]!) }]);
    expect((await request(service.stack.app).get(SERIES_PATH)).status).toBe(200);
    await stopHere(service.stack);
    const db = new Database(path, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    // The new file holds what this run kept (the series, and the home page if the status probe has run), none of the damaged file's keys.
    const keys = db
      .prepare<[], { key: string }>('SELECT key FROM answers')
      .all()
      .map((row) => row.key.replace(/#.*/, ''));
    expect(keys.filter((key) => key !== '/catalog/home?page=1')).toEqual([`/catalog/series/{slug}?slug=${SERIES[0]!.slug}`]);
    db.close();
  }, 60_000);

  it('moves a catalog.sqlite that is not a database aside, starts, and crawls the catalog afresh', async () => {
    const { dataDir, movedAside: moved, exported } = await crawledAfresh();
    expect(moved).toEqual([{ file: join(dataDir, 'catalog.sqlite'), movedTo: join(dataDir, asideFiles(dataDir, 'catalog.sqlite')[0]!) }]);
    expect(exported.series).toHaveLength(CRAWLED_SERIES);
  }, 90_000);

  it('skips one unreadable catalog row, serves the rest, and reads that series again from the site', async () => {
    // A DATA_DIR the service crawled whole: the one crawled afresh above, but its damaged file set aside.
    const crawledDir = (await crawledAfresh()).dataDir;
    const dataDir = newDataDir();
    cpSync(crawledDir, dataDir, { recursive: true, filter: (source) => !basename(source).includes('.damaged-') });
    const broken = SERIES[3]!.slug;
    const db = new Database(join(dataDir, 'catalog.sqlite'));
    db.prepare('UPDATE entries SET body = ? WHERE slug = ?').run(Buffer.from('{"slug":'), broken);
    db.close();
    // Without the kept answers, the series is read again from the site itself.
    for (const name of readdirSync(dataDir)) if (name.startsWith('answers.sqlite')) rmSync(join(dataDir, name));
    const readsBefore = crawledSite.hits.length;

    const service = await start(dataDir, crawlOf(crawledSite));
    const exported = await untilComplete(service);
    expect(exported.series.map((entry) => entry.slug)).toContain(broken);
    expect(exported.series).toHaveLength(CRAWLED_SERIES);
    expect(
      service
        .logs()
        .filter((line) => line.msg === 'unreadable catalog entry skipped; the crawler reads it again')
        .map((line) => line.slug),
    ).toEqual([broken]);
    // Only the broken series was read again, not the whole catalog.
    expect(
      crawledSite.hits
        .slice(readsBefore)
        .filter((hit) => hit.path.startsWith('/seri/') && !hit.path.startsWith('/seri/?'))
        .map((hit) => hit.path),
    ).toEqual([`/seri/${broken}/`]);
  }, 120_000);

  it('replaces an empty ip-hash.salt and takes reports', async () => {
    const dataDir = newDataDir();
    writeFileSync(join(dataDir, 'ip-hash.salt'), '');
    const { stack } = await startHere(dataDir);
    const response = await request(stack.app).post('/api/reports').send(REPORT);
    expect(response.status).toBe(201);
    expect(readFileSync(join(dataDir, 'ip-hash.salt'), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    expect(asideFiles(dataDir, 'ip-hash.salt')).toHaveLength(1);
  }, 60_000);

  it('on a full disk answers feeds, refuses reports with 503 REPORT_NOT_STORED, starts again, and takes reports once there is room', async (context) => {
    const mounted = mountTmpfs('2m');
    if ('refused' in mounted) skipFor(context, mounted.refused);
    const first = await start(mounted.dir);
    expect((await fetch(`${first.origin}${SERIES_PATH}`)).status).toBe(200);
    fillDisk(mounted.dir);

    const feeds = ['/feeds/latest.json', '/feeds/movies.json', '/feeds/latest.rss', '/feeds/movies.atom'];
    for (const feed of feeds) expect((await fetch(`${first.origin}${feed}`)).status, feed).toBe(200);
    const refused = await postReport(first);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('REPORT_NOT_STORED');
    await stop(first);

    // A restart on the full disk: the answers file cannot even size its WAL's shared memory, and lives in memory.
    const service = await start(mounted.dir);
    const refusedFiles = service
      .logs()
      .filter((line) => line.msg === 'the disk refuses this file (full or failing); its store lives in memory until a restart');
    expect(refusedFiles.map((line) => line.file)).toContain(join(mounted.dir, 'answers.sqlite'));
    expect((await fetch(`${service.origin}/catalog/series/${SERIES[1]!.slug}`)).status).toBe(200);
    for (const feed of feeds) expect((await fetch(`${service.origin}${feed}`)).status, feed).toBe(200);

    rmSync(join(mounted.dir, 'filler'));
    const taken = await postReport(service);
    expect(taken.status).toBe(201);
    expect(readFileSync(join(mounted.dir, 'ip-hash.salt'), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/);
    const { id } = ((await taken.json()) as { data: { id: string } }).data;
    expect(readFileSync(join(mounted.dir, 'reports.jsonl'), 'utf8')).toContain(id);
  }, 60_000);

  it('on a read-only DATA_DIR stops with one line naming DATA_DIR and the cause', async (context) => {
    const mounted = mountTmpfs('1m');
    if ('refused' in mounted) skipFor(context, mounted.refused);
    mkdirSync(join(mounted.dir, 'data'));
    try {
      execFileSync('mount', ['-o', 'remount,ro', mounted.dir], { stdio: 'pipe' });
    } catch (error) {
      skipFor(context, `mount -o remount,ro was refused (${String(error)})`);
    }
    const dataDir = join(mounted.dir, 'data');
    const failure = await start(dataDir).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ServiceExitedError);
    const { exitCode, stderr } = failure as ServiceExitedError;
    expect(exitCode).toBe(1);
    expect(stderr).toBe(`DATA_DIR=${dataDir} cannot be written: read-only file system (EROFS)\n`);
  }, 60_000);
});

let afresh: Promise<{ dataDir: string; movedAside: ReturnType<typeof movedAside>; exported: ExportedCatalog }> | undefined;

/**
 * The service started on a DATA_DIR whose catalog.sqlite is not a database, until its crawl is
 * complete, then stopped: what it logged of the file and the export it served. Made once, by the
 * first test that asks: the next one starts from the catalog it crawled.
 */
function crawledAfresh() {
  afresh ??= (async () => {
    const dataDir = newDataDir();
    writeFileSync(join(dataDir, 'catalog.sqlite'), randomBytes(64 * 1024));
    const service = await start(dataDir, crawlOf(crawledSite));
    const exported = await untilComplete(service);
    await stop(service);
    return { dataDir, movedAside: movedAside(service), exported };
  })();
  return afresh;
}

interface ExportedCatalog {
  complete: boolean;
  series: { slug: string }[];
}

/** GETs the export until it answers 200 with the catalog complete. */
async function untilComplete(service: ServiceProcess, timeoutMs = 60_000): Promise<ExportedCatalog> {
  const started = Date.now();
  let last = '';
  while (Date.now() - started < timeoutMs) {
    const response = await fetch(`${service.origin}/export/catalog.json`);
    const text = await response.text();
    last = `${response.status} ${text.slice(0, 200)}`;
    if (response.status === 200) {
      const body = JSON.parse(text) as ExportedCatalog;
      if (body.complete) return body;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the export did not get complete: ${last}`);
}

import type { CatalogState } from '../crawler/localCatalog.js';
import { causeOf } from '../status/causes.js';
import type { HistorySlot, StatusHistory } from '../status/history.js';
import type { LatencySummary } from '../status/trafficSummary.js';
import type { PathInUse, SitePathsStatus } from '../upstream/sitePaths.js';
import type { SlotState, Uptime } from '../status/uptime.js';
import { formatDuration } from './duration.js';
import { barRow, latencyChart, legendSwatch, type BarRow, type LatencyChart } from './statusCharts.js';

// The status page's view model: every text in Indonesian, every time in WIB.

const WIB = 'Asia/Jakarta';
const dateTime = new Intl.DateTimeFormat('id-ID', { timeZone: WIB, dateStyle: 'medium', timeStyle: 'short' });
const timeOnly = new Intl.DateTimeFormat('id-ID', { timeZone: WIB, timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('id-ID', { timeZone: WIB, dateStyle: 'medium' });
const decimal = new Intl.NumberFormat('id-ID', { maximumFractionDigits: 2 });
const whole = new Intl.NumberFormat('id-ID');

const at = (iso: string) => `${dateTime.format(new Date(iso))} WIB`;

const STATE_TEXT: Record<SlotState, { label: string; meaning: string }> = {
  up: { label: 'Normal', meaning: 'semua pemeriksaan berhasil' },
  partial: { label: 'Sebagian terganggu', meaning: 'sebagian pemeriksaan gagal' },
  down: { label: 'Gangguan', meaning: 'semua pemeriksaan gagal' },
  unknown: { label: 'Tidak ada data', meaning: 'tidak ada pemeriksaan: layanan kami mati atau belum berjalan' },
};

const UPSTREAM_STATE = {
  up: 'Normal',
  down: 'Gangguan',
  unknown: 'Tidak diketahui',
} as const;

/** "2 jam 5 menit", "45 detik": a length of time as people say it. */
function spokenDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} detik`;
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const parts = [days && `${days} hari`, hours && `${hours} jam`, minutes && `${minutes} menit`].filter(Boolean);
  return parts.slice(0, 2).join(' ');
}

function probeCounts(slot: HistorySlot): string {
  if (slot.probes === 0) return STATE_TEXT.unknown.meaning;
  return `${slot.probes - slot.failed} dari ${slot.probes} pemeriksaan berhasil`;
}

const hourLabel = (slot: HistorySlot) =>
  `${dateOnly.format(new Date(slot.start))}, ${timeOnly.format(new Date(slot.start))}–${timeOnly.format(new Date(slot.end))} WIB: ${STATE_TEXT[slot.state].label} (${probeCounts(slot)})`;
const dayLabel = (slot: HistorySlot) => `${dateOnly.format(new Date(slot.start))}: ${STATE_TEXT[slot.state].label} (${probeCounts(slot)})`;

function uptimeRow(label: string, value: Uptime) {
  return {
    label,
    // A no-break space keeps "%" beside its number on a narrow screen.
    percent: value.percent === null ? 'Tidak ada data' : `${decimal.format(Math.floor(value.percent * 100) / 100)}\u00a0%`,
    detail:
      value.probes === 0
        ? 'belum ada pemeriksaan'
        : `${whole.format(value.probes - value.failed)} dari ${whole.format(value.probes)} pemeriksaan berhasil`,
  };
}

const ms = (value: number | null) => (value === null ? '–' : `${decimal.format(value)} ms`);
const latencyText = (summary: LatencySummary) => (summary.count === 0 ? '–' : `${ms(summary.p50Ms)} / ${ms(summary.p95Ms)}`);

export interface StatusView {
  title: string;
  current: 'status';
  generatedAt: string;
  probeInterval: string;
  upstream: { state: StatusHistory['upstream']['state']; label: string; since: string | null; lastProbe: string | null };
  api: { label: string; since: string; lastGood: string | null };
  uptime: ReturnType<typeof uptimeRow>[];
  hourBars: BarRow;
  dayBars: BarRow;
  legend: { swatch: BarRow; label: string; meaning: string }[];
  latency: LatencyChart;
  latencyRows: { hour: string; probe: string; p50: string; p95: string }[];
  traffic: { endpoint: string; successes: string; errors: string; miss: string; hit: string }[];
  /** How many endpoints had no request at all. */
  quietEndpoints: number;
  incidents: { start: string; end: string; duration: string; cause: string; codes: string }[];
  catalog: CatalogView;
  sitePaths: SitePathsView;
}

/** The site's paths the service builds page addresses on, and how it knows them. */
interface SitePathsView {
  origin: string;
  rows: { label: string; path: string; how: string }[];
}

function pathRow(label: string, path: PathInUse | null) {
  if (path === null) return { label, path: '–', how: 'belum diketahui: dipelajari dari situs saat pertama dibutuhkan' };
  return { label, path: path.path, how: path.learnedAt === null ? path.how : `dipelajari ${at(path.learnedAt)}: ${path.how}` };
}

function sitePathsView(paths: SitePathsStatus): SitePathsView {
  return { origin: paths.origin, rows: [pathRow('Halaman seri', paths.series), pathRow('Daftar seri dan filternya', paths.list)] };
}

/** The crawler's bar: series read of series listed, the pass under way, the last and the next. */
interface CatalogView {
  enabled: boolean;
  read: number;
  /** The bar's maximum: at least 1, so that an empty bar is still a bar. */
  max: number;
  readText: string;
  rows: { label: string; value: string }[];
}

const PASS_NAMES = { full: 'penuh (semua seri)', update: 'pembaruan (seri yang berubah)' } as const;

function catalogView(state: CatalogState): CatalogView {
  const percent = state.listed === 0 ? 0 : Math.floor((state.read / state.listed) * 100);
  return {
    enabled: state.enabled,
    read: state.read,
    max: Math.max(1, state.listed),
    readText:
      state.listed === 0
        ? 'belum ada daftar seri yang dibaca'
        : `${whole.format(state.read)} dari ${whole.format(state.listed)} seri dibaca (${percent}%)`,
    rows: [
      {
        label: 'Putaran sekarang',
        value: state.pass === null ? 'tidak ada' : `${PASS_NAMES[state.pass.kind]}, mulai ${at(state.pass.startedAt)}`,
      },
      {
        label: 'Putaran penuh terakhir selesai',
        value: state.lastFullPassEndedAt === null ? 'belum pernah' : at(state.lastFullPassEndedAt),
      },
      {
        label: 'Putaran berikutnya',
        value: state.nextPassAt === null ? (state.pass === null ? 'belum dijadwalkan' : 'setelah putaran ini') : at(state.nextPassAt),
      },
      { label: 'Seri disimpan', value: `${whole.format(state.held)} (${whole.format(state.removed)} sudah dihapus dari situs)` },
      { label: 'Katalog lengkap', value: state.complete ? 'ya' : 'belum' },
    ],
  };
}

/** What the API card says while answers come from the last good copies. */
function lastGoodText(lastGood: StatusHistory['api']['lastGood']): string | null {
  if (lastGood === null) return null;
  return (
    `Sejak ${at(lastGood.since)}, permintaan yang gagal diambil dari situs sumber dijawab dengan salinan terakhir yang baik ` +
    `(X-Cache: STALE, meta.stale): ${whole.format(lastGood.served)} jawaban, terakhir ${at(lastGood.lastServedAt)} karena ${causeOf(lastGood.lastReason)}.`
  );
}

export function statusView(history: StatusHistory, catalog: CatalogState, paths: SitePathsStatus): StatusView {
  const { upstream } = history;
  const last = upstream.lastProbe;
  const probesByHour = (hour: string) =>
    history.responseTimes.probes.filter(
      (probe) => Date.parse(probe.at) >= Date.parse(hour) && Date.parse(probe.at) < Date.parse(hour) + 3_600_000,
    );
  return {
    title: 'Status layanan',
    current: 'status',
    catalog: catalogView(catalog),
    sitePaths: sitePathsView(paths),
    generatedAt: at(history.generatedAt),
    probeInterval: formatDuration(history.probeIntervalSeconds),
    upstream: {
      state: upstream.state,
      label: UPSTREAM_STATE[upstream.state],
      since: upstream.since === null ? null : at(upstream.since),
      lastProbe:
        last === null
          ? null
          : `${at(last.at)}: ${last.outcome === 'up' ? 'berhasil' : `gagal, ${causeOf(last.code ?? 'UNKNOWN')}`}, ${whole.format(last.durationMs)} ms, dari ${last.origin}`,
    },
    api: { label: 'Beroperasi', since: at(history.api.since), lastGood: lastGoodText(history.api.lastGood) },
    uptime: [
      uptimeRow('24 jam', upstream.uptime['24h']),
      uptimeRow('7 hari', upstream.uptime['7d']),
      uptimeRow('30 hari', upstream.uptime['30d']),
    ],
    hourBars: barRow(history.hours, hourLabel),
    dayBars: barRow(history.days, dayLabel),
    legend: (['up', 'partial', 'down', 'unknown'] as const).map((state) => ({
      swatch: legendSwatch(state, STATE_TEXT[state].label),
      ...STATE_TEXT[state],
    })),
    latency: latencyChart(
      history,
      (probe) => `${at(probe.at)}: pemeriksaan ${probe.outcome === 'up' ? 'berhasil' : 'gagal'}, ${whole.format(probe.durationMs)} ms`,
    ),
    latencyRows: history.responseTimes.api.map((hour) => {
      const durations = probesByHour(hour.hour).map((probe) => probe.durationMs);
      return {
        hour: `${timeOnly.format(new Date(hour.hour))} WIB`,
        probe: durations.length === 0 ? '–' : durations.map((duration) => `${whole.format(duration)} ms`).join(', '),
        p50: ms(hour.p50Ms),
        p95: ms(hour.p95Ms),
      };
    }),
    // The JSON lists every endpoint; the page only those that answered, so it stays short on a phone.
    traffic: history.traffic24h
      .filter((row) => row.successes + Object.keys(row.errors).length > 0)
      .map((row) => ({
        endpoint: row.endpoint,
        successes: whole.format(row.successes),
        errors:
          Object.entries(row.errors)
            .map(([code, count]) => `${code}: ${whole.format(count)}`)
            .join(', ') || '–',
        miss: latencyText(row.miss),
        hit: latencyText(row.hit),
      })),
    quietEndpoints: history.traffic24h.filter((row) => row.successes + Object.keys(row.errors).length === 0).length,
    incidents: history.incidents.map((incident) => ({
      start: at(incident.start),
      end: incident.end === null ? 'masih berlangsung' : at(incident.end),
      duration: incident.durationSeconds === null ? '–' : spokenDuration(incident.durationSeconds),
      cause: incident.cause,
      codes: incident.codes.join(', '),
    })),
  };
}

import type { HistorySlot, StatusHistory } from '../status/history.js';
import type { SlotState } from '../status/uptime.js';

// Geometry of the status page's inline SVG charts, computed on the server: the templates only
// place what is here. Sizes are viewBox units; the SVGs scale to the page's width.

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  state: SlotState;
  /** The tooltip and the accessible name: period, state and probe counts in words. */
  label: string;
}

export interface BarRow {
  viewBox: string;
  bars: Bar[];
}

const BAR_ROW_HEIGHT = 40;
const BAR_STEP = 10;
const BAR_WIDTH = 8;
// Not by colour alone: the worse the slot, the lower its bar; unknown is a hollow full-height bar.
const BAR_HEIGHT: Record<SlotState, number> = { up: 40, partial: 26, down: 12, unknown: 40 };

const bar = (state: SlotState, index: number, label: string): Bar => {
  const height = BAR_HEIGHT[state];
  return { x: index * BAR_STEP + 1, y: BAR_ROW_HEIGHT - height, width: BAR_WIDTH, height, state, label };
};

/** The legend's sample of a state: one bar, in a viewBox of its own. */
export const legendSwatch = (state: SlotState, label: string): BarRow => ({
  viewBox: `0 0 ${BAR_STEP} ${BAR_ROW_HEIGHT}`,
  bars: [bar(state, 0, label)],
});

export function barRow(slots: readonly HistorySlot[], label: (slot: HistorySlot) => string): BarRow {
  return {
    viewBox: `0 0 ${slots.length * BAR_STEP} ${BAR_ROW_HEIGHT}`,
    bars: slots.map((slot, index) => bar(slot.state, index, label(slot))),
  };
}

export interface LatencyChart {
  viewBox: string;
  plot: { left: number; right: number; top: number; bottom: number };
  /** Horizontal grid lines with their duration labels. */
  yTicks: { y: number; label: string }[];
  xTicks: { x: number; label: string; anchor: 'start' | 'middle' | 'end' }[];
  /** Polylines' points, one per unbroken run of hours with data. */
  p50: string[];
  p95: string[];
  probes: { x: number; y: number; outcome: 'up' | 'down'; label: string }[];
}

const WIDTH = 720;
const HEIGHT = 280;
// Room on the left for "10 dtk" at the larger label size of narrow screens.
const PLOT = { left: 116, right: WIDTH - 24, top: 20, bottom: HEIGHT - 48 };
// A log scale: cached answers take a millisecond, upstream pages a second; both must be readable.
const MIN_MS = 1;

const durationLabel = (ms: number) => (ms >= 1000 ? `${ms / 1000} dtk` : `${ms} ms`);

/** The response-time chart of the last 24 hours: the probes' durations and the API's hourly p50/p95. */
export function latencyChart(
  history: StatusHistory,
  probeLabel: (probe: StatusHistory['responseTimes']['probes'][number]) => string,
): LatencyChart {
  const { probes, api } = history.responseTimes;
  const from = Date.parse(api[0]?.hour ?? history.generatedAt);
  const to = from + api.length * 3_600_000;
  const values = [...probes.map((probe) => probe.durationMs), ...api.flatMap((hour) => [hour.p50Ms ?? 0, hour.p95Ms ?? 0])];
  const maxDecade = Math.max(3, Math.ceil(Math.log10(Math.max(MIN_MS, ...values))));
  const x = (ms: number) => PLOT.left + ((ms - from) / (to - from)) * (PLOT.right - PLOT.left);
  const y = (durationMs: number) => {
    const fraction = Math.log10(Math.max(MIN_MS, durationMs)) / maxDecade;
    return round(PLOT.bottom - fraction * (PLOT.bottom - PLOT.top));
  };
  const line = (pick: (hour: (typeof api)[number]) => number | null) => {
    const runs: string[] = [];
    let run: string[] = [];
    api.forEach((hour, index) => {
      const value = pick(hour);
      if (value === null) {
        if (run.length > 0) runs.push(run.join(' '));
        run = [];
        return;
      }
      run.push(`${round(x(from + (index + 0.5) * 3_600_000))},${y(value)}`);
    });
    if (run.length > 0) runs.push(run.join(' '));
    return runs;
  };
  return {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    plot: PLOT,
    yTicks: Array.from({ length: maxDecade + 1 }, (_, decade) => ({ y: y(10 ** decade), label: durationLabel(10 ** decade) })),
    xTicks: [
      { x: PLOT.left, label: '24 jam lalu', anchor: 'start' },
      { x: round((PLOT.left + PLOT.right) / 2), label: '12 jam lalu', anchor: 'middle' },
      { x: PLOT.right, label: 'sekarang', anchor: 'end' },
    ],
    p50: line((hour) => hour.p50Ms),
    p95: line((hour) => hour.p95Ms),
    probes: probes.map((probe) => ({
      x: round(x(Date.parse(probe.at))),
      y: y(probe.durationMs),
      outcome: probe.outcome,
      label: probeLabel(probe),
    })),
  };
}

const round = (value: number) => Math.round(value * 10) / 10;

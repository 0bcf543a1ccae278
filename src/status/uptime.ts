import type { ProbeRecord } from './records.js';

// The uptime arithmetic, pure: probes in, states and ratios out. A stretch without any probe means
// the service itself was not running (or not probing), so nobody knows how the upstream did: it is
// "unknown", never counted as up, and left out of the ratio.

export type SlotState = 'up' | 'partial' | 'down' | 'unknown';

export interface Slot {
  start: number;
  end: number;
  state: SlotState;
  probes: number;
  failed: number;
}

export interface Uptime {
  /** Working probes among all probes of the window, in %; null when the window has none. */
  percent: number | null;
  probes: number;
  failed: number;
}

export interface Incident {
  start: number;
  /** The first working probe after it; null while it lasts. */
  end: number | null;
  /** Error codes of its failed probes, most frequent first. */
  codes: string[];
  failedProbes: number;
}

export interface CurrentState {
  state: 'up' | 'down' | 'unknown';
  /** The first probe of the current run of this outcome; null when unknown. */
  since: number | null;
}

/** The index of the first probe at or after `time`, in probes sorted by time (a binary search). */
function firstAtOrAfter(probes: readonly ProbeRecord[], time: number): number {
  let low = 0;
  let high = probes.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((probes[middle] as ProbeRecord).at < time) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Probes with `from <= at < to`, of probes sorted by time. */
function within(probes: readonly ProbeRecord[], from: number, to: number): readonly ProbeRecord[] {
  return probes.slice(firstAtOrAfter(probes, from), firstAtOrAfter(probes, to));
}

function slotState(probes: number, failed: number): SlotState {
  if (probes === 0) return 'unknown';
  if (failed === 0) return 'up';
  return failed === probes ? 'down' : 'partial';
}

/** One slot per [start, end) boundary pair, each with the state of its probes. */
export function slots(probes: readonly ProbeRecord[], boundaries: readonly number[]): Slot[] {
  return boundaries.slice(0, -1).map((start, index) => {
    const end = boundaries[index + 1] as number;
    const inSlot = within(probes, start, end);
    const failed = inSlot.filter((probe) => probe.outcome === 'down').length;
    return { start, end, state: slotState(inSlot.length, failed), probes: inSlot.length, failed };
  });
}

/** Uptime over [from, to): by probes, so that stretches without probes count for nothing either way. */
export function uptime(probes: readonly ProbeRecord[], from: number, to: number): Uptime {
  const inWindow = within(probes, from, to);
  const failed = inWindow.filter((probe) => probe.outcome === 'down').length;
  const percent = inWindow.length === 0 ? null : ((inWindow.length - failed) / inWindow.length) * 100;
  return { percent, probes: inWindow.length, failed };
}

/**
 * The upstream's state now: the last probe's outcome, since the first probe of its run. Unknown
 * without probes, or when the last one is older than `staleAfterMs` (the service was not probing).
 */
export function currentState(probes: readonly ProbeRecord[], now: number, staleAfterMs: number): CurrentState {
  const last = probes.at(-1);
  if (last === undefined || now - last.at > staleAfterMs) return { state: 'unknown', since: null };
  let first = probes.length - 1;
  while (first > 0 && (probes[first - 1] as ProbeRecord).outcome === last.outcome) first--;
  return { state: last.outcome, since: (probes[first] as ProbeRecord).at };
}

/** Runs of consecutive failed probes, oldest first. */
export function incidents(probes: readonly ProbeRecord[]): Incident[] {
  const found: Incident[] = [];
  let open: { start: number; codes: Map<string, number>; failedProbes: number } | undefined;
  const close = (end: number | null) => {
    if (open === undefined) return;
    const codes = [...open.codes].sort((a, b) => b[1] - a[1]).map(([code]) => code);
    found.push({ start: open.start, end, codes, failedProbes: open.failedProbes });
    open = undefined;
  };
  for (const probe of probes) {
    if (probe.outcome === 'up') {
      close(probe.at);
      continue;
    }
    open ??= { start: probe.at, codes: new Map(), failedProbes: 0 };
    const code = probe.code ?? 'UNKNOWN';
    open.codes.set(code, (open.codes.get(code) ?? 0) + 1);
    open.failedProbes++;
  }
  close(null);
  return found;
}

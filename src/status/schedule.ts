/** Runs `probe` every `intervalMs` until stopped; tests inject one they trigger by hand. */
export type ProbeSchedule = (probe: () => Promise<unknown>, intervalMs: number) => { stop(): void };

/**
 * The first probe at once, so the status page knows the upstream's state from the start rather than
 * "unknown" for a whole interval; then one every interval, on a timer that never keeps the process
 * alive (unref'd).
 */
export const everyInterval: ProbeSchedule = (probe, intervalMs) => {
  void probe();
  const timer = setInterval(() => void probe(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
};

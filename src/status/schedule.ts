/** Runs `probe` every `intervalMs` until stopped; tests inject one they trigger by hand. */
export type ProbeSchedule = (probe: () => Promise<unknown>, intervalMs: number) => { stop(): void };

/** A timer that never keeps the process alive (unref'd); the first probe comes one interval after the start. */
export const everyInterval: ProbeSchedule = (probe, intervalMs) => {
  const timer = setInterval(() => void probe(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
};

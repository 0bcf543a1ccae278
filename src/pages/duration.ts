// Largest unit first; a day is said as "24 jam", as people say it of a cache, and days start at two.
const UNITS = [
  { seconds: 86400, from: 2 * 86400, name: 'hari' },
  { seconds: 3600, from: 3600, name: 'jam' },
  { seconds: 60, from: 60, name: 'menit' },
] as const;

/** A duration as a person says it in Indonesian: 300 → "5 menit", 86400 → "24 jam", 90 → "90 detik". */
export function formatDuration(seconds: number): string {
  const unit = UNITS.find((candidate) => seconds >= candidate.from && seconds % candidate.seconds === 0);
  return unit ? `${seconds / unit.seconds} ${unit.name}` : `${seconds} detik`;
}

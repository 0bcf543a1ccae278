import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../../src/pages/duration.js';

describe('formatDuration', () => {
  it.each([
    [300, '5 menit'],
    [600, '10 menit'],
    [1800, '30 menit'],
    [3600, '1 jam'],
    [43200, '12 jam'],
    [86400, '24 jam'],
    [172800, '2 hari'],
    [5400, '90 menit'],
    [90, '90 detik'],
    [1, '1 detik'],
  ])('%i seconds → %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigSchema, writtenDefaults } from '../../../src/config/schema.js';

// .env.example, the README and the schema name the same variables, and .env.example shows each
// one's default as the schema has it (empty for a variable unset by default).

const read = (file: string) => readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');

describe('.env.example', () => {
  const lines = read('.env.example')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'));

  it('has only comments and NAME=value lines', () => {
    for (const line of lines) expect(line).toMatch(/^[A-Z][A-Z0-9_]*=/);
  });

  it("lists every variable of the schema once, in the schema's order, with its default", () => {
    const listed = lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
    expect(listed).toEqual(Object.entries(writtenDefaults()));
  });
});

describe('the schema', () => {
  it('has 24 variables, the most issue 39 allows: a knob only tests turn is an option of its factory', () => {
    expect(Object.keys(ConfigSchema.shape)).toHaveLength(24);
  });
});

describe('the README', () => {
  it('names every variable of the schema', () => {
    const readme = read('README.md');
    const missing = Object.keys(ConfigSchema.shape).filter((name) => !readme.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});

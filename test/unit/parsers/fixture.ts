import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { LayoutChangedError, PagePastEndError } from '../../../src/parsers/errors.js';

/** A saved page and what parsing it must give: `test/fixtures/<pageKind>/<case>.html` + `.json`. */
export interface Fixture {
  html: string;
  source: string;
  pageUrl: string;
  expected?: unknown;
  expectedError?: ExpectedError;
}

type ExpectedError =
  { name: 'LayoutChangedError'; pageKind: string; missing: string[] } | { name: 'PagePastEndError'; pageKind: string; page: number };

const root = new URL('../../fixtures/', import.meta.url);

// A missing fixture file throws here, so the test fails instead of silently passing.
export function loadFixture(pageKind: string, name: string): Fixture {
  const html = readFileSync(new URL(`${pageKind}/${name}.html`, root), 'utf8');
  const meta = JSON.parse(readFileSync(new URL(`${pageKind}/${name}.json`, root), 'utf8')) as Omit<Fixture, 'html'>;
  return { html, ...meta };
}

/** Asserts that `parse` throws exactly the error the fixture names. */
export function expectFixtureError(fixture: Fixture, parse: () => unknown): void {
  const expected = fixture.expectedError;
  if (expected === undefined) throw new Error('fixture has no expectedError');
  let thrown: unknown;
  try {
    parse();
  } catch (error) {
    thrown = error;
  }
  if (expected.name === 'LayoutChangedError') {
    expect(thrown).toBeInstanceOf(LayoutChangedError);
    const error = thrown as LayoutChangedError;
    expect({ pageKind: error.pageKind, missing: error.missing }).toEqual({
      pageKind: expected.pageKind,
      missing: expected.missing,
    });
  } else {
    expect(thrown).toBeInstanceOf(PagePastEndError);
    const error = thrown as PagePastEndError;
    expect({ pageKind: error.pageKind, page: error.page }).toEqual({ pageKind: expected.pageKind, page: expected.page });
  }
}

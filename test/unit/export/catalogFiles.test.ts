import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { CatalogIndex, CatalogView } from '../../../src/crawler/localCatalog.js';
import { createCatalogFiles } from '../../../src/export/catalogFiles.js';

// Without PUBLIC_URL the export's origin is the request's Host, which any client chooses: the .json
// is built (and gzipped) for the first four Hosts after a change, and once for every Host past them.

function fakeIndex() {
  let builds = 0;
  const listeners: Array<() => void> = [];
  const entries = [Buffer.from('{"slug":"a"}'), Buffer.from('{"slug":"b"}')];
  const view: CatalogView = {
    revision: 1,
    entries,
    // Only a .json build reads the removed series (once): reading them counts the builds.
    get removed() {
      builds++;
      return [];
    },
    complete: true,
    updatedAt: '2026-11-29T00:00:00.000Z',
  };
  const index = { view: () => view, onSynced: (listener: () => void) => listeners.push(listener) } as unknown as CatalogIndex;
  return { index, builds: () => builds, change: () => listeners.forEach((listener) => listener()) };
}

const schemaOf = async (files: ReturnType<typeof createCatalogFiles>, origin: string) => {
  const file = await files.file('catalog.json', origin);
  const document = JSON.parse(gunzipSync(file.gzip).toString('utf8')) as { $schema: string; count: number };
  expect(document.count).toBe(2);
  return document.$schema;
};

describe('the export for many Hosts', () => {
  it('names each of the first four Hosts after a change, then builds one document naming the schema by its path for all the others', async () => {
    const { index, builds, change } = fakeIndex();
    const files = createCatalogFiles({ index, enabled: true, source: () => 'https://site.example' });
    const before = builds();
    for (const host of ['a', 'b', 'c', 'd'])
      expect(await schemaOf(files, `http://${host}.example`)).toBe(`http://${host}.example/export/catalog.schema.json`);
    expect(await schemaOf(files, 'http://a.example')).toBe('http://a.example/export/catalog.schema.json');
    expect(builds() - before).toBe(4);
    for (let request = 0; request < 50; request++)
      expect(await schemaOf(files, `http://junk-${request}.example`)).toBe('/export/catalog.schema.json');
    expect(builds() - before).toBe(5);
    expect(files.file('catalog.json', 'http://junk-99.example', { sideEffects: false })).toBe(
      await files.file('catalog.json', 'http://junk-0.example'),
    );
    expect(files.file('catalog.json', 'http://b.example', { sideEffects: false })).toBe(
      await files.file('catalog.json', 'http://b.example'),
    );

    // A change starts afresh: the next Host is named again.
    change();
    expect(await schemaOf(files, 'http://e.example')).toBe('http://e.example/export/catalog.schema.json');
    expect(builds() - before).toBe(6);
  });
});

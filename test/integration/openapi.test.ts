import SwaggerParser from '@apidevtools/swagger-parser';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/catalog/endpoints/index.js';
import { exampleFor } from '../../src/openapi/examples/index.js';
import { SearchQuery } from '../../src/contract/params.js';
import { startTestStack, type TestStack } from '../helpers/testApp.js';

let stack: TestStack;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the test walks an arbitrary JSON document
let document: Record<string, any>;

beforeAll(async () => {
  stack = await startTestStack({ env: { RATE_LIMIT_MAX: '50' } });
  const response = await request(stack.app).get('/openapi.json');
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(response.headers['access-control-allow-origin']).toBe('*');
  document = response.body;
});
afterAll(() => stack.close());

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document per @apidevtools/swagger-parser', async () => {
    expect(document.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('names the license, the Report Center as contact, this server, and no security for any operation', async () => {
    const served = (await request(stack.app).get('/openapi.json').set('Host', 'katalog.example:8080')).body;
    expect(served.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(served.info.contact).toEqual({ name: 'Report Center', url: 'http://katalog.example:8080/report' });
    expect(served.servers).toEqual([{ url: 'http://katalog.example:8080' }]);
    expect(served.security).toEqual([]);
  });

  it('names the address it was reached at, not a Host header that names no host', async () => {
    const response = await request(stack.app).get('/openapi.json').set('Host', 'a"b\\c');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text).servers).toEqual([
      { url: expect.stringMatching(/^http:\/\/(?:127\.0\.0\.1|\[::1\]|\[::ffff:127\.0\.0\.1\]):\d+$/) },
    ]);
  });

  it('would be refused by the validator if it were broken (the check can fail)', async () => {
    const broken = structuredClone(document);
    broken.paths['/catalog/home'].get.responses['200'].content['application/json'].schema = { $ref: '#/components/schemas/Missing' };
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow(/Missing/);
  });

  it("has exactly the endpoint table's paths, the feed table's, the export's, plus POST /api/reports", () => {
    expect(Object.keys(document.paths)).toEqual([
      ...endpoints.map((endpoint) => endpoint.path),
      '/feeds/latest.{format}',
      '/feeds/series/{slug}.{format}',
      '/feeds/movies.{format}',
      '/export/catalog.json',
      '/export/catalog.jsonl',
      '/export/catalog.schema.json',
      '/api/reports',
    ]);
    for (const endpoint of endpoints) expect(Object.keys(document.paths[endpoint.path])).toEqual(['get']);
    expect(Object.keys(document.paths['/api/reports'])).toEqual(['post']);
  });

  it('describes the query parameters from the zod schemas, required where validation requires them', () => {
    expect(document.paths['/catalog/search'].get.parameters).toEqual([
      {
        name: 'q',
        in: 'query',
        required: true,
        description: SearchQuery.shape.q.meta()?.description,
        schema: { type: 'string', minLength: 1, maxLength: 100 },
      },
      {
        name: 'page',
        in: 'query',
        required: false,
        description: SearchQuery.shape.page.meta()?.description,
        schema: { type: 'integer', minimum: 1, maximum: 500, default: 1 },
      },
      {
        name: 'source',
        in: 'query',
        required: false,
        description: SearchQuery.shape.source.meta()?.description,
        schema: { type: 'string', enum: ['site', 'catalog'], default: 'site' },
      },
    ]);
    expect(document.paths['/catalog/genres'].get.parameters).toEqual([]);
  });

  it('gives each endpoint its response schema, example, cache time and error responses', () => {
    const home = document.paths['/catalog/home'].get;
    expect(home.description).toContain('Answers stay fresh for 300 seconds.');
    const success = home.responses['200'];
    expect(success.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/HomeResponse' });
    expect(success.content['application/json'].example).toEqual(exampleFor('/catalog/home').response);
    expect(Object.keys(success.headers)).toEqual([
      'X-Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'X-Cache',
      'Age',
      'Cache-Control',
      'ETag',
    ]);
    expect(Object.keys(home.responses)).toEqual(['200', '304', '400', '404', '405', '429', '500', '502', '503', '504']);
    expect(Object.keys(document.paths['/catalog/genres'].get.responses)).not.toContain('400');
    expect(home.responses['429'].headers['Retry-After']).toEqual({ $ref: '#/components/headers/Retry-After' });
    expect(home.responses['502'].description).toBe(
      '`UPSTREAM_ERROR`: The upstream answered with an error, could not be reached, redirected to another domain, or served a page that is too large, cut off or not readable in time. ' +
        '`UPSTREAM_LAYOUT_CHANGED`: The page came back without what must be on it (a redesign); never an empty success',
    );
    expect(document.components.headers['X-RateLimit-Limit'].description).toBe('Requests allowed per window (50)');
    // One meaning per X-Cache value, as the README's table and the landing page's say.
    expect(document.components.headers['X-Cache']).toEqual({
      description:
        'HIT: within its TTL, from what the service keeps; the site is not asked. MISS: fetched from the site for this request. ' +
        'STALE: past its TTL, served without waiting for the site: a refresh runs, or, when meta.stale is set, the site failed.',
      schema: { type: 'string', enum: ['HIT', 'MISS', 'STALE'] },
    });
    // Only the search can answer from the local catalog (source=catalog), so only it names the crawler's code.
    expect(document.paths['/catalog/search'].get.responses['503'].description).toContain('`CATALOG_NOT_READY`');
    expect(home.responses['503'].description).not.toContain('CATALOG_NOT_READY');
    expect(home.responses['503'].description).toContain('`SERVICE_BUSY`');
  });

  it('references every shared shape as a component of its own', () => {
    const schemas = document.components.schemas;
    expect(Object.keys(schemas).sort()).toEqual(
      [
        'EpisodeCard',
        'Error',
        'ErrorDetail',
        'Genre',
        'GenreTag',
        'GenresResponse',
        'HomeResponse',
        'JsonFeed',
        'JsonFeedItem',
        'LatestMovie',
        'NewMovieResponse',
        'OngoingSeriesResponse',
        'Pagination',
        'PopularSeriesResponse',
        'RankedSeries',
        'RecommendationGroup',
        'ReportCreated',
        'ReportInput',
        'SearchResponse',
        'SeriesCard',
        'SliderItem',
        'Term',
        'DownloadGroup',
        'DownloadLink',
        'Episode',
        'EpisodeBySlugResponse',
        'EpisodeEntry',
        'EpisodeListItem',
        'EpisodeRef',
        'InfoEntry',
        'PageLink',
        'SeriesBySlugResponse',
        'SeriesDetail',
        'CatalogEntry',
        'CatalogExport',
        'RemovedSeries',
        'VideoServer',
        'AzList',
        'AzListResponse',
        'CompletedSeriesResponse',
        'CountriesBySlugResponse',
        'GenresBySlugResponse',
        'NetworksBySlugResponse',
        'ScheduleDay',
        'ScheduleResponse',
        'Scheduled',
        'SeasonCard',
        'SeasonListing',
        'SeasonsBySlugResponse',
        'SeriesFilter',
        'SeriesFilters',
        'SeriesResponse',
        'StudiosBySlugResponse',
        'TermListing',
      ].sort(),
    );
    expect(schemas.SearchResponse.properties.data.properties.results.items).toEqual({ $ref: '#/components/schemas/SeriesCard' });
    expect(JSON.stringify(document)).not.toContain('__shared');
    expect(JSON.stringify(document)).not.toContain('"$id"');
  });

  it("describes POST /api/reports with the form's fields and rules", () => {
    const operation = document.paths['/api/reports'].post;
    expect(operation.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ReportInput' });
    expect(document.components.schemas.ReportInput.required).toEqual(['category', 'endpoint', 'title', 'description', 'severity']);
    expect(document.components.schemas.ReportInput.properties.title).toEqual({
      description: 'A short summary, 1 to 100 characters (Unicode code points: an emoji counts once)',
      type: 'string',
      minLength: 1,
      maxLength: 100,
    });
    expect(Object.keys(operation.responses)).toEqual(['201', '400', '405', '413', '415', '429', '500', '503']);
  });
});

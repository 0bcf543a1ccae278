import type { FeedDefinition } from '../../feeds/table.js';
import type { ReportInput } from '../../reports/schema.js';
import { browseExamples } from './browse.js';
import { listExamples } from './lists.js';
import { seriesExamples } from './series.js';
import type { EndpointExample } from './shared.js';

export type { EndpointExample } from './shared.js';

// One example per endpoint for the API reference and /openapi.json. Each is typed by its endpoint's
// data schema, so a shape change that is not carried over here fails the type check; a test also
// parses every example with its endpoint's envelope.

const EXAMPLES: Record<string, EndpointExample> = { ...listExamples, ...seriesExamples, ...browseExamples };

export function exampleFor(path: string): EndpointExample {
  const example = EXAMPLES[path];
  if (!example) throw new Error(`No example for ${path} in src/openapi/examples/`);
  return example;
}

/** A feed's example path parameters: its catalog endpoint's example, narrowed to the parameters the feed's path takes. */
export function feedExample(feed: FeedDefinition): Record<string, string> {
  const { parameters } = exampleFor(feed.endpoint.path);
  return Object.fromEntries(Object.keys(feed.params.shape).map((name) => [name, parameters[name]!]));
}

/** A report as a client sends it to POST /api/reports. */
export const REPORT_EXAMPLE: ReportInput = {
  category: 'wrong-data',
  endpoint: '/catalog/ongoing-series',
  title: 'Poster kosong di halaman 2',
  description: 'Beberapa serial di /catalog/ongoing-series?page=2 punya poster null, padahal di situs sumber ada gambarnya.',
  severity: 'medium',
};

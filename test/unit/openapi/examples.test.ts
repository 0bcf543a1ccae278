import { describe, expect, it } from 'vitest';
import { endpoints } from '../../../src/catalog/endpoints/index.js';
import { exampleFor, REPORT_EXAMPLE } from '../../../src/openapi/examples/index.js';
import { successEnvelope } from '../../../src/contract/schemas.js';
import { endpointText } from '../../../src/pages/endpointText.js';
import { feeds } from '../../../src/feeds/table.js';
import { ReportInput } from '../../../src/reports/schema.js';

describe('the examples of the API reference', () => {
  it.each(endpoints.map((endpoint) => [endpoint.path, endpoint] as const))(
    '%s: the example is a valid answer of that endpoint',
    (_path, endpoint) => {
      const { parameters, response } = exampleFor(endpoint.path);
      expect(successEnvelope(endpoint.data).strict().parse(response)).toEqual(response);
      expect(endpoint.input.safeParse(parameters).success).toBe(true);
      expect(response.pagination === null).toBe(!endpoint.paginated);
    },
  );

  it('has an Indonesian text for every endpoint', () => {
    for (const endpoint of endpoints) expect(endpointText(endpoint.path).summary).not.toBe('');
    for (const feed of feeds) expect(endpointText(feed.path).summary).not.toBe('');
  });

  it('refuses a path it has no example for', () => {
    expect(() => exampleFor('/catalog/nope')).toThrow('No example for /catalog/nope');
  });

  it('gives a report example that passes the report validation unchanged', () => {
    expect(ReportInput.parse(REPORT_EXAMPLE)).toEqual(REPORT_EXAMPLE);
  });
});

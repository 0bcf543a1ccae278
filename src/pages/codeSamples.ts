// Ready-to-paste code for one example request, in the three languages the API reference shows.
// Every request answers either the JSON envelope (`application/json`), another JSON document (a
// JSON Feed, `application/feed+json`) or text (Atom, RSS); every error is the JSON envelope.

export interface SampleRequest {
  method: 'GET' | 'POST';
  /** Absolute, with the example's path and query parameters filled in. */
  url: string;
  /** The media type of a successful answer, as /openapi.json names it. */
  mediaType: string;
  /** Sent as JSON (POST). */
  body?: Record<string, unknown>;
}

/** @internal exported for the tests: the code-sample tests key the samples they run by it. */
export type SampleLanguage = 'curl' | 'javascript' | 'python';

interface CodeSample {
  language: SampleLanguage;
  label: string;
  code: string;
}

/** How a successful answer is read: the envelope's `data`, a JSON document, or text. */
type AnswerForm = 'envelope' | 'json' | 'text';

/** @internal exported for the tests: the code-sample tests read each sample's output as its answer form says. */
export function answerForm(mediaType: string): AnswerForm {
  const essence = mediaType.split(';')[0]!.trim().toLowerCase();
  if (essence === 'application/json') return 'envelope';
  return essence.endsWith('+json') ? 'json' : 'text';
}

/** A POSIX shell word: single-quoted, a quote inside written as '\''. */
const shellWord = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

/** A JSON string literal is also a valid JavaScript and Python string literal. */
const stringLiteral = (text: string) => JSON.stringify(text);

function pythonLiteral(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return stringLiteral(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) return `[\n${value.map((item) => `${inner}${pythonLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{\n${entries.map(([key, item]) => `${inner}${stringLiteral(key)}: ${pythonLiteral(item, inner)},`).join('\n')}\n${indent}}`;
}

function curl({ method, url, body }: SampleRequest): string {
  if (method === 'GET') return `curl ${shellWord(url)}`;
  return [`curl -X POST ${shellWord(url)}`, `  -H 'Content-Type: application/json'`, `  --data ${shellWord(JSON.stringify(body))}`].join(
    ' \\\n',
  );
}

function javascript({ method, url, mediaType, body }: SampleRequest): string {
  const options =
    method === 'GET'
      ? ''
      : `, {\n  method: "POST",\n  headers: { "Content-Type": "application/json" },\n  body: JSON.stringify(${JSON.stringify(body, null, 2).replaceAll('\n', '\n  ')}),\n}`;
  const read = {
    envelope: 'const { data } = await response.json();',
    json: 'const data = await response.json();',
    text: 'const data = await response.text();',
  }[answerForm(mediaType)];
  return [
    `const response = await fetch(${stringLiteral(url)}${options});`,
    'if (!response.ok) {',
    '  const { error } = await response.json();',
    '  throw new Error(`${error.code}: ${error.message}`);',
    '}',
    read,
    'console.log(data);',
  ].join('\n');
}

function python({ method, url, mediaType, body }: SampleRequest): string {
  const call =
    method === 'GET'
      ? `requests.get(${stringLiteral(url)}, timeout=30)`
      : `requests.post(\n    ${stringLiteral(url)},\n    json=${pythonLiteral(body, '    ')},\n    timeout=30,\n)`;
  const form = answerForm(mediaType);
  const read = { envelope: 'data = response.json()["data"]', json: 'data = response.json()', text: 'data = response.text' }[form];
  const show = form === 'text' ? 'print(data)' : 'print(json.dumps(data, indent=2, ensure_ascii=False))';
  return [
    ...(form === 'text' ? [] : ['import json', '']),
    'import requests',
    '',
    `response = ${call}`,
    'if not response.ok:',
    '    error = response.json()["error"]',
    "    raise RuntimeError(f\"{error['code']}: {error['message']}\")",
    read,
    show,
  ].join('\n');
}

/**
 * The request in curl, JavaScript (fetch) and Python (requests), each reading the answer as its media type says.
 * @internal exported for the tests: its unit test checks each language's code for one request.
 */
export function codeSamples(request: SampleRequest): CodeSample[] {
  return [
    { language: 'curl', label: 'curl', code: curl(request) },
    { language: 'javascript', label: 'JavaScript (fetch)', code: javascript(request) },
    { language: 'python', label: 'Python (requests)', code: python(request) },
  ];
}

/**
 * One request's samples as views/partials/code-samples.ejs shows them: an endpoint's, a feed's or the
 * report API's, so each section of the reference plugs in the same way.
 */
export interface SampleView {
  /** What the Copy buttons name, e.g. "GET /catalog/search". */
  name: string;
  mediaType: string;
  samples: CodeSample[];
}

export function sampleView(name: string, request: SampleRequest): SampleView {
  return { name, mediaType: request.mediaType, samples: codeSamples(request) };
}

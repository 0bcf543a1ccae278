import { describe, expect, it } from 'vitest';
import { codeSamples, type SampleLanguage, type SampleRequest } from '../../../src/pages/codeSamples.js';

const sampleIn = (language: SampleLanguage, request: SampleRequest) =>
  codeSamples(request).find((sample) => sample.language === language)?.code;

const search: SampleRequest = { method: 'GET', url: 'https://api.example/catalog/search?q=soul', mediaType: 'application/json' };

describe('code samples of an example request', () => {
  it('gives curl, JavaScript and Python, in that order, with their labels', () => {
    expect(codeSamples(search).map(({ language, label }) => [language, label])).toEqual([
      ['curl', 'curl'],
      ['javascript', 'JavaScript (fetch)'],
      ['python', 'Python (requests)'],
    ]);
  });

  it('reads the JSON envelope: data on success, the error code and message otherwise', () => {
    expect(sampleIn('curl', search)).toBe("curl 'https://api.example/catalog/search?q=soul'");
    expect(sampleIn('javascript', search)).toBe(
      [
        'const response = await fetch("https://api.example/catalog/search?q=soul");',
        'if (!response.ok) {',
        '  const { error } = await response.json();',
        '  throw new Error(`${error.code}: ${error.message}`);',
        '}',
        'const { data } = await response.json();',
        'console.log(data);',
      ].join('\n'),
    );
    expect(sampleIn('python', search)).toBe(
      [
        'import json',
        '',
        'import requests',
        '',
        'response = requests.get("https://api.example/catalog/search?q=soul", timeout=30)',
        'if not response.ok:',
        '    error = response.json()["error"]',
        `    raise RuntimeError(f"{error['code']}: {error['message']}")`,
        'data = response.json()["data"]',
        'print(json.dumps(data, indent=2, ensure_ascii=False))',
      ].join('\n'),
    );
  });

  it('reads a feed as text (Atom, RSS) or as a JSON document (JSON Feed), by its media type', () => {
    const atom: SampleRequest = {
      method: 'GET',
      url: 'https://api.example/feeds/latest.atom',
      mediaType: 'application/atom+xml; charset=utf-8',
    };
    expect(sampleIn('curl', atom)).toBe("curl 'https://api.example/feeds/latest.atom'");
    expect(sampleIn('javascript', atom)).toContain('\nconst data = await response.text();\nconsole.log(data);');
    expect(sampleIn('python', atom)).toMatch(/^import requests\n/);
    expect(sampleIn('python', atom)).toContain('\ndata = response.text\nprint(data)');

    const jsonFeed: SampleRequest = {
      method: 'GET',
      url: 'https://api.example/feeds/latest.json',
      mediaType: 'application/feed+json; charset=utf-8',
    };
    expect(sampleIn('javascript', jsonFeed)).toContain('\nconst data = await response.json();\n');
    expect(sampleIn('python', jsonFeed)).toContain('\ndata = response.json()\nprint(json.dumps(data, indent=2, ensure_ascii=False))');
  });

  it('sends a POST body as JSON, quoted for the shell and written as a Python literal', () => {
    const post: SampleRequest = {
      method: 'POST',
      url: 'https://api.example/api/reports',
      mediaType: 'application/json',
      body: { title: "It's broken", count: 2, urgent: true, note: null, tags: ['a', 'b'] },
    };
    expect(sampleIn('curl', post)).toBe(
      [
        "curl -X POST 'https://api.example/api/reports' \\",
        "  -H 'Content-Type: application/json' \\",
        `  --data '{"title":"It'\\''s broken","count":2,"urgent":true,"note":null,"tags":["a","b"]}'`,
      ].join('\n'),
    );
    expect(sampleIn('javascript', post)).toMatch(
      /^const response = await fetch\("https:\/\/api\.example\/api\/reports", \{\n {2}method: "POST",\n {2}headers: \{ "Content-Type": "application\/json" \},\n {2}body: JSON\.stringify\(\{\n {4}"title": "It's broken",\n/,
    );
    expect(sampleIn('python', post)).toContain(
      [
        'response = requests.post(',
        '    "https://api.example/api/reports",',
        '    json={',
        '        "title": "It\'s broken",',
        '        "count": 2,',
        '        "urgent": True,',
        '        "note": None,',
        '        "tags": [',
        '            "a",',
        '            "b",',
        '        ],',
        '    },',
        '    timeout=30,',
        ')',
      ].join('\n'),
    );
  });
});

import { createHash } from 'node:crypto';
import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../simulator/server.js';

const AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
let simulator: Simulator;
const get = (path: string, headers: Record<string, string> = {}) =>
  axios.get<string>(`${simulator.origin}${path}`, {
    headers: { 'user-agent': AGENT, ...headers },
    validateStatus: () => true,
    maxRedirects: 0,
  });
const post = (path: string, body: unknown) =>
  axios.post<string>(`${simulator.origin}${path}`, body, { headers: { 'user-agent': AGENT }, validateStatus: () => true });

beforeAll(async () => {
  simulator = await startSimulator({ wall: { difficulty: 1, minSolveMs: 0, clearanceTtlMs: 60_000 } });
});
afterAll(() => simulator.close());

const work = (nonce: string, answer: number) => createHash('sha256').update(`${nonce}:${AGENT}:${answer}`).digest('hex');

/** Does in Node what the challenge page's script does in a browser; `wrong` is an answer whose work falls short. */
function prove(page: string): { ray: string; nonce: string; answer: number; wrong: number } {
  const ray = /cRay: '([^']+)'/.exec(page)?.[1] ?? '';
  const nonce = /cN: '([^']+)'/.exec(page)?.[1] ?? '';
  let answer = 0;
  while (!work(nonce, answer).startsWith('0')) answer++;
  // At difficulty 1 one answer in 16 passes by chance, so the wrong one is checked, not assumed.
  let wrong = -1;
  while (work(nonce, wrong).startsWith('0')) wrong--;
  return { ray, nonce, answer, wrong };
}

describe('the wall', () => {
  it('serves the live challenge: markers, nonce, difficulty, return URL and its script', async () => {
    const page = await get('/ongoing/?x=1');
    expect(page.status).toBe(403);
    expect(page.headers['cf-mitigated']).toBe('challenge');
    expect(page.data).toContain('cDiff: 1,');
    expect(page.data).toContain(`ru: '${Buffer.from(`${simulator.origin}/ongoing/?x=1`).toString('base64')}'`);
    const script = await get('/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1?ray=1');
    expect(script.status).toBe(200);
    expect(script.data).toContain('crypto.subtle.digest');
  });

  it('issues an HttpOnly clearance for a valid proof and refuses automation, wrong work and other agents', async () => {
    const before = simulator.wallStats();
    const proof = prove((await get('/')).data);
    const flow = `/cdn-cgi/challenge-platform/h/b/flow/ov1/${proof.ray}`;
    expect((await post(flow, { nonce: proof.nonce, answer: proof.answer, wd: true })).status).toBe(403);
    expect((await post(flow, { nonce: proof.nonce, answer: proof.wrong, wd: false })).status).toBe(403);
    const granted = await post(flow, { nonce: proof.nonce, answer: proof.answer, wd: false });
    expect(granted.status).toBe(200);
    const setCookie = granted.headers['set-cookie']?.[0] ?? '';
    expect(setCookie).toMatch(/^cf_clearance=\d+\.[\w-]+; Path=\/; Expires=.+; HttpOnly$/);
    const cookie = setCookie.split(';')[0] as string;
    expect((await get('/ongoing/', { cookie })).status).toBe(200);
    expect((await get('/ongoing/', { cookie, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await get('/ongoing/', { cookie, 'user-agent': 'curl/8.0' })).status).toBe(403);
    expect(simulator.wallStats()).toEqual({
      challenged: before.challenged + 2,
      solved: before.solved + 1,
      rejected: before.rejected + 2,
      passed: before.passed + 2,
      passedSameOrigin: before.passedSameOrigin + 1,
    });
  });

  it('lets a minted clearance through for its IP and User-Agent only', async () => {
    const cookie = `cf_clearance=${simulator.mintClearance('127.0.0.1', AGENT)}`;
    expect((await get('/', { cookie })).status).toBe(200);
    expect((await get('/', { cookie: `cf_clearance=${simulator.mintClearance('10.0.0.9', AGENT)}` })).status).toBe(403);
  });
});

describe('wall-style faults', () => {
  it('answers a 429 with Retry-After and the 1015 page, a 1020 block, and a parked page', async () => {
    const plain = await startSimulator({
      faults: [
        { kind: 'rate-limit', retryAfterSeconds: 7, pathPrefix: '/a' },
        { kind: 'block', pathPrefix: '/b' },
        { kind: 'parked', pathPrefix: '/c' },
      ],
    });
    try {
      const limited = await axios.get<string>(`${plain.origin}/a`, { validateStatus: () => true });
      expect([limited.status, limited.headers['retry-after']]).toEqual([429, '7']);
      expect(limited.data).toContain('<span class="cf-error-code">1015</span>');
      const blocked = await axios.get<string>(`${plain.origin}/b`, { validateStatus: () => true });
      expect(blocked.status).toBe(403);
      expect(blocked.data).toContain('<span class="cf-error-code">1020</span>');
      expect(blocked.data).toContain('Sorry, you have been blocked');
      const parked = await axios.get<string>(`${plain.origin}/c`, { validateStatus: () => true });
      expect(parked.status).toBe(200);
      expect(parked.data).not.toContain('wp-content');
    } finally {
      await plain.close();
    }
  });
});

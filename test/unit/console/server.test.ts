import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { Hub } from '../../../src/console/hub.js';
import { LiveScreen } from '../../../src/console/live-screen.js';
import { ConsoleSite } from '../../../src/console/server.js';
import { temporaryFolder } from '../../support/temp.js';

const STANDING = 'standing-key-0123456789';
let http: Server;
let site: ConsoleSite;
let hub: Hub;
let origin: string;

beforeAll(async () => {
  hub = new Hub(temporaryFolder('macpilot-console-'));
  const screen = new LiveScreen(
    async () => undefined,
    () => false,
  );
  site = new ConsoleSite({ hub, screen, host: '127.0.0.1', standingKey: STANDING });
  http = createServer((req, res) => {
    void site.handle(req, res).then((handled) => {
      if (!handled) res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  const address = http.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(() => {
  site.close();
  hub.close();
  http.close();
});

async function open(key: string) {
  const res = await fetch(`${origin}/console/open?key=${key}`, { redirect: 'manual' });
  return { status: res.status, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '', res };
}

describe('the console site', () => {
  test('a one-time link opens it once, with a host-only cookie the page needs; the standing key opens it always', async () => {
    const link = site.oneTimeLink();
    const first = await fetch(`${origin}${link}`, { redirect: 'manual' });
    // A page of the console's own host goes on to it (a redirect would keep another site's navigation going).
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('<meta http-equiv="refresh" content="0;url=/console/">');
    expect(first.headers.get('set-cookie')).toMatch(
      /^macpilot_console=[\w-]{40,}; Path=\/console; HttpOnly; SameSite=Strict$/,
    );
    expect((await fetch(`${origin}${link}`, { redirect: 'manual' })).status).toBe(403);
    expect((await open(STANDING)).status).toBe(200);
    expect((await open(STANDING)).status).toBe(200);
    expect((await open('guess')).status).toBe(403);
    expect((await fetch(`${origin}/console/`)).status).toBe(403);
    const { cookie } = await open(STANDING);
    const page = await fetch(`${origin}/console/`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(await page.text()).toContain('<script type="module" src="console.js"></script>');
  });

  test("the person's actions take JSON from the page's own origin only, small and well formed", async () => {
    const { cookie } = await open(STANDING);
    const post = (path: string, headers: Record<string, string>, body: string) =>
      fetch(`${origin}/console/${path}`, { method: 'POST', headers: { cookie, ...headers }, body });
    const json = { 'content-type': 'application/json', origin };
    expect((await post('answer', { ...json, origin: 'http://evil.example' }, '{}')).status).toBe(403);
    expect((await post('answer', { origin, 'content-type': 'text/plain' }, '{}')).status).toBe(403);
    expect((await post('answer', { 'content-type': 'application/json' }, '{}')).status).toBe(403);
    expect((await post('answer', json, 'x'.repeat(5000))).status).toBe(413);
    expect((await post('answer', json, 'not json')).status).toBe(400);
    expect((await post('answer', json, '{"id":"q1","answer":"maybe"}')).status).toBe(400);
    const closed = await post('answer', json, '{"id":"q1","answer":"once"}');
    expect(closed.status).toBe(409);
    expect(await closed.text()).toContain('no longer open');
    expect((await post('stop', json, '{"minutes":-1}')).status).toBe(400);
    expect((await fetch(`${origin}/console/screen`, { headers: { cookie } })).status).toBe(404);
  });

  test('a foreign Host is refused before anything else', async () => {
    const { cookie } = await open(STANDING);
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${origin}/console/`, { headers: { cookie, host: 'evil.example' } }, (res) =>
        resolve(res.statusCode ?? 0),
      );
      req.once('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  test('an allow that comes while an agent acts is not taken (it may be the agent clicking the page); a deny is', async () => {
    const { cookie } = await open(STANDING);
    const answer = (body: unknown) =>
      fetch(`${origin}/console/answer`, {
        method: 'POST',
        headers: { cookie, origin, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const acting = vi.spyOn(hub, 'agentActing').mockReturnValue(true);
    try {
      const allow = await answer({ id: 'q1', answer: 'once' });
      expect(allow.status).toBe(409);
      expect(await allow.text()).toContain('an agent is acting right now');
      const deny = await answer({ id: 'q1', answer: 'deny' });
      // Taken: it reaches the hub, which has no such question.
      expect(await deny.text()).toContain('no longer open');
    } finally {
      acting.mockRestore();
    }
  });
});

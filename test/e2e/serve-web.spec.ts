/**
 * scripts/serve-web.mjs: MIME types, the asset manifest, and refusal of paths outside dist/web.
 * Raw node:http requests, because browsers and fetch normalise '..' away before sending.
 */
import { expect, test } from '@playwright/test';
import { request } from 'node:http';

const port = Number(process.env.TERRAWHEEL_WEB_PORT ?? 5173);

function get(path: string, method = 'GET'): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('serves the app, its script bundle and the asset manifest with the right MIME types', async () => {
  const index = await get('/');
  expect(index.status).toBe(200);
  expect(index.type).toContain('text/html');
  expect(index.body).toContain("script-src 'self'");
  const script = /src="\.\/(static\/index-[^"]+\.js)"/.exec(index.body);
  expect(script).not.toBeNull();
  const js = await get(`/${script![1]}`);
  expect(js.status).toBe(200);
  expect(js.type).toContain('text/javascript');
  const manifest = await get('/assets-manifest.json');
  expect(manifest.type).toContain('application/json');
  const entries = JSON.parse(manifest.body) as { path: string; kind: string; size: number }[];
  expect(entries.some((e) => e.path === 'scenarios/default.json' && e.kind === 'scenario')).toBe(true);
  const png = entries.find((e) => e.kind === 'terrain-image');
  expect(png).toBeDefined();
  const img = await get(`/assets/${png!.path}`, 'HEAD');
  expect(img.status).toBe(200);
  expect(img.type).toBe('image/png');
});

test('refuses paths outside dist/web and unknown methods', async () => {
  for (const p of ['/../package.json', '/%2e%2e/package.json', '/static/..%2f..%2fpackage.json', '/assets/..%5c..%5cpackage.json']) {
    const r = await get(p);
    expect(r.status, p).toBe(403);
  }
  expect((await get('/no-such-file.js')).status).toBe(404);
  expect((await get('/', 'POST')).status).toBe(405);
});

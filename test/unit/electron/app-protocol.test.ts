import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, appResponseHeaders, isAppUrl, mimeTypeFor, resolveAppRequest } from '../../../electron/app-protocol';
import { RENDERER_CSP } from '../../../electron/ipc-contract';

const roots = { web: '/app/dist/web', assets: '/app/assets' };
const posix = path.posix;

describe('resolveAppRequest', () => {
  it('maps the root and index to index.html', () => {
    for (const url of ['app://terrawheel/', 'app://terrawheel', APP_ENTRY_URL]) {
      const r = resolveAppRequest(url, roots, posix);
      expect(r).toMatchObject({ ok: true, candidates: ['/app/dist/web/index.html'], mimeType: 'text/html; charset=utf-8' });
    }
  });

  it('serves hashed bundles and the worker with a JavaScript MIME type (module workers need it)', () => {
    const r = resolveAppRequest('app://terrawheel/static/worker-AbC123.js?v=1#x', roots, posix);
    expect(r).toMatchObject({ ok: true, candidates: ['/app/dist/web/static/worker-AbC123.js'], mimeType: 'text/javascript; charset=utf-8' });
  });

  it('falls back from dist/web/assets to the bundled assets root', () => {
    const r = resolveAppRequest('app://terrawheel/assets/terrains/hills%20v2.png', roots, posix);
    expect(r).toEqual({
      ok: true,
      candidates: ['/app/dist/web/assets/terrains/hills v2.png', '/app/assets/terrains/hills v2.png'],
      sources: [
        { root: '/app/dist/web', segments: ['assets', 'terrains', 'hills v2.png'] },
        { root: '/app/assets', segments: ['terrains', 'hills v2.png'] },
      ],
      mimeType: 'image/png',
    });
  });

  it('refuses traversal, encoded traversal, backslashes and other hosts', () => {
    // WHATWG URL parsing folds '..' and '%2e%2e' segments itself; '%2f' and '%5c' survive it and reach our check.
    expect(resolveAppRequest('app://terrawheel/static/..%2f..%2fsecret', roots, posix)).toMatchObject({ ok: false, status: 400 });
    expect(resolveAppRequest('app://terrawheel/a%5c..%5cb', roots, posix)).toMatchObject({ ok: false, status: 400 });
    expect(resolveAppRequest('app://terrawheel/a%00b', roots, posix)).toMatchObject({ ok: false, status: 400 });
    expect(resolveAppRequest('app://terrawheel/%E0%A4%A', roots, posix)).toMatchObject({ ok: false, status: 400 });
    expect(resolveAppRequest('app://evil/index.html', roots, posix)).toMatchObject({ ok: false, status: 404 });
    expect(resolveAppRequest('https://terrawheel/index.html', roots, posix)).toMatchObject({ ok: false, status: 404 });
    expect(resolveAppRequest('not a url', roots, posix)).toMatchObject({ ok: false, status: 400 });
  });

  it("'..' and '%2e%2e' segments in the URL cannot climb above the web root", () => {
    for (const url of ['app://terrawheel/static/../../../../etc/passwd', 'app://terrawheel/%2e%2e/%2E%2e/etc/passwd', 'app://terrawheel/assets/../../x']) {
      const r = resolveAppRequest(url, roots, posix);
      expect(r.ok).toBe(true);
      if (r.ok) for (const c of r.candidates) expect(c.startsWith('/app/dist/web/') || c.startsWith('/app/assets/')).toBe(true);
    }
  });
});

describe('isAppUrl (navigation guard)', () => {
  it('allows only app://terrawheel', () => {
    expect(isAppUrl('app://terrawheel/index.html')).toBe(true);
    expect(isAppUrl('app://terrawheel/#/replay')).toBe(true);
    expect(isAppUrl('https://example.com/')).toBe(false);
    expect(isAppUrl('file:///etc/passwd')).toBe(false);
    expect(isAppUrl('app://terrawheel.evil.com/')).toBe(false);
    expect(isAppUrl('app://evil@terrawheel2/')).toBe(false);
    expect(isAppUrl('javascript:alert(1)')).toBe(false);
    expect(isAppUrl('')).toBe(false);
  });
});

describe('headers and MIME', () => {
  it('sends the renderer CSP, nosniff and the content type', () => {
    const h = appResponseHeaders('text/html; charset=utf-8');
    expect(h['Content-Security-Policy']).toBe(RENDERER_CSP);
    expect(h['X-Content-Type-Options']).toBe('nosniff');
    expect(h['Content-Type']).toBe('text/html; charset=utf-8');
  });
  it('the CSP has no unsafe script sources (WebAssembly compilation only) and blocks plugins and <base>', () => {
    const directives = new Map(RENDERER_CSP.split(';').map((d) => d.trim().split(/\s+/) as [string, ...string[]]).map(([k, ...v]) => [k, v]));
    // 'wasm-unsafe-eval' lets the recording codecs (zstd/lz4 WASM) compile; it allows no JS eval.
    expect(directives.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('worker-src')).toEqual(["'self'", 'blob:']);
    expect(RENDERER_CSP.replace("'wasm-unsafe-eval'", '')).not.toContain('unsafe-eval');
  });
  it('knows wasm and falls back to octet-stream', () => {
    expect(mimeTypeFor('x/y.WASM')).toBe('application/wasm');
    expect(mimeTypeFor('noext')).toBe('application/octet-stream');
    expect(mimeTypeFor('a.bin')).toBe('application/octet-stream');
  });
});

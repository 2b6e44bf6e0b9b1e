/**
 * The app:// scheme that serves the renderer, as plain functions (main.ts does the Electron part).
 *
 * Why not file://: Chromium gives file:// pages an opaque origin, so module workers
 * (`new Worker(url, { type: 'module' })`), fetch() of bundled assets and a meaningful
 * CSP 'self' all break. A privileged standard + secure scheme behaves like an https origin.
 *
 *   app://terrawheel/                 -> <web root>/index.html
 *   app://terrawheel/static/x.js      -> <web root>/static/x.js
 *   app://terrawheel/assets/a/b.json  -> <web root>/assets/a/b.json, else <assets root>/a/b.json
 *
 * Every path segment is validated like an asset path ('..', empty segments, backslashes and
 * control characters give 400), so a request can never leave the two roots; main reads the file
 * with node-files.ts readFileNoSymlinks, so a symbolic link inside a root is not followed either.
 */

import * as nodePath from 'node:path';
import { RENDERER_CSP } from './ipc-contract';
import { expectAssetPath } from './validate';

export const APP_SCHEME = 'app';
export const APP_HOST = 'terrawheel';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

export interface AppRoots {
  /** dist/web (the Vite build). */
  web: string;
  /** The bundled assets/ folder (fallback for app://terrawheel/assets/...). */
  assets: string;
}

export type AppRequestResolution =
  | { ok: true; candidates: string[]; sources: { root: string; segments: string[] }[]; mimeType: string }
  | { ok: false; status: 400 | 404; reason: string };

const MIME_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
  map: 'application/json',
  wasm: 'application/wasm',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
  txt: 'text/plain; charset=utf-8',
  urdf: 'application/xml',
  xml: 'application/xml',
};

export function mimeTypeFor(filePath: string): string {
  const dot = filePath.lastIndexOf('.');
  const ext = dot < 0 ? '' : filePath.slice(dot + 1).toLowerCase();
  return MIME_TYPES[ext] ?? 'application/octet-stream';
}

/** True when `url` is a page of this app (the only place navigation may go). */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}

/** Maps an app:// request URL to the files that may answer it, first existing one wins. */
export function resolveAppRequest(url: string, roots: AppRoots, path: nodePath.PlatformPath = nodePath): AppRequestResolution {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, status: 400, reason: 'malformed URL' };
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return { ok: false, status: 404, reason: `unknown host '${u.host}'` };
  let rel: string;
  try {
    rel = decodeURIComponent(u.pathname).replace(/^\/+/, '');
  } catch {
    return { ok: false, status: 400, reason: 'malformed percent-encoding' };
  }
  if (rel === '' || rel.endsWith('/')) rel += 'index.html';
  try {
    expectAssetPath('url', rel);
  } catch (err) {
    return { ok: false, status: 400, reason: (err as Error).message };
  }
  const segments = rel.split('/');
  // `sources` is the same list as root + segments, so main can refuse symbolic links below the root.
  const sources = [{ root: roots.web, segments }];
  if (segments[0] === 'assets' && segments.length > 1) sources.push({ root: roots.assets, segments: segments.slice(1) });
  const candidates = sources.map((s) => path.join(s.root, ...s.segments));
  return { ok: true, candidates, sources, mimeType: mimeTypeFor(rel) };
}

/** Headers of every app:// response. CSP on scripts too: a worker takes its CSP from its own response. */
export function appResponseHeaders(mimeType: string): Record<string, string> {
  return {
    'Content-Type': mimeType,
    'Content-Security-Policy': RENDERER_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
  };
}

#!/usr/bin/env node
/**
 * Tiny static server for the web build (dist/web), no dependencies: node:http only.
 *
 *   node scripts/serve-web.mjs [--port N] [--dir PATH]     (PORT env also works; default 5173; 0 = any free port)
 *
 * Listens on 127.0.0.1 only, serves files with correct MIME types, refuses anything outside the
 * served directory (.. segments, encoded slashes, symlinks pointing out), and prints
 * "TerraWheel web app: http://127.0.0.1:PORT/" once listening (tests wait for that line).
 */
import { createReadStream, existsSync, realpathSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function argValue(name) {
  const k = process.argv.indexOf(name);
  return k >= 0 ? process.argv[k + 1] : undefined;
}

const portArg = argValue('--port') ?? process.env.PORT ?? '5173';
const port = Number(portArg);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`serve-web: port must be an integer 0..65535, got "${portArg}"`);
  process.exit(2);
}
const root = resolve(argValue('--dir') ?? join(repo, 'dist/web'));
if (!existsSync(join(root, 'index.html'))) {
  console.error(`serve-web: ${root}/index.html not found; run "npm run build:web" first`);
  process.exit(1);
}
const realRoot = realpathSync(root);

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.urdf': 'application/xml; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
};

/** Maps a request path to a file inside root, or null when it must be refused. */
function resolveRequest(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  if (decoded.split('/').some((seg) => seg === '..')) return null;
  let file = resolve(root, `.${decoded}`);
  if (file !== root && !file.startsWith(root + sep)) return null;
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
  if (!existsSync(file)) return undefined;
  const real = realpathSync(file);
  if (real !== realRoot && !real.startsWith(realRoot + sep)) return null;
  return statSync(real).isFile() ? real : undefined;
}

const server = createServer((req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  const urlPath = (req.url ?? '/').split('?')[0].split('#')[0];
  const file = resolveRequest(urlPath);
  if (file === null) {
    res.writeHead(403, { 'Content-Type': 'text/plain' }).end('forbidden\n');
    return;
  }
  if (file === undefined) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
    return;
  }
  res.writeHead(200, {
    'Content-Type': MIME[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'Content-Length': statSync(file).size,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
});

server.listen(port, '127.0.0.1', () => {
  const addr = server.address();
  const actual = typeof addr === 'object' && addr ? addr.port : port;
  console.log(`TerraWheel web app: http://127.0.0.1:${actual}/`);
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.close(() => process.exit(0)));

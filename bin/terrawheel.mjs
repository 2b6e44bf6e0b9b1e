#!/usr/bin/env node
/**
 * The `terrawheel` command (package.json "bin"): `npx terrawheel …` in a clone after
 * `npm install`, and `npm run sim -- …`. The CLI is TypeScript (sim/node/cli.ts). It runs from a
 * cached esbuild bundle of itself (sim/node/bundle-cache.mjs: `.cache/cli/<key>/cli.mjs`, the key a
 * hash of every source, checked by a stamp of their sizes and modification times), built on the
 * first run after any change (esbuild, under a second): the command always runs the checked-out
 * source, without loading tsx and compiling the module graph through it in every process. If the
 * bundle cannot be had (esbuild missing, the cache not writable, a build error) or
 * TERRAWHEEL_TSX=1 is set, it runs the sources through tsx's loader, as the tests and
 * `npm run bench` do. tsx and esbuild are devDependencies, which a clone installs (the package is
 * private and never installed as someone else's dependency).
 *
 * stdout carries only the command's result (with --json: one JSON document); progress and
 * errors go to stderr.
 */
let main;
if (process.env.TERRAWHEEL_TSX !== '1') {
  let bundle;
  try {
    const { cliBundle } = await import('../sim/node/bundle-cache.mjs');
    bundle = await cliBundle();
  } catch (e) {
    process.stderr.write(`terrawheel: no CLI bundle (${String(e?.message ?? e).split('\n')[0]}); running the sources through tsx (slower start)\n`);
  }
  // a bundle that was built but does not load (its cache moved outside the repository, so its
  // packages do not resolve) falls back too; an error of the CLI itself surfaces again below
  if (bundle !== undefined) {
    try {
      ({ main } = await import(bundle));
    } catch (e) {
      process.stderr.write(`terrawheel: the CLI bundle did not load (${String(e?.message ?? e).split('\n')[0]}); running the sources through tsx (slower start)\n`);
    }
  }
}
if (main === undefined) {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write('terrawheel: the TypeScript loader tsx is not installed; run `npm install` in the TerraWheel folder (with its devDependencies).\n');
    process.exit(1);
  }
  register();
  ({ main } = await import('../sim/node/cli.ts'));
}
await main(process.argv.slice(2));

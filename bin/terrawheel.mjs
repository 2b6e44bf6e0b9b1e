#!/usr/bin/env node
/**
 * The `terrawheel` command (package.json "bin"): `npx terrawheel …` in a clone after
 * `npm install`, and `npm run sim -- …`. The CLI is TypeScript (sim/node/cli.ts) run through
 * tsx's loader, the same way the tests and `npm run bench` run it: no build step, so the command
 * always runs the checked-out source. tsx is a devDependency, which a clone installs (the
 * package is private and never installed as someone else's dependency).
 *
 * stdout carries only the command's result (with --json: one JSON document); progress and
 * errors go to stderr.
 */
let register;
try {
  ({ register } = await import('tsx/esm/api'));
} catch {
  process.stderr.write('terrawheel: the TypeScript loader tsx is not installed; run `npm install` in the TerraWheel folder (with its devDependencies).\n');
  process.exit(1);
}
register();
const { main } = await import('../sim/node/cli.ts');
await main(process.argv.slice(2));

// `npm run dist` packages the desktop app with Electron 45's tool chain (electron-builder,
// @electron/rebuild, node-abi), which needs Node 22.12 or newer. Everything else (tests, the web
// app, the headless sim) runs on Node 20. Say so plainly instead of failing deep inside a tool.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`npm run dist needs Node 22.12 or newer (Electron 45's packaging tools); this is Node ${process.versions.node}. Tests, \`npm start\` and \`npm run web\` work on Node 20.`);
  process.exit(1);
}

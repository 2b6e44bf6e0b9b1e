// The Node versions TerraWheel needs, in one place: Node 20.19 runs the tests, `npm start`, the
// web app and the headless sim (Vite 7 needs it); `npm run dist` packages with Electron 45's tool
// chain (electron-builder, @electron/rebuild, node-abi), which needs Node 22.12 or newer.
export const MIN_NODE = [20, 19];
export const DIST_NODE = [22, 12];

function atLeast(version, [wantMajor, wantMinor]) {
  const [major, minor] = version.split('.').map(Number);
  return major > wantMajor || (major === wantMajor && minor >= wantMinor);
}

export const nodeSupported = (version = process.versions.node) => atLeast(version, MIN_NODE);
export const nodeSupportsDist = (version = process.versions.node) => atLeast(version, DIST_NODE);

export function distNodeMessage(version = process.versions.node) {
  return `npm run dist needs Node ${DIST_NODE.join('.')} or newer (Electron 45's packaging tools); this is Node ${version}. Tests, \`npm start\` and \`npm run web\` work on Node ${MIN_NODE.join('.')}.`;
}

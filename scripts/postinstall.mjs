// After `npm install`: plain lines instead of npm's engine notices (hidden by .npmrc). Fails the
// install only on a Node too old for the tests and the app; a Node that cannot package the desktop
// app gets one line saying so.
import { MIN_NODE, nodeSupported, nodeSupportsDist } from './node-version.mjs';

const version = process.versions.node;
if (!nodeSupported(version)) {
  console.error(`TerraWheel needs Node ${MIN_NODE.join('.')} or newer; this is Node ${version}.`);
  process.exit(1);
}
if (!nodeSupportsDist(version)) {
  console.log(`TerraWheel: Node ${version} runs the tests, \`npm start\` and the web app; only \`npm run dist\` (packaging) needs Node 22.12 or newer.`);
}

// `npm run dist` starts here: say plainly that packaging needs a newer Node instead of failing
// deep inside a tool.
import { distNodeMessage, nodeSupportsDist } from './node-version.mjs';

if (!nodeSupportsDist()) {
  console.error(distNodeMessage());
  process.exit(1);
}

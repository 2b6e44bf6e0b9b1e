// The piscina worker entry of `terrawheel sweep` (sim/node/sweep.ts): registers tsx's loader,
// then serves sweep-task.ts's runTask. Plain JavaScript because a worker thread starts without
// the parent's TypeScript loader.
import { register } from 'tsx/esm/api';

register();
const { runTask } = await import('./sweep-task.ts');
export default runTask;

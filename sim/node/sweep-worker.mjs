// The piscina worker entry of `terrawheel sweep` (sim/node/sweep.ts) when the prebuilt bundle
// (sweep-bundle.ts) cannot be had: registers tsx's loader, then serves sweep-task.ts's
// runTimedTask. Plain JavaScript because a worker thread starts without the parent's
// TypeScript loader.
import { register } from 'tsx/esm/api';

register();
const { runTimedTask } = await import('./sweep-task.ts');
export default runTimedTask;

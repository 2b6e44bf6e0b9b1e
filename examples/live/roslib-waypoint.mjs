#!/usr/bin/env node
/**
 * Drive a TerraWheel robot to a waypoint from its odometry, over rosbridge, in lockstep:
 *
 *   npx terrawheel serve assets/scenarios/curbs.json --lockstep        # rosbridge on :9090
 *   node examples/live/roslib-waypoint.mjs --goal -11,1.5
 *
 * Every control period the script reads the last /odom (nav_msgs/Odometry), publishes a
 * /cmd_vel (geometry_msgs/Twist) that turns towards the goal and slows near it, and advances the
 * world by STEPS_PER_CONTROL steps with /terrawheel/step. In lockstep the world waits for the
 * controller, so the run is the same however slow the machine: the server queues the /odom of a
 * step batch before the step's response, so the odometry read after each step is that batch's.
 *
 * Options: --url ws://127.0.0.1:9090   --goal x,y [m, world frame]   --tolerance 0.3 [m]
 *          --max-steps 6000   --token <token> (a server on a non-loopback host asks for one)
 * Exit status 0 when the robot is within the tolerance of the goal, 1 otherwise.
 */
import { Ros, Topic, Service } from 'roslib';

const args = new Map();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
const url = args.get('url') ?? 'ws://127.0.0.1:9090';
const [goalX, goalY] = (args.get('goal') ?? '-11,1.5').split(',').map(Number);
const tolerance = Number(args.get('tolerance') ?? 0.3);
const maxSteps = Number(args.get('max-steps') ?? 6000);
const STEPS_PER_CONTROL = 10; // 50 ms of simulated time at the bundled scenarios' 5 ms step
const MAX_SPEED = 0.8; // [m/s]
const MAX_YAW_RATE = 1.0; // [rad/s]

const ros = new Ros({});
const connected = new Promise((resolve, reject) => {
  ros.once('connection', resolve);
  ros.once('error', reject);
});
await ros.connect(url);
await connected;
if (args.has('token')) ros.authenticate(args.get('token'), '', '', '', 0, '', 0);

let odom = null;
const odomTopic = new Topic({ ros, name: '/odom', messageType: 'nav_msgs/Odometry' });
odomTopic.subscribe((m) => (odom = m));
const cmdVel = new Topic({ ros, name: '/cmd_vel', messageType: 'geometry_msgs/Twist' });
const stepService = new Service({ ros, name: '/terrawheel/step', serviceType: 'terrawheel_msgs/Step' });
const step = (n) => new Promise((resolve, reject) => stepService.callService({ n }, resolve, (e) => reject(new Error(`step: ${e}`))));
const twist = (v, w) => cmdVel.publish({ linear: { x: v, y: 0, z: 0 }, angular: { x: 0, y: 0, z: w } });

let result = await step(1); // the first /odom arrives before this response
let distance = Infinity;
while (result.step < maxSteps) {
  const p = odom.pose.pose.position, q = odom.pose.pose.orientation;
  const yaw = Math.atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z));
  distance = Math.hypot(goalX - p.x, goalY - p.y);
  if (distance < tolerance) break;
  let err = Math.atan2(goalY - p.y, goalX - p.x) - yaw;
  err = Math.atan2(Math.sin(err), Math.cos(err)); // wrap to (−π, π]
  const v = Math.max(0, Math.cos(err)) * Math.min(MAX_SPEED, distance); // turn first when facing away
  const w = Math.max(-MAX_YAW_RATE, Math.min(MAX_YAW_RATE, 2 * err));
  twist(v, w);
  result = await step(STEPS_PER_CONTROL);
  if (!result.success) break; // a fault paused the world: result.message says why
}
twist(0, 0);
await step(1);
const p = odom.pose.pose.position;
console.log(`${distance < tolerance ? 'reached' : 'missed'} (${goalX}, ${goalY}): robot at (${p.x.toFixed(3)}, ${p.y.toFixed(3)}), ${distance.toFixed(3)} m away, step ${result.step}, state ${result.state_hash}`);
ros.close();
process.exit(distance < tolerance ? 0 : 1);

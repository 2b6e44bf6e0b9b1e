/**
 * The simulation worker's protocol: what the renderer (through Comlink) and the headless CLI may
 * ask of the world's owner. Types only. The worker module (sim/worker.ts) exposes an object that
 * implements `SimService`; the renderer wraps it as `{ remote, dispose }`.
 *
 * Frames are a few flat typed arrays (transferred, never structured-cloned per object):
 *   poses        Float32Array, 7 per body: px py pz qx qy qz qw   (world frame, z up, quat [x,y,z,w])
 *   contacts     Float32Array, 7 per contact: px py pz nx ny nz depth
 *   contactInfo  Int32Array,   4 per contact: kind body cellI cellJ
 *                (kind: WheelContactKind for wheels; body: index into WorldInfo.bodies;
 *                 cellI/cellJ: terrain cell, −1 for body–body contacts)
 */

/** Drive input: normalised stick values, mapped by the robot's drive model (differential or Ackermann). */
export interface DriveCommand {
  /** Forward command in [−1, 1] (fraction of the robot's top speed). */
  throttle: number;
  /** Turn command in [−1, 1], positive turns left (counter-clockwise seen from above). */
  steer: number;
}

/** Inputs to load a world. The renderer gathers them through its Host; the CLI from disk. */
export interface ScenarioFiles {
  /** Parsed scenario JSON (validated by the worker; see sim/scenario.ts). */
  scenario: unknown;
  /** Parsed terrain sidecar JSON. */
  terrainSidecar: unknown;
  /** Bytes of the terrain image/raster named by the sidecar. */
  terrainData: Uint8Array;
  /** URDF text of the robot, if the scenario names one. */
  robotUrdf?: string;
}

/** Visual/collision shape of a body, as the renderer needs it. Local z is the shape's axis. */
export type BodyShape =
  | { type: 'box'; halfExtents: [number, number, number] }
  | { type: 'sphere'; radius: number }
  | { type: 'cylinder'; radius: number; height: number }
  | { type: 'capsule'; radius: number; height: number };

export interface BodyInfo {
  name: string;
  role: 'chassis' | 'wheel' | 'obstacle';
  shape: BodyShape;
}

export interface TerrainInfo {
  cols: number;
  rows: number;
  dx: number;
  dy: number;
  x0: number;
  y0: number;
  /** Row-major heights (float32 for the renderer's mesh). */
  heights: Float32Array;
  minHeight: number;
  maxHeight: number;
}

export interface WorldInfo {
  scenarioName: string;
  /** [s] Fixed step. */
  dt: number;
  terrain: TerrainInfo;
  bodies: BodyInfo[];
}

export interface Frame {
  step: number;
  /** [s] Simulated time. */
  time: number;
  poses: Float32Array;
  contacts: Float32Array;
  contactInfo: Int32Array;
  /** [m/s] Forward speed of the chassis. */
  speed: number;
  /** Simulated seconds per wall-clock second over the last second. */
  realtimeFactor: number;
}

export interface LoadProgress {
  stage: string;
  /** 0..1 */
  fraction: number;
}

export interface SimService {
  /** Validates and loads a world; rejects with a message that says what is wrong. */
  load(files: ScenarioFiles, onProgress?: (p: LoadProgress) => void): Promise<WorldInfo>;
  setDrive(cmd: DriveCommand): void;
  /** Starts or pauses the worker's own fixed-step clock. */
  setRunning(running: boolean): void;
  /** Simulated seconds per wall-clock second (0.1 .. 10). */
  setTimeScale(scale: number): void;
  /** Steps n fixed steps now (while paused, for stepping by hand and tests); returns the step number. */
  step(n: number): Promise<number>;
  /** The newest frame (its buffers are transferred to the caller). */
  latestFrame(): Promise<Frame>;
}

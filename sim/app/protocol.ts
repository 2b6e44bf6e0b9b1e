/**
 * The simulation worker's protocol: what the renderer (through Comlink) and the headless CLI may
 * ask of the world's owner. Types only. The worker module (sim/app/worker.ts) exposes an object that
 * implements `SimService`; the renderer wraps it as `{ remote, dispose }`.
 *
 * Frames are a few flat typed arrays (transferred, never structured-cloned per object): float32
 * copies of the world's report in the frame layout of sim/dynamics/frame-layout.ts (poses,
 * velocities, contacts, contactInfo, joints: strides, field offsets and contact-kind codes).
 */

import type { VisualSpec } from '../robot/urdf/urdf-to-robot';

export type { VisualSpec };

/** Drive input: normalised stick values, mapped by the robot's drive model (differential or Ackermann). */
export interface DriveCommand {
  /** Forward command in [−1, 1] (fraction of the robot's top speed). */
  throttle: number;
  /** Turn command in [−1, 1], positive turns left (counter-clockwise seen from above). */
  steer: number;
}

/** Inputs to load a world (the renderer gathers them through its Host; the CLI and openScenario from disk). */
import type { ScenarioFiles } from '../scenario/scenario-files';
import type { ScenarioCamera } from '../scenario/scenario-v2';
import type { TerrainMaterialMapSpec } from '../dynamics/spec';
export type { ScenarioFiles };
import type { MeshDecomposer } from '../robot/mesh/convex-parts';
export type { MeshDecomposer };

/** Visual/collision shape of a body, as the renderer needs it. Local z is the shape's axis. */
export type ConvexBodyShape =
  | { type: 'box'; halfExtents: [number, number, number] }
  | { type: 'sphere'; radius: number }
  | { type: 'cylinder'; radius: number; height: number }
  | { type: 'capsule'; radius: number; height: number }
  | { type: 'hull'; points: [number, number, number][] };

/** The collision shape of a body as the renderer draws it: a convex shape or a compound of them. */
export type BodyShape =
  | ConvexBodyShape
  | { type: 'compound'; children: { shape: ConvexBodyShape; position: [number, number, number]; orientation: [number, number, number, number] }[] };

/**
 * The cylinder a wheel collides with the terrain as (the analytic wheel algorithm's), placed in its
 * body frame: a plain cylinder body has it at the origin, unturned; a URDF wheel whose collision
 * origin moves or turns its cylinder inside the link (a compound of one cylinder, as ROS files
 * write them) has it at that origin. Its axis is its local z.
 */
export interface WheelCylinder {
  /** [m] */
  radius: number;
  /** [m] Width along the axis. */
  height: number;
  /** [m] Centre in the body frame. */
  position: [number, number, number];
  /** Unit quaternion [x, y, z, w]: the cylinder's frame in the body frame. */
  orientation: [number, number, number, number];
}

/** One body of the world as the renderer sees it: name, role and collision shape. */
export interface BodyInfo {
  name: string;
  /**
   * 'wheel': a dynamic body whose terrain contacts come from the analytic wheel algorithm and that
   * turns on a revolute joint about its cylinder's axis (driven, steered, a trailer's, a caster's).
   */
  role: 'chassis' | 'wheel' | 'obstacle' | 'static';
  /** In the body frame (the pose in a frame is the body frame's). */
  shape: BodyShape;
  /** The wheel's cylinder in the body frame: present exactly when role is 'wheel' (SimWorld sets it). */
  wheel?: WheelCylinder;
}

/** One joint of the world as the renderer sees it: name, kind, the bodies it joins, whether it has a motor. */
export interface JointInfo {
  name: string;
  type: 'revolute' | 'fixed' | 'prismatic' | 'ball';
  /** Body indices; bodyA −1 = the world. */
  bodyA: number;
  bodyB: number;
  motor: boolean;
}

// TerrainOverview and TerrainPatch belong to the terrain (sim/terrain/patch.ts), which builds them.
import type { TerrainOverview, TerrainPatch } from '../terrain/patch';
export type { TerrainOverview, TerrainPatch };


/**
 * The terrain as the renderer learns it at load: the grid's shape and an overview, never every
 * height (a 16385² map would be 1 GiB). Exact heights come in small patches
 * (SimService.terrainPatch).
 */
export interface TerrainInfo {
  /** Grid vertices along x and y. */
  cols: number;
  rows: number;
  dx: number;
  dy: number;
  x0: number;
  y0: number;
  minHeight: number;
  maxHeight: number;
  overview: TerrainOverview;
}


/**
 * What the renderer learns about a world when it loads: its name, step, terrain (shape and
 * overview), bodies, joints, the robot's base body and visuals.
 */
export interface WorldInfo {
  scenarioName: string;
  /** [s] Fixed step. */
  dt: number;
  terrain: TerrainInfo;
  bodies: BodyInfo[];
  joints: JointInfo[];
  /** Index of the robot's base body (the camera follows it), −1 without a robot. */
  baseBody: number;
  /**
   * The URDF robot's visual geometry (poses in the frame of the body named `body`; mesh `file`
   * is the path the scenario's ScenarioFiles.robotMeshes is keyed by). Absent without a URDF robot.
   */
  visuals?: VisualSpec[];
  /** The terrain's material map (the scenario's `terrainMaterials`, defaults filled): the 3D view colours it. */
  terrainMaterials?: TerrainMaterialMapSpec;
  /** Where the 3D view's camera starts (the scenario's optional `camera`); absent: the chase camera's defaults. */
  camera?: ScenarioCamera;
  /**
   * Warnings of the URDF robot's loading a user driving it must see (the wheel motors capped by
   * the URDF's effort limits below what the drive needs); absent when none. worldWarnings lists them.
   */
  robotWarnings?: string[];
}

/**
 * One simulation step as sent to the renderer: poses, velocities, contacts and their info in
 * transferable typed arrays.
 */
export interface Frame {
  step: number;
  /** [s] Simulated time. */
  time: number;
  poses: Float32Array;
  /** 6 per body: origin velocity [m/s] and angular velocity [rad/s], world frame. */
  velocities: Float32Array;
  contacts: Float32Array;
  contactInfo: Int32Array;
  joints: Float32Array;
  /** [m/s] Forward speed of the chassis. */
  speed: number;
  /** Why the world paused (a body went non-finite or past a limit), or null. */
  fault: string | null;
  /** The step that faulted (fault set; absent or undefined otherwise). A limit fault left the world at the step before it. */
  faultStep?: number;
  /** Simulated seconds per wall-clock second over the last second. */
  realtimeFactor: number;
  /** Plot samples of every step after the caller's `plotSince` (latestFrame), when asked for. */
  plot?: import('./plot-sampler').PlotSamples;
}

/** Progress of a world load, reported to the caller of `SimService.load`. */
export interface LoadProgress {
  stage: string;
  /** 0..1 */
  fraction: number;
}

/** A recording opened for replay (SimService.openRecording). */
export interface RecordingSummary {
  name: string;
  scenarioName: string;
  buildId: string;
  /** Recorded by this build (only then is a replay promised to be exact). */
  sameBuild: boolean;
  dt: number;
  /** First replayable step (the first keyframe) and last step. */
  firstStep: number;
  lastStep: number;
  keyframeSteps: number[];
  parent: { recording: string; step: number; stateHash?: string } | null;
  /** Set when the file was cut or damaged and only its prefix replays. */
  notice: string | null;
  fileBytes: number;
}

/** The state of the open recording replay, if any. */
export interface ReplayStatus {
  open: boolean;
  /** The world follows the recording (seek/play); false after a branch. */
  following: boolean;
  step: number;
  running: boolean;
  summary: RecordingSummary | null;
}

export type { RecordingOptions, RecordingStatus } from './record-session';
export type { VerifyResult } from '../record/replay';
export type { TimelineEvent } from '../record/events';

/**
 * The API the simulation worker exposes through Comlink (implemented by `SimServiceImpl`): load a
 * world, drive it, pull frames and terrain patches, record, replay, verify.
 */
export interface SimService {
  /** Validates and loads a world; rejects with a message that says what is wrong. */
  /** `options.maxMemoryBytes`: refuse a terrain estimated over this many bytes (default 2 GiB; the app asks the user first and passes Infinity). */
  load(files: ScenarioFiles, onProgress?: (p: LoadProgress) => void, options?: { maxMemoryBytes?: number }): Promise<WorldInfo>;
  /**
   * Where the next loads run V-HACD on concave collision meshes (null: this thread). The desktop
   * app passes a Comlink proxy to its host (Electron main), since its worker's CSP forbids V-HACD.
   */
  setMeshDecomposer(decompose: MeshDecomposer | null): void;
  setDrive(cmd: DriveCommand): void;
  /** Starts or pauses the worker's own fixed-step clock. */
  setRunning(running: boolean): void;
  /** Simulated seconds per wall-clock second (0.1 .. 10). */
  setTimeScale(scale: number): void;
  /** Steps n fixed steps now (while paused, for stepping by hand and tests); returns the step number. */
  step(n: number): Promise<number>;
  /**
   * After a fault: the world back at a saved state at least REWIND_MARGIN_S before the faulting
   * step (a running recording is stopped first, its file ending with the fault), paused, drive
   * zero. Returns the restored step's frame; rejects without a fault or an early enough state.
   */
  stepBack(): Promise<Frame>;
  /**
   * The newest frame (its buffers are transferred to the caller). With `plotSince` (the caller's
   * newest plotted step, −1 for none) it carries the per-step samples of the chosen plot series
   * after that step (Frame.plot; sim/app/plot-sampler.ts).
   */
  latestFrame(plotSince?: number): Promise<Frame>;
  /** The plot series to sample at every step (keys of sim/app/plot-series.ts). */
  setPlotSeries(keys: string[]): void;
  /**
   * Heights of grid vertices [i0, i0 + cols − 1] × [j0, j0 + rows − 1] (clamped to the grid; the
   * stride lattice is kept) at an integer stride; the heights' buffer is transferred, not copied.
   * Rejects naming the bad argument, an empty span or a result over TERRAIN_PATCH_MAX_SAMPLES.
   */
  terrainPatch(i0: number, j0: number, cols: number, rows: number, stride: number): Promise<TerrainPatch>;

  // --- live link (sim/app/live-info.ts; Electron main's Foxglove server over the app's world) ---
  /** The loaded world's fixed description: bodies, joints, wheels, the drive controller's limits. */
  liveInfo(): Promise<import('./live-info').LiveWorldInfo>;
  /** The world's state now (poses, velocities, contacts, joints, clock, drive; its state hash `withHash`); buffers transferred. */
  liveSnapshot(withHash?: boolean): Promise<import('./live-info').LiveSnapshot>;
  /** Puts the world back at the state it was loaded in; refused while recording or replaying. */
  resetWorld(): Promise<number>;
  /** A live link's per-joint motor velocity target (checked as live-info.ts `checkJointCommand`). */
  setJointVelocity(joint: string, velocity: number): Promise<void>;
  /** Records into a queue emptied by `takeRecordingChunks` (a live link in Electron main: no callback crosses its port). */
  startPulledRecording(options: import('./record-session').RecordingOptions): Promise<import('./record-session').RecordingStatus>;
  /** The pulled recording's bytes since the last take (transferred); `ended` once it stopped and these are its last. */
  takeRecordingChunks(): Promise<{ chunks: Uint8Array[]; ended: boolean }>;

  // --- recordings (sim/app/record-session.ts) ---
  /** Records every step from now on; the file's bytes go to `onChunk` in order. */
  startRecording(options: import('./record-session').RecordingOptions, onChunk: (bytes: Uint8Array) => unknown): Promise<import('./record-session').RecordingStatus>;
  /** Writes the footer (the last onChunk call) and stops. */
  stopRecording(): Promise<import('./record-session').RecordingStatus>;
  recordingStatus(): Promise<import('./record-session').RecordingStatus>;
  /** Opens a recording of the loaded scenario for replay; the world goes to its first step. */
  openRecording(bytes: Uint8Array, name?: string): Promise<RecordingSummary>;
  replayStatus(): Promise<ReplayStatus>;
  /** Exact seek (keyframe + re-simulation); pauses; returns the step's frame. Play with setRunning/setTimeScale. */
  seek(step: number): Promise<Frame>;
  /** The frame the file holds for `step`. */
  recordedFrame(step: number): Promise<Frame | null>;
  recordingEvents(): Promise<import('../record/events').TimelineEvent[]>;
  /** Takes the controls at the current step and records into a new file naming its parent. */
  branch(options: import('./record-session').RecordingOptions, onChunk: (bytes: Uint8Array) => unknown): Promise<import('./record-session').RecordingStatus>;
  verify(onProgress?: (step: number, lastStep: number) => void): Promise<import('../record/replay').VerifyResult>;
  /** Per-wheel contact CSV of the open recording. */
  exportCsv(): Promise<string>;
  closeRecording(): void;
}

/**
 * Chase/orbit camera: follows the robot from behind (its heading plus a user orbit offset), at an
 * elevation and distance the user changes with mouse drag and wheel; double-click resets.
 * Works in the simulation frame (z up) and converts to three's y-up at the end, mirroring the
 * scene's root transform: sim (x, y, z) → three (x, z, −y).
 */
import * as THREE from 'three';
import { CAMERA_DISTANCE, CAMERA_ELEVATION, CAMERA_FOLLOW_RATE, CAMERA_MAX_DISTANCE, CAMERA_MIN_DISTANCE } from '../config';
import type { ScenarioCamera } from '../../sim/scenario/scenario-v2';

/**
 * Distance per metre of the followed robot's bounding radius that keeps the whole robot (a
 * trailer included) in the 55° field of view with a margin: 1/tan(27.5°) ≈ 1.92, times 1.25.
 */
export const FRAME_DISTANCE_PER_RADIUS = 2.4;
const DEG = Math.PI / 180;

/** [rad] Elevation limits: just above the horizon to almost straight down. */
const MIN_ELEVATION = 0.05;
const MAX_ELEVATION = 1.5;
/** [rad/px] Drag sensitivity. */
const ORBIT_RATE = 0.005;

/** [rad] Elevation of the top-down preset (not exactly 90°: lookAt needs a horizontal heading). */
const TOP_ELEVATION = 1.45;
/** [m] Least distance of the top-down preset. */
const TOP_DISTANCE = 12;
/** [m] Distance of the follow-wheel preset. */
const WHEEL_DISTANCE = 1.2;

/**
 * Presets: 'chase' follows the robot's heading; 'orbit' keeps a fixed heading (drag to orbit);
 * 'top' looks straight down; 'wheel' is the orbit camera close to one wheel (SceneView picks it).
 */
export type CameraMode = 'chase' | 'orbit' | 'top' | 'wheel';

export class ChaseCamera {
  readonly camera: THREE.PerspectiveCamera;
  mode: CameraMode = 'chase';
  distance = CAMERA_DISTANCE;
  elevation = CAMERA_ELEVATION;
  /** [rad] User orbit around the robot, added to its heading. */
  orbit = 0;
  private readonly target = new THREE.Vector3();
  private heading = 0;
  private initialised = false;
  /** [m] How far the smoothed camera still is from where it is heading (see `lag`). */
  private lagM = 0;
  private readonly detach: () => void;

  constructor(aspect: number, element: HTMLElement) {
    this.camera = new THREE.PerspectiveCamera(55, aspect, 0.05, 5000);
    let dragging = false;
    let lx = 0, ly = 0;
    const down = (e: PointerEvent): void => {
      dragging = true;
      lx = e.clientX;
      ly = e.clientY;
      element.setPointerCapture?.(e.pointerId);
    };
    const move = (e: PointerEvent): void => {
      if (!dragging) return;
      this.orbit -= (e.clientX - lx) * ORBIT_RATE;
      this.elevation = Math.min(MAX_ELEVATION, Math.max(MIN_ELEVATION, this.elevation + (e.clientY - ly) * ORBIT_RATE));
      lx = e.clientX;
      ly = e.clientY;
    };
    const up = (): void => {
      dragging = false;
    };
    const wheel = (e: WheelEvent): void => {
      e.preventDefault();
      this.distance = Math.min(CAMERA_MAX_DISTANCE, Math.max(CAMERA_MIN_DISTANCE, this.distance * Math.exp(e.deltaY * 0.001)));
    };
    const reset = (): void => this.resetView();
    element.addEventListener('pointerdown', down);
    element.addEventListener('pointermove', move);
    element.addEventListener('pointerup', up);
    element.addEventListener('pointercancel', up);
    element.addEventListener('wheel', wheel, { passive: false });
    element.addEventListener('dblclick', reset);
    this.detach = () => {
      element.removeEventListener('pointerdown', down);
      element.removeEventListener('pointermove', move);
      element.removeEventListener('pointerup', up);
      element.removeEventListener('pointercancel', up);
      element.removeEventListener('wheel', wheel);
      element.removeEventListener('dblclick', reset);
    };
  }

  /** Frames a whole terrain (before the robot exists) or jumps to the robot without smoothing. */
  snap(): void {
    this.initialised = false;
  }

  /**
   * [m] Bounding radius of what is followed (the whole robot, trailer included; SceneView sets
   * it each frame): the chase, orbit and top views stay at least FRAME_DISTANCE_PER_RADIUS × it away.
   */
  frameRadius = 0;
  /** The scenario's starting view while it holds (a fixed target, or a mode with distance, elevation, heading). */
  private scenario: ScenarioCamera | null = null;
  /** The scenario's fixed point to look at (sim frame), or null: the followed body. */
  private fixedTarget: THREE.Vector3 | null = null;

  /** The point looked at (three's y-up frame, as the camera's position). */
  get lookTarget(): THREE.Vector3 {
    return this.lookAt.set(this.target.x, this.target.z, -this.target.y);
  }
  private readonly lookAt = new THREE.Vector3();

  /** True while a scenario's camera holds (until the user picks another preset). */
  get scenarioView(): boolean {
    return this.scenario !== null;
  }

  /**
   * Starts the scenario's view (WorldInfo.camera), or the defaults for null; either jumps there
   * at the next follow.
   */
  setScenarioView(c: ScenarioCamera | null): void {
    this.scenario = c;
    this.fixedTarget = c?.target ? new THREE.Vector3(c.target[0], c.target[1], c.target[2]) : null;
    if (c) this.mode = c.mode;
    this.resetView();
    this.snap();
  }

  /** Distance, elevation and orbit of the scenario's view, else the defaults (double-click). */
  private resetView(): void {
    const c = this.scenario;
    this.distance = c?.distance ?? CAMERA_DISTANCE;
    this.elevation = c?.elevation !== undefined ? c.elevation * DEG : CAMERA_ELEVATION;
    this.orbit = c?.heading !== undefined ? c.heading * DEG : 0;
  }

  /** Ends the scenario's view (the user chose a preset): the camera follows the robot again, smoothly. */
  endScenarioView(): void {
    if (!this.scenario) return;
    this.scenario = null;
    if (this.fixedTarget) {
      // heading/orbit were absolute about the fixed point: keep the view direction, relative to the robot from here
      this.orbit = 0;
      this.fixedTarget = null;
    }
  }

  /**
   * Follows the body at sim position (x, y, z) with heading `yaw` [rad]; dt [s] since the last
   * update drives the exponential smoothing.
   */
  follow(x: number, y: number, z: number, yaw: number, dt: number): void {
    const ft = this.fixedTarget;
    if (ft) {
      // a fixed view: the target is the scenario's point, the heading absolute (orbit carries it)
      x = ft.x; y = ft.y; z = ft.z; yaw = 0;
    }
    if (!this.initialised || !Number.isFinite(this.target.x)) {
      this.target.set(x, y, z);
      this.heading = yaw;
      this.initialised = true;
    } else {
      const a = 1 - Math.exp(-CAMERA_FOLLOW_RATE * Math.max(0, Math.min(dt, 0.5)));
      this.target.x += (x - this.target.x) * a;
      this.target.y += (y - this.target.y) * a;
      this.target.z += (z - this.target.z) * a;
      if (this.mode === 'chase' && !ft) {
        let d = yaw - this.heading;
        d = Math.atan2(Math.sin(d), Math.cos(d)); // shortest way round
        this.heading += d * a;
      }
    }
    const dir = this.heading + this.orbit;
    const dh = Math.atan2(Math.sin(yaw - this.heading), Math.cos(yaw - this.heading));
    this.lagM = Math.max(Math.hypot(x - this.target.x, y - this.target.y, z - this.target.z), this.mode === 'chase' ? Math.abs(dh) * this.distance : 0);
    const elevation = this.mode === 'top' ? TOP_ELEVATION : this.elevation;
    const framed = ft ? this.distance : Math.max(this.distance, this.frameRadius * FRAME_DISTANCE_PER_RADIUS);
    const distance = this.mode === 'wheel' ? Math.min(this.distance, WHEEL_DISTANCE) : this.mode === 'top' ? Math.max(framed, TOP_DISTANCE) : framed;
    const horiz = distance * Math.cos(elevation);
    const sx = this.target.x - horiz * Math.cos(dir);
    const sy = this.target.y - horiz * Math.sin(dir);
    const sz = this.target.z + distance * Math.sin(elevation);
    this.camera.position.set(sx, sz, -sy);
    this.camera.lookAt(this.target.x, this.target.z, -this.target.y);
  }

  /**
   * [m] How far the smoothing still has to go after the last `follow`: the target's distance from
   * the body, or the heading's arc at the camera's distance, whichever is larger. 0 after a snap.
   * The e2e tests wait for it to shrink (a settled view) instead of waiting a fixed time.
   */
  get lag(): number {
    return this.lagM;
  }

  setAspect(aspect: number): void {
    this.camera.aspect = aspect;
    this.camera.updateProjectionMatrix();
  }

  dispose(): void {
    this.detach();
  }
}

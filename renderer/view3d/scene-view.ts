/**
 * The 3D view: one three.js scene whose single `root` group carries the z-up → y-up conversion
 * (rotation −90° about x: sim (x, y, z) → three (x, z, −y)). Everything simulated — terrain,
 * bodies, contacts — lives under root in simulation coordinates; nothing else converts axes.
 */
import * as THREE from 'three';
import type { WorldInfo } from '../../sim/protocol';
import { ChaseCamera } from './chase-camera';
import { makeSimRoot } from './sim-root';
import { yawOf } from './yaw';
import { createContactsView, type ContactsView } from './contacts-view';
import { createRobotView, type RobotView } from './robot-view';
import { isSoftwareRenderer, terrainVertexBudget } from './gl-info';
import { createTerrainView, type TerrainView } from './terrain-view';

export class SceneView {
  readonly renderer: THREE.WebGLRenderer;
  readonly scene = new THREE.Scene();
  readonly root = new THREE.Group();
  readonly chase: ChaseCamera;
  private terrain: TerrainView | null = null;
  private robot: RobotView | null = null;
  readonly contacts: ContactsView;
  private readonly canvas: HTMLCanvasElement;
  private readonly sun: THREE.DirectionalLight;
  /** The GL renderer's name ('' when the browser hides it). */
  readonly glRenderer: string;
  readonly softwareGL: boolean;

  constructor(canvas: HTMLCanvasElement) {
    this.canvas = canvas;
    // No antialias and pixel ratio 1: the app must stay interactive on software GL (SwiftShader).
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: false, powerPreference: 'high-performance' });
    this.renderer.setPixelRatio(1);
    const gl = this.renderer.getContext();
    const dbg = gl.getExtension('WEBGL_debug_renderer_info');
    const name: unknown = dbg ? gl.getParameter(dbg.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
    this.glRenderer = typeof name === 'string' ? name : '';
    this.softwareGL = isSoftwareRenderer(this.glRenderer);
    this.scene.background = new THREE.Color(0x9fc4e8);
    makeSimRoot(this.root);
    this.scene.add(this.root);
    this.scene.add(new THREE.HemisphereLight(0xdfefff, 0x4a4030, 0.9));
    this.sun = new THREE.DirectionalLight(0xffffff, 2.0);
    // Low, from the side: long shading on slopes makes relief readable without shadows.
    this.sun.position.set(40, 30, 25);
    this.scene.add(this.sun);
    this.contacts = createContactsView();
    this.root.add(this.contacts.group);
    this.chase = new ChaseCamera(1, canvas);
    this.resize();
  }

  /** Replaces the world's geometry; returns the terrain mesh stride (1 = exact). */
  setWorld(info: WorldInfo): number {
    this.clearWorld();
    this.terrain = createTerrainView(info.terrain, terrainVertexBudget(this.glRenderer));
    this.root.add(this.terrain.mesh);
    this.robot = createRobotView(info.bodies);
    this.root.add(this.robot.group);
    this.contacts.update(new Float32Array(0), new Int32Array(0));
    this.chase.snap();
    return this.terrain.stride;
  }

  clearWorld(): void {
    if (this.terrain) {
      this.root.remove(this.terrain.mesh);
      this.terrain.dispose();
      this.terrain = null;
    }
    if (this.robot) {
      this.root.remove(this.robot.group);
      this.robot.dispose();
      this.robot = null;
    }
  }

  /** Poses the bodies and moves the chase camera to the chassis. */
  setPoses(poses: Float32Array, dt: number): void {
    if (!this.robot) return;
    this.robot.setPoses(poses);
    const o = 7 * this.robot.chassisIndex;
    if (o + 6 < poses.length) {
      this.chase.follow(poses[o], poses[o + 1], poses[o + 2], yawOf(poses[o + 3], poses[o + 4], poses[o + 5], poses[o + 6]), dt);
    }
  }

  resize(): void {
    const w = Math.max(1, this.canvas.clientWidth);
    const h = Math.max(1, this.canvas.clientHeight);
    if (this.canvas.width !== w || this.canvas.height !== h) this.renderer.setSize(w, h, false);
    this.chase.setAspect(w / h);
  }

  render(): void {
    this.renderer.render(this.scene, this.chase.camera);
  }

  dispose(): void {
    this.clearWorld();
    this.contacts.dispose();
    this.chase.dispose();
    this.renderer.dispose();
  }
}

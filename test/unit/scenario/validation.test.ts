import { describe, expect, it } from 'vitest';
import { parseScenarioFile, scenarioWorldSpec } from '../../../sim/scenario/scenario-v2';
import { checkScenarioSize, describeValue, MAX_SCENARIO_DEPTH, MAX_SCENARIO_NODES } from '../../../sim/scenario/scenario-guard';
import { cylinder, minimalV2, scenarioError } from './helpers';

const parse = (raw: unknown) => parseScenarioFile(raw);
const body = (extra: Record<string, unknown> = {}) => ({ name: 'b', shape: cylinder, mass: 50, ...extra });

/** An array nested `depth` levels deep, built without recursion. */
function deepArray(depth: number): unknown {
  let v: unknown = 0;
  for (let k = 0; k < depth; k++) v = [v];
  return v;
}

function deepObject(depth: number): unknown {
  let v: unknown = 0;
  for (let k = 0; k < depth; k++) v = { a: v };
  return v;
}

describe('scenario v2 defaults', () => {
  it('fills gravity, dt, substeps, sleep, ccd, the default material and the terrain map', () => {
    const p = parse(minimalV2());
    expect(p.version).toBe(2);
    expect(p.name).toBe('Untitled');
    expect(p.terrain).toEqual({ file: 't.json' });
    expect(p.world.gravity).toEqual([0, 0, -9.81]);
    expect(p.world.dt).toBeCloseTo(1 / 240, 15);
    expect(p.world.substeps).toBe(4);
    expect(p.world.sleep).toBe(true);
    expect(p.world.ccd).toBe(true);
    expect(p.world.materials).toEqual({ default: { friction: 0.8, restitution: 0, rollingResistance: 0 } });
    expect(p.world.terrainMaterials).toEqual({ material: 'default', regions: [] });
    expect(p.world.bodies).toEqual([]);
    expect(p.world.joints).toEqual([]);
    expect(p.world.robot).toBeUndefined();
    expect(p.robot).toBeUndefined();
    expect(p.start).toEqual({ position: [0, 0], yaw: 0 });
    expect(p.script).toBe(p.world.script);
  });

  it('keeps given values, fills each material, and a given "default" overrides the built-in one', () => {
    const p = parse(
      minimalV2({
        gravity: [0, 0, -1.62],
        dt: 0.001,
        substeps: 8,
        sleep: false,
        ccd: false,
        materials: { default: { friction: 0.3 }, ice: { friction: 0.05, restitution: 0.1 } },
        bodies: [body({ type: 'static', mass: undefined }), { name: 'k', shape: { type: 'sphere', radius: 1 }, type: 'kinematic' }],
      }),
    );
    expect(p.world.gravity).toEqual([0, 0, -1.62]);
    expect([p.world.dt, p.world.substeps, p.world.sleep, p.world.ccd]).toEqual([0.001, 8, false, false]);
    expect(p.world.materials.default).toEqual({ friction: 0.3, restitution: 0, rollingResistance: 0 });
    expect(p.world.materials.ice).toEqual({ friction: 0.05, restitution: 0.1, rollingResistance: 0 });
    expect(p.world.bodies.map((b) => b.type)).toEqual(['static', 'kinematic']);
  });

  it('fills the body type "dynamic", keeps an inline terrain (typed array included) and normalises joint axes', () => {
    const heights = new Float64Array(6);
    const p = parse(
      minimalV2({
        terrain: { cols: 3, rows: 2, dx: 0.5, dy: 0.5, heights },
        bodies: [body(), body({ name: 'c' })],
        joints: [{ type: 'revolute', name: 'j', bodyA: 'b', bodyB: 'c', axis: [0, 2, 0] }],
      }),
    );
    expect('inline' in p.terrain && p.terrain.inline.heights).toBe(heights);
    expect(p.world.bodies[0].type).toBe('dynamic');
    expect(p.world.joints[0].axis).toEqual([0, 1, 0]);
  });
});

describe('scenario v2 validation messages', () => {
  it.each([
    // unknown fields: path and the allowed names
    [{ bodies: [body(), body({ name: 'c' }), body({ name: 'd' }), body({ name: 'e', shape: { type: 'cylinder', radus: 0.3, height: 1 } })] },
      'bodies[3].shape: unknown field "radus"; allowed: type, radius, height'],
    [{ start: { position: [0, 0] } }, '(top level): unknown field "start"; allowed: format, version, name, description, terrain, gravity'],
    [{ materials: { steel: { friction: 0.5, stiction: 1 } } }, 'materials.steel: unknown field "stiction"; allowed: friction, restitution, rollingResistance'],
    [{ robot: { type: 'skid-steer', wheelRadiuss: 0.2 } }, 'robot: unknown field "wheelRadiuss"; allowed: type, name, chassisHalfExtents, wheelRadius'],
    [{ robot: { urdf: 'r.urdf', pose: 1 } }, 'robot: unknown field "pose"; allowed: urdf, position, yaw, controller'],
    [{ joints: [{ type: 'ball', name: 'j', bodyB: 'b', axis: [0, 0, 1] }], bodies: [body()] }, 'joints[0]: unknown field "axis"; allowed: type, name, bodyA, bodyB, anchor, damping, friction'],
    [{ bodies: [{ shape: cylinder, mass: 1 }] }, 'bodies[0]: missing field "name"'],
    [{ bodies: [body({ shape: { type: 'cyl', radius: 1 } })] }, 'bodies[0].shape.type: must be one of "sphere", "box", "capsule", "cylinder", "hull", "compound", got "cyl"'],
    [{ bodies: [body({ shape: 7 })] }, 'bodies[0].shape: must be an object whose "type" is one of'],
    [{ bodies: [[1, 2]] }, 'bodies[0]: must be an object with fields name, shape'],
    // bad numbers
    [{ dt: 0 }, 'dt: must be a number in [0.0001, 0.05] s, got 0'],
    [{ dt: 0.1 }, 'dt: must be a number in [0.0001, 0.05] s, got 0.1'],
    [{ dt: '0.01' }, 'dt: must be a number in [0.0001, 0.05] s, got "0.01"'],
    [{ dt: NaN }, 'dt: must be a number in [0.0001, 0.05] s, got NaN'],
    [{ substeps: 2.5 }, 'substeps: must be an integer in [1, 64], got 2.5'],
    [{ substeps: 65 }, 'substeps: must be an integer in [1, 64], got 65'],
    [{ gravity: [0, 0] }, 'gravity: must be [x, y, z], each a number in [-1000, 1000] m/s², got [0,0]'],
    [{ gravity: [0, 'a', -9.81] }, 'gravity: must be [x, y, z], each a number in [-1000, 1000] m/s²; item 1 is "a"'],
    [{ bodies: [body({ mass: 0 })] }, 'bodies[0].mass: must be a number in (0, 10000000) kg, got 0'],
    [{ bodies: [body({ mass: 2e7 })] }, 'bodies[0].mass: must be a number in (0, 10000000) kg, got 20000000'],
    [{ bodies: [body({ shape: { type: 'sphere', radius: -1 } })] }, 'bodies[0].shape.radius: must be a number in (0, 10000) m, got -1'],
    [{ bodies: [body({ shape: { type: 'box', halfExtents: [1, 1, 1e4] } })] }, 'bodies[0].shape.halfExtents: must be [x, y, z], each a number in (0, 10000) m; item 2 is 10000'],
    [{ bodies: [body({ position: [0, 2e6, 0] })] }, 'bodies[0].position: must be [x, y, z], each a number in (-1000000, 1000000) m; item 1 is 2000000'],
    [{ materials: { m: { friction: 11 } } }, 'materials.m.friction: must be a number in [0, 10], got 11'],
    [{ materials: { m: { restitution: 1.5 } } }, 'materials.m.restitution: must be a number in [0, 1], got 1.5'],
    [{ materials: { m: { restitution: -0.1 } } }, 'materials.m.restitution: must be a number in [0, 1], got -0.1'],
    // quaternions
    [{ bodies: [body({ orientation: [0, 0, 0, 0] })] }, 'bodies[0].orientation: must be a unit quaternion [x, y, z, w]; got the zero quaternion'],
    [{ bodies: [body({ orientation: [0, 0, 0, 1.01] })] }, 'bodies[0].orientation: must be a unit quaternion [x, y, z, w] (norm 1 ± 0.001); its norm is 1.01'],
    [{ bodies: [body({ orientation: [0, 0, 1] })] }, 'bodies[0].orientation: must be [x, y, z, w]'],
    // mass or density
    [{ bodies: [body({ mass: undefined })] }, 'bodies[0]: a dynamic body needs "mass" [kg] or "density" [kg/m³]'],
    [{ bodies: [body({ density: 1000 })] }, 'bodies[0]: give "mass" or "density", not both'],
    [{ bodies: [body({ mass: undefined, density: 1000, inertia: [1, 1, 1, 0, 0, 0] })] }, 'bodies[0].inertia: needs "mass"'],
    // unique names
    [{ bodies: [body(), body({ name: 'x' }), body()] }, 'bodies[2].name: "b" is already the name of bodies[0]; names must be unique'],
    [{ bodies: [body({ name: 'rover/chassis' })], robot: { type: 'skid-steer' } }, 'bodies[0].name: "rover/chassis" is already the robot\'s body'],
    [{ bodies: [body(), body({ name: 'c' })], joints: [{ type: 'fixed', name: 'j', bodyB: 'b' }, { type: 'fixed', name: 'j', bodyB: 'c' }] },
      'joints[1].name: "j" is already the name of joints[0]'],
    // joints name existing bodies
    [{ bodies: [body()], joints: [{ type: 'revolute', name: 'j', bodyA: 'b', bodyB: 'wheel' }] }, 'joints[0].bodyB: no body is named "wheel"'],
    [{ bodies: [body()], joints: [{ type: 'revolute', name: 'j', bodyA: 'b', bodyB: 'b' }] }, 'joints[0]: bodyA and bodyB are the same body'],
    [{ bodies: [body()], joints: [{ type: 'revolute', name: 'j', bodyB: 'b', axis: [0, 0, 0] }] }, 'joints[0].axis: must be a non-zero direction [x, y, z]; got the zero vector'],
    [{ bodies: [body()], joints: [{ type: 'prismatic', name: 'j', bodyB: 'b', limits: [1, -1] }] }, 'joints[0].limits: must be [lower, upper] with lower ≤ upper'],
    // materials named exist
    [{ bodies: [body({ material: 'rubber' })] }, 'bodies[0].material: unknown material "rubber"; defined: default'],
    [{ terrainMaterials: { material: 'mud' } }, 'terrainMaterials.material: unknown material "mud"'],
    [{ materials: { sand: {} }, terrainMaterials: { regions: [{ material: 'snow', shape: 'circle', center: [0, 0], radius: 1 }] } },
      'terrainMaterials.regions[0].material: unknown material "snow"; defined: sand, default'],
    [{ robot: { type: 'skid-steer', wheelMaterial: 'rubber' } }, 'robot.wheelMaterial: unknown material "rubber"'],
    [{ materials: JSON.parse('{"__proto__": {"friction": 1}}') }, 'materials: "__proto__" is not a valid name'],
    [{ materials: { toString: {} } }, 'materials: "toString" is not a valid name'],
    [{ terrainMaterials: { regions: [{ material: 'default', shape: 'rect', min: [1, 0], max: [0, 1] }] } }, 'terrainMaterials.regions[0]: "min" must be below "max"'],
    // script sorted by t
    [{ script: [{ t: 1, throttle: 0, steer: 0 }, { t: 0.5, throttle: 0, steer: 0 }] }, 'script[1].t: 0.5 is earlier than the command before it (1); commands must be sorted by t'],
    [{ script: [{ t: 0, throttle: 2 }] }, 'script[0].throttle: must be a number in [-1, 1], got 2'],
    // terrain
    [{ terrain: { cols: 2, rows: 2, dx: 1, dy: 1, heights: [0, 0, 0] } }, 'terrain: heights has 3 values; cols × rows = 2 × 2 = 4'],
    [{ terrain: { cols: 2, rows: 2, dx: 1, dy: 1, heights: [0, 0, 0, null] } }, 'terrain.heights: must be an array (or Float64Array/Float32Array) of finite heights in [−10000, 10000] m; item 3 is null'],
    [{ terrain: '' }, 'terrain: must be the path of a terrain sidecar JSON'],
    [{ terrain: undefined }, '(top level): missing field "terrain"'],
    // robot kinds
    [{ robot: { wheelRadius: 0.2 } }, 'robot: give "type": "skid-steer" (the built-in rover) or "urdf": the path of a URDF file'],
    [{ robot: { type: 'tank' } }, 'robot.type: must be "skid-steer" (or give "urdf": the path of a URDF file), got "tank"'],
    [{ robot: 'rover' }, 'robot: must be an object with fields type, name'],
    [{ robot: { urdf: 'r.urdf', controller: { type: 'tank' } } }, 'robot.controller.type: must be one of "skid-steer", "differential", "ackermann", "all-wheel-steer", "none", got "tank"'],
    [{ robot: { urdf: 'r.urdf', controller: { type: 'tank', left: ['a'] } } }, 'robot.controller.type: must be one of "skid-steer", "differential", "ackermann", "all-wheel-steer", got "tank"'],
    [{ robot: { urdf: 'r.urdf', controller: { hold: { mast: 'up' } } } }, 'robot.controller.hold: must be an object of joint positions by joint name'],
    [{ robot: { urdf: 'r.urdf', controller: { type: 'ackermann', mode: 'crab' } } }, 'robot.controller.mode: only "all-wheel-steer" has modes, this controller is "ackermann"'],
    [{ robot: { urdf: 'r.urdf', controller: { mode: 'crab' } } }, 'robot.controller: "mode" and "maxSpeed" need the controller\'s "type"'],
    [{ robot: { urdf: 'r.urdf', controller: { type: 'all-wheel-steer', wheels: [{ drive: 'a' }], wheelRadius: 0.1, maxSpeed: 1, maxSteer: 0.5, maxTorque: 5 } } }, 'robot.controller.wheels: must be an array of 2 to 64 wheels'],
    // format and version
    [{ version: 3 }, '"version" 3 is not supported (this build reads versions 1 and 2)'],
    [{ format: 'x' }, '"format" must be "terrawheel-scenario", got "x"'],
  ])('rule %#: %j', (extra, message) => {
    const raw = minimalV2(extra as Record<string, unknown>);
    for (const k of Object.keys(raw)) if (raw[k] === undefined) delete raw[k];
    const msg = scenarioError(() => parse(raw));
    expect(msg).toContain(message);
    expect(msg.startsWith('scenario: ')).toBe(true);
  });

  it('normalises a quaternion within 1e-3 of unit length', () => {
    const p = parse(minimalV2({ bodies: [body({ orientation: [0, 0, 0, 1.0009] })] }));
    expect(p.world.bodies[0].orientation).toEqual([0, 0, 0, 1]);
    const s = Math.SQRT1_2 * 0.9995;
    const q = parse(minimalV2({ bodies: [body({ orientation: [s, 0, 0, s] })] })).world.bodies[0].orientation as number[];
    expect(Math.hypot(...q)).toBeCloseTo(1, 15);
    expect(q[0]).toBeCloseTo(Math.SQRT1_2, 15);
  });

  it('reports several problems at once, at most 5 and a count', () => {
    const bodies = Array.from({ length: 8 }, (_, k) => ({ name: `b${k}`, shape: cylinder }));
    const msg = scenarioError(() => parse(minimalV2({ bodies })));
    expect(msg.split('needs "mass"').length - 1).toBe(5);
    expect(msg).toContain('… and 3 more');
  });

  it('accepts every shape kind, joint kind and region kind', () => {
    const p = parse(
      minimalV2({
        materials: { sand: {} },
        bodies: [
          { name: 's', shape: { type: 'sphere', radius: 0.1 }, density: 1000 },
          { name: 'x', shape: { type: 'box', halfExtents: [0.1, 0.2, 0.3] }, mass: 1, inertia: [1, 1, 1, 0, 0, 0], centerOfMass: [0, 0, 0.01] },
          { name: 'c', shape: { type: 'capsule', radius: 0.1, height: 0.5 }, mass: 1, linearVelocity: [1, 0, 0], angularVelocity: [0, 0, 1], ccd: true },
          { name: 'h', shape: { type: 'hull', points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]] }, mass: 1 },
          {
            name: 'k',
            shape: { type: 'compound', children: [{ shape: { type: 'box', halfExtents: [1, 1, 1] }, position: [0, 0, 1], orientation: [0, 0, 0, 1] }] },
            mass: 3,
          },
        ],
        joints: [
          { type: 'revolute', name: 'r', bodyA: 's', bodyB: 'x', anchor: [0, 0, 0], axis: [0, 1, 0], limits: [-1, 1], motor: { targetVelocity: 1, maxTorque: 5 }, damping: 0.1, friction: 0.2 },
          { type: 'prismatic', name: 'p', bodyA: 'x', bodyB: 'c', axis: [0, 0, 1], spring: { stiffness: 1000, damping: 10, restPosition: 0.01 } },
          { type: 'fixed', name: 'f', bodyB: 'h' },
          { type: 'ball', name: 'b', bodyA: 'h', bodyB: 'k', anchor: [1, 2, 3] },
        ],
        terrainMaterials: {
          material: 'sand',
          regions: [
            { material: 'default', shape: 'rect', min: [0, 0], max: [1, 1] },
            { material: 'default', shape: 'circle', center: [0, 0], radius: 1 },
            { material: 'sand', shape: 'polygon', points: [[0, 0], [1, 0], [0, 1]] },
          ],
        },
        robot: {
          urdf: '../robots/x.urdf',
          position: [1, 2],
          yaw: 0.5,
          controller: { type: 'ackermann', driveLeft: ['a'], driveRight: ['b'], steerLeft: 'c', steerRight: 'd', wheelRadius: 0.3, wheelbase: 2, track: 1.5, maxSpeed: 5, maxSteer: 0.6, maxTorque: 100 },
        },
      }),
    );
    expect(p.world.bodies.map((b) => b.shape.type)).toEqual(['sphere', 'box', 'capsule', 'hull', 'compound']);
    expect(p.world.joints.map((j) => j.type)).toEqual(['revolute', 'prismatic', 'fixed', 'ball']);
    expect(p.world.terrainMaterials.regions?.map((r) => r.shape)).toEqual(['rect', 'circle', 'polygon']);
    expect(p.robot).toEqual({ urdf: '../robots/x.urdf', position: [1, 2], yaw: 0.5, controller: expect.objectContaining({ type: 'ackermann' }) });
    expect(p.start).toEqual({ position: [1, 2], yaw: 0.5 });
  });

  it('reads a URDF robot\'s controller choice and holds: { type, mode, hold }, and a full controller with a hold', () => {
    const choice = parse(minimalV2({ robot: { urdf: 'r.urdf', controller: { type: 'all-wheel-steer', mode: 'crab', hold: { mast_joint: 0.2 } } } }));
    expect(choice.robot).toEqual({ urdf: 'r.urdf', position: [0, 0], yaw: 0, controller: { type: 'all-wheel-steer', mode: 'crab' }, hold: { mast_joint: 0.2 } });
    const holdOnly = parse(minimalV2({ robot: { urdf: 'r.urdf', controller: { hold: { a: -0.1 } } } }));
    expect(holdOnly.robot).toEqual({ urdf: 'r.urdf', position: [0, 0], yaw: 0, hold: { a: -0.1 } });
    const none = parse(minimalV2({ robot: { urdf: 'r.urdf', controller: { type: 'none' } } }));
    expect(none.robot).toMatchObject({ controller: 'none' });
    const full = parse(minimalV2({ robot: { urdf: 'r.urdf', controller: { type: 'differential', left: ['l'], right: ['r'], wheelRadius: 0.1, track: 0.4, maxSpeed: 1, maxTorque: 2, hold: { arm: 0.5 } } } }));
    expect(full.robot).toMatchObject({ controller: { type: 'differential', left: ['l'] }, hold: { arm: 0.5 } });
  });
});

describe('untrusted input: deep, huge and hostile values give a clean ScenarioError', () => {
  it.each([5_000, 20_000])('a %i-deep array in "dt"', (depth) => {
    const msg = scenarioError(() => parse(minimalV2({ dt: deepArray(depth) })));
    expect(msg).toBe(`scenario: nested more than ${MAX_SCENARIO_DEPTH} levels deep`);
  });

  it.each([5_000, 20_000])('a %i-deep object in "bodies", and in a v1 file', (depth) => {
    expect(scenarioError(() => parse(minimalV2({ bodies: deepObject(depth) })))).toContain('nested more than');
    expect(scenarioError(() => parse({ format: 'terrawheel-scenario', version: 1, terrain: 't.json', dt: deepArray(depth) }))).toContain('nested more than');
  });

  it('a deep array parsed from JSON text (as a file would be)', () => {
    const text = `{"format":"terrawheel-scenario","version":2,"terrain":"t.json","dt":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    expect(scenarioError(() => parse(JSON.parse(text)))).toContain('nested more than');
  });

  it('a self-referencing object (a script bug) stops at the depth limit', () => {
    const raw: Record<string, unknown> = minimalV2();
    raw.robot = raw;
    expect(scenarioError(() => parse(raw))).toContain('nested more than');
  });

  it('huge arrays and objects are refused before validation, with their size', () => {
    expect(scenarioError(() => parse(minimalV2({ script: new Array(MAX_SCENARIO_NODES + 1).fill(0) })))).toContain('an array of 1000001 items');
    // the same walk with a smaller budget (a million-key object is slow to build)
    const wide: Record<string, number> = {};
    for (let k = 0; k <= 1000; k++) wide[`k${k}`] = 0;
    expect(scenarioError(() => checkScenarioSize(minimalV2({ materials: wide }), MAX_SCENARIO_DEPTH, 1000))).toContain('too large: more than 1000 values in all; "materials" holds at least 999 of them');
    expect(() => checkScenarioSize(minimalV2({ materials: wide }), MAX_SCENARIO_DEPTH, 2000)).not.toThrow();
  });

  // Issue #28: at the node cap the message named whichever small array came last ("an array of 3 items").
  it('at the node cap, the message names the field holding the values, not the last small array', () => {
    const bodies = Array.from({ length: 400 }, (_, k) => ({ name: `b${k}`, pose: [k, 0, 0] }));
    const msg = scenarioError(() => checkScenarioSize(minimalV2({ bodies }), MAX_SCENARIO_DEPTH, 1000));
    expect(msg).not.toContain('an array of 3 items');
    expect(msg).toMatch(/scenario: too large: more than 1000 values in all; "bodies" holds at least \d{3,4} of them/);
  });

  it('a long array that fits the node budget is refused by its own limit', () => {
    const script = Array.from({ length: 100_001 }, (_, k) => ({ t: k }));
    expect(scenarioError(() => parse(minimalV2({ script })))).toContain('script: must be an array of at most 100000 commands');
  });

  it('a big inline terrain passes as a Float64Array (one node) and fails as a plain array', () => {
    const cols = 1100;
    const heights = new Float64Array(cols * cols);
    expect(parse(minimalV2({ terrain: { cols, rows: cols, dx: 0.1, dy: 0.1, heights } })).terrain).toHaveProperty('inline');
    expect(scenarioError(() => parse(minimalV2({ terrain: { cols, rows: cols, dx: 0.1, dy: 0.1, heights: Array.from(heights) } })))).toContain('Float64Array');
  });

  it('messages describe long strings and big values by size and a short excerpt', () => {
    const long = 'x'.repeat(5_000_000);
    const msg = scenarioError(() => parse(minimalV2({ name: long })));
    expect(msg).toContain('name: must be a name of 1 to 200 characters without control characters, got "xxxxxxxxxxxx');
    expect(msg.length).toBeLessThan(400);
    expect(msg.length).toBeLessThan(300);
    const big = scenarioError(() => parse(minimalV2({ dt: Array.from({ length: 50 }, () => ({ a: 'y'.repeat(1000) })) })));
    expect(big.startsWith('scenario: dt: must be a number in [0.0001, 0.05] s, got [{"a":"yyy')).toBe(true);
    expect(big.length).toBeLessThan(200);
    const obj = scenarioError(() => parse(minimalV2({ dt: { alpha: 1, beta: 2, gamma: 3, delta: 4 } })));
    expect(obj).toContain('got {"alpha":1,"beta":2,"gamma":3');
    const key = scenarioError(() => parse(minimalV2({ ['k'.repeat(10_000)]: 1 })));
    expect(key.length).toBeLessThan(400);
  });

  it.each([
    ['name', { toString: 1 }],
    ['name', { toString: () => { throw new Error('called'); }, valueOf: 1 }],
    ['terrain', { toString: 1 }],
    ['dt', { valueOf: 1, toString: 1 }],
    ['description', Object.create(null)],
  ])('a hostile object in "%s" (%#)', (field, value) => {
    const msg = scenarioError(() => parse(minimalV2({ [field]: value })));
    expect(msg).toContain(`${field}`);
  });

  it('a hostile object in a v1 file\'s fields', () => {
    const v1 = { format: 'terrawheel-scenario', version: 1, terrain: 't.json' };
    expect(scenarioError(() => parse({ ...v1, dt: { toString: 1 } }))).toContain('"dt" must be a finite number, got {"toString":1}');
    expect(scenarioError(() => parse({ ...v1, name: { toString: 1 } }))).toContain('"name"');
    expect(scenarioError(() => parse({ ...v1, format: { toString: 1 } }))).toContain('"format"');
  });

  it('checkScenarioSize counts typed arrays as one value; describeValue never throws', () => {
    expect(() => checkScenarioSize({ h: new Float64Array(5e6) })).not.toThrow();
    for (const v of [undefined, null, true, 1.5, NaN, -Infinity, 'a"b\n', 10n, Symbol('s'), () => 1, [], [1], {}, { toString: 1 }, Object.create(null), new Float32Array(3)]) {
      expect(typeof describeValue(v)).toBe('string');
    }
    expect(describeValue('a"b\n')).toBe('"a\\"b\\n"');
  });
});

describe('the parsed world owns its data', () => {
  it('shares no vectors with the input (a caller editing its object later changes nothing)', () => {
    const raw = minimalV2({
      gravity: [0, 0, -9.81],
      bodies: [body({ position: [1, 2, 3], linearVelocity: [1, 0, 0] })],
      robot: { type: 'skid-steer', position: [4, 5] },
    });
    const p = parseScenarioFile(raw);
    const rb = (raw.bodies as { position: number[]; linearVelocity: number[] }[])[0];
    rb.position[0] = 99;
    rb.linearVelocity[0] = 99;
    (raw.gravity as number[])[2] = 0;
    ((raw.robot as { position: number[] }).position)[0] = 99;
    expect(p.world.bodies[0].position).toEqual([1, 2, 3]);
    expect(p.world.bodies[0].linearVelocity).toEqual([1, 0, 0]);
    expect(p.world.gravity).toEqual([0, 0, -9.81]);
    expect(p.start.position).toEqual([4, 5]);
  });
});

describe('scenario joints and the built-in rover', () => {
  it('a joint may name the rover\'s bodies (a trailer hitched to the chassis)', () => {
    const p = parseScenarioFile(
      minimalV2({
        bodies: [{ name: 'trailer', shape: { type: 'box', halfExtents: [0.4, 0.3, 0.1] }, mass: 20, position: [-1, 0, 0.3] }],
        joints: [{ type: 'ball', name: 'hitch', bodyA: 'rover/chassis', bodyB: 'trailer', anchor: [-0.5, 0, 0.3] }],
        robot: { type: 'skid-steer' },
      }),
    );
    const w = scenarioWorldSpec(p, { heightAt: () => 0 });
    expect(w.joints[0].bodyA).toBe(w.robot?.base);
    expect(w.robot?.bodies.map((b) => b.name)).toContain('rover/chassis');
  });

  it('without the rover, that name is unknown', () => {
    const msg = scenarioError(() =>
      parseScenarioFile(
        minimalV2({
          bodies: [{ name: 'trailer', shape: { type: 'sphere', radius: 0.3 }, mass: 20 }],
          joints: [{ type: 'ball', name: 'hitch', bodyA: 'rover/chassis', bodyB: 'trailer' }],
        }),
      ),
    );
    expect(msg).toContain('joints[0].bodyA: no body is named "rover/chassis"');
  });

  it('scenarioWorldSpec refuses a URDF robot whose names collide with the scenario\'s', () => {
    const p = parseScenarioFile(minimalV2({ bodies: [body({ name: 'base_link' })], robot: { urdf: 'r.urdf' } }));
    const urdfRobot = { name: 'r', base: 'base_link', joints: [], bodies: [{ name: 'base_link', shape: { type: 'sphere' as const, radius: 1 }, mass: 1 }] };
    expect(scenarioError(() => scenarioWorldSpec(p, { urdfRobot }))).toContain('robot: body "base_link" has the name of a scenario body');
  });
});

describe('scenario camera (issue #30: each scenario opens with its subject in view)', () => {
  it('a fixed view from position and target becomes distance, elevation and heading', () => {
    const p = parse(minimalV2({ camera: { target: [0, 0, 0], position: [-3, -3, Math.sqrt(18)] } }));
    expect(p.camera!.mode).toBe('orbit');
    expect(p.camera!.target).toEqual([0, 0, 0]);
    expect(p.camera!.distance).toBeCloseTo(6, 12);
    expect(p.camera!.elevation).toBeCloseTo(45, 9);
    expect(p.camera!.heading).toBeCloseTo(45, 9);
  });
  it('a chase view with distance, elevation and heading; no camera: none', () => {
    expect(parse(minimalV2({ camera: { mode: 'chase', distance: 7, elevation: 30, heading: -20 } })).camera).toEqual({ mode: 'chase', distance: 7, elevation: 30, heading: -20 });
    expect(parse(minimalV2({ camera: {} })).camera).toEqual({ mode: 'chase' });
    expect(parse(minimalV2()).camera).toBeUndefined();
  });
  it.each([
    [{ mode: 'wheel' }, 'camera.mode: must be one of "chase", "orbit", "top", got "wheel"'],
    [{ distance: 0.1 }, 'camera.distance: must be a number in [0.5, 500] m, got 0.1'],
    [{ elevation: 90 }, 'camera.elevation: must be a number in [3, 85] °, got 90'],
    [{ target: [0, 0] }, 'camera.target: must be [x, y, z]'],
    [{ zoom: 2 }, 'camera: unknown field "zoom"; allowed: mode, target, position, distance, elevation, heading'],
    [{ position: [1, 2, 3] }, 'camera.position: needs camera.target'],
    [{ position: [1, 2, 3], target: [0, 0, 0], distance: 4 }, 'camera.position: give either position or distance, not both'],
    [{ position: [0, 0, 0.1], target: [0, 0, 0] }, 'camera.position: must be 0.5 to 500 m from camera.target, is 0.100 m'],
    [{ position: [5, 0, 0], target: [0, 0, 0] }, 'camera.position: must look down at camera.target from 3° to 85° above the horizon, looks from 0.0°'],
  ])('refuses %j', (camera, message) => {
    expect(scenarioError(() => parse(minimalV2({ camera })))).toContain(message);
  });
});

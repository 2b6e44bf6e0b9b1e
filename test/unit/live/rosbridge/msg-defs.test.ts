/**
 * The message definitions the rosbridge server hands to clients (rosapi's typedefs_full_text)
 * against two independent references: Foxglove's ROS 1 definition parser (@foxglove/rosmsg, the
 * parser family Foxglove's and Lichtblick's Rosbridge connection use) must read every full text,
 * and the field lists must equal those of @foxglove/rosmsg-msgs-common, a separately maintained
 * table of the common ROS 1 messages.
 */
import { describe, expect, it } from 'vitest';
import { parse } from '@foxglove/rosmsg';
import { ros1 } from '@foxglove/rosmsg-msgs-common';
import { MESSAGE_DEFINITIONS, SERVICE_DEFINITIONS } from '../../../../sim/live/rosbridge/msg-defs';
import { conform, dependencies, fullDefinition, messageSpec, typeDefs } from '../../../../sim/live/rosbridge/msg-parse';
import { ALL_SERVICES, ALL_TOPICS } from '../../../../sim/live/rosbridge/catalog';

/** ROS 1's deprecated aliases, as the reference table spells them. */
const alias = (t: string) => (t === 'byte' ? 'int8' : t === 'char' ? 'uint8' : t);

describe('message definitions', () => {
  it('every field list equals the reference table of common ROS 1 messages', () => {
    const table = ros1 as unknown as Record<string, { definitions: { name: string; type: string; isConstant?: boolean; isArray?: boolean; arrayLength?: number; value?: unknown }[] }>;
    let compared = 0;
    for (const type of Object.keys(MESSAGE_DEFINITIONS)) {
      const ref = table[type];
      if (ref === undefined) continue; // rosapi/TypeDef is not a common message
      const mine = messageSpec(type)!;
      const refFields = ref.definitions.filter((d) => d.isConstant !== true).map((d) => ({ name: d.name, type: alias(d.type), array: d.isArray === true ? (d.arrayLength ?? 0) : -1 }));
      expect(mine.fields.map((f) => ({ name: f.name, type: alias(f.type), array: f.array })), type).toEqual(refFields);
      const refConstants = ref.definitions.filter((d) => d.isConstant === true).map((d) => ({ name: d.name, value: String(d.value) }));
      expect(mine.constants.map((c) => ({ name: c.name, value: c.value })), type).toEqual(refConstants);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(18);
  });

  it("Foxglove's parser reads the full text of every topic's type, dependencies included", () => {
    for (const t of ALL_TOPICS) {
      const text = fullDefinition(t.type);
      const parsed = parse(text);
      expect(parsed.length, t.type).toBe(1 + dependencies(t.type).length);
      const names = parsed.slice(1).map((d) => d.name);
      expect(names, t.type).toEqual(dependencies(t.type));
      expect(parsed[0].definitions.filter((d) => d.isConstant !== true).map((d) => d.name)).toEqual(messageSpec(t.type)!.fields.map((f) => f.name));
    }
  });

  it('every service type of the catalog has a definition with both halves', () => {
    for (const s of ALL_SERVICES) {
      expect(SERVICE_DEFINITIONS[s.type], s.type).toBeDefined();
      expect(messageSpec(`${s.type}Request`), s.type).toBeDefined();
      expect(messageSpec(`${s.type}Response`), s.type).toBeDefined();
      // every type the halves name is defined
      expect(() => typeDefs(`${s.type}Response`)).not.toThrow();
    }
  });

  it("typeDefs lists the type first, then its dependencies, with rosapi's array lengths", () => {
    const defs = typeDefs('nav_msgs/Odometry');
    expect(defs[0].type).toBe('nav_msgs/Odometry');
    expect(defs.map((d) => d.type)).toContain('geometry_msgs/Quaternion');
    const pwc = defs.find((d) => d.type === 'geometry_msgs/PoseWithCovariance')!;
    expect(pwc.fieldarraylen).toEqual([-1, 36]);
  });
});

describe('conform', () => {
  it('fills a partial Twist with zeros', () => {
    const r = conform('geometry_msgs/Twist', { linear: { x: 1 } });
    expect(r).toEqual({ ok: true, value: { linear: { x: 1, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } } });
  });

  it('names the field of each kind of wrong value', () => {
    const bad: [string, unknown, RegExp][] = [
      ['geometry_msgs/Twist', { linear: { x: 'fast' } }, /linear\.x: expected a number/],
      ['geometry_msgs/Twist', { linear: { x: 1, w: 2 } }, /has no field "w"/],
      ['geometry_msgs/Twist', { linear: [1, 2, 3] }, /linear: expected an object/],
      ['geometry_msgs/Twist', 5, /expected an object/],
      ['geometry_msgs/Twist', { angular: { z: null } }, /angular\.z: expected a number/],
      ['sensor_msgs/JointState', { name: 'a', velocity: [1] }, /name: expected an array/],
      ['sensor_msgs/JointState', { name: ['a'], velocity: [1, 'x'] }, /velocity\[1\]/],
      ['sensor_msgs/JointState', { header: { seq: -1 } }, /header\.seq: expected an integer/],
      ['sensor_msgs/JointState', { header: { stamp: { secs: 1, nsecs: 2, sec: 3 } } }, /only secs and nsecs/],
      ['sensor_msgs/JointState', { name: new Array(5000).fill('j') }, /over the limit/],
      ['geometry_msgs/PoseWithCovariance', { covariance: [1, 2] }, /exactly 36/],
      ['std_msgs/Header', { frame_id: 'x'.repeat(5000) }, /over the limit/],
      ['std_msgs/Header', JSON.parse('{"__proto__": {"seq": 1}}'), /has no field "__proto__"/],
    ];
    for (const [type, v, re] of bad) {
      const r = conform(type, v);
      expect(r.ok, JSON.stringify(v)?.slice(0, 80)).toBe(false);
      if (!r.ok) expect(r.error).toMatch(re);
    }
  });

  it('rejects non-finite numbers (JSON cannot carry them, a client object can)', () => {
    expect(conform('geometry_msgs/Vector3', { x: Infinity }).ok).toBe(false);
    expect(conform('geometry_msgs/Vector3', { x: NaN }).ok).toBe(false);
  });

  it('strict mode refuses a missing field', () => {
    expect(conform('geometry_msgs/Vector3', { x: 1, y: 2 }, true)).toMatchObject({ ok: false, error: expect.stringMatching(/z: missing/) });
  });
});

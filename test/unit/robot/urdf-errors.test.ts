/**
 * Broken URDFs: each gives a UrdfError whose message names the link or joint and says what to
 * fix. One case per failure class of issue #14 (plus the caps on absurd sizes).
 */
import { describe, it, expect } from 'vitest';
import { NUMBER_RE, parseUrdf } from '../../../sim/robot/urdf/parse-urdf';
import { Rng } from '../../../sim/math/random';
import { loadUrdfRobot } from '../../../sim/robot/urdf/load-urdf';
import { UrdfError, URDF_MAX_BYTES, URDF_MAX_LINKS } from '../../../sim/robot/urdf/urdf-error';

const INERTIAL = '<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>';
const link = (name: string, body = INERTIAL): string => `<link name="${name}">${body}</link>`;
const joint = (name: string, type: string, parent: string, child: string, extra = ''): string =>
  `<joint name="${name}" type="${type}"><parent link="${parent}"/><child link="${child}"/>${extra}</joint>`;
const robot = (body: string): string => `<?xml version="1.0"?><robot name="t">${body}</robot>`;
const GOOD = robot(link('base') + link('arm') + joint('j', 'revolute', 'base', 'arm', '<axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>'));

function errorOf(text: string, load = false): UrdfError {
  try {
    if (load) loadUrdfRobot(text, { controller: 'none' });
    else parseUrdf(text);
  } catch (e) {
    expect(e).toBeInstanceOf(UrdfError);
    return e as UrdfError;
  }
  throw new Error('expected a UrdfError, the file loaded');
}

describe('URDF errors', () => {
  it('the good base case loads (so each case below fails for its own reason)', () => {
    expect(parseUrdf(GOOD).joints).toHaveLength(1);
    expect(loadUrdfRobot(GOOD, { controller: 'none' }).robot.bodies).toHaveLength(2);
  });

  const cases: [string, string, RegExp, string?][] = [
    ['malformed XML', GOOD.replace('</robot>', ''), /malformed XML at line 1, column \d+/],
    ['empty file', '   ', /the file is empty/],
    ['not a robot', '<model name="x"/>', /root element must be one <robot/],
    ['xacro', robot('<xacro:macro name="w"/>' + link('base')), /xacro file.*a scenario naming it in "robot.urdf" expands it/],
    ['entities', `<!DOCTYPE r [<!ENTITY a "aaaa">]>${GOOD}`, /declares XML entities/],
    ['unknown joint type', GOOD.replace('type="revolute"', 'type="hinge"'), /joint "j": unknown type "hinge"; use revolute, continuous, prismatic or fixed/, 'j'],
    ['floating joint', GOOD.replace('type="revolute"', 'type="floating"'), /joint "j": type "floating" is not supported/, 'j'],
    ['planar joint', GOOD.replace('type="revolute"', 'type="planar"'), /joint "j": type "planar" is not supported/, 'j'],
    ['two roots', robot(link('base') + link('arm')), /2 links have no parent joint \("base", "arm"\).*connect "arm" to the tree/, 'arm'],
    [
      'cycle',
      robot(link('base') + link('a') + link('b') + joint('ab', 'fixed', 'a', 'b') + joint('ba', 'fixed', 'b', 'a') + joint('x', 'fixed', 'base', 'base')),
      /joint "x" connects link "base" to itself/,
      'x',
    ],
    ['cycle not through the root', robot(link('base') + link('a') + link('b') + joint('ab', 'fixed', 'a', 'b') + joint('ba', 'fixed', 'b', 'a')), /closes a cycle through link/],
    ['two parents', robot(link('base') + link('a') + joint('j1', 'fixed', 'base', 'a') + joint('j2', 'fixed', 'base', 'a')), /link "a" is the child of two joints \("j1" and "j2"\)/, 'a'],
    ['missing child link', GOOD.replace('<child link="arm"/>', '<child link="nope"/>'), /joint "j": child link "nope" does not exist/, 'j'],
    ['missing parent link', GOOD.replace('<parent link="base"/>', '<parent link="nope"/>'), /joint "j": parent link "nope" does not exist/, 'j'],
    ['negative mass', GOOD.replace('<link name="arm"><inertial><mass value="1"/>', '<link name="arm"><inertial><mass value="-2"/>'), /link "arm": <mass value="-2"> must be > 0 kg/],
    ['absurd mass', GOOD.replace('<link name="arm"><inertial><mass value="1"/>', '<link name="arm"><inertial><mass value="1e12"/>'), /link "arm": <mass value="1000000000000"> exceeds/],
    ['non-positive-definite inertia', GOOD.replace('<link name="arm"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0"', '<link name="arm"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="2"'), /link "arm": <inertia .*> is not positive definite/],
    ['inertia with leading minors > 0 but det < 0', GOOD.replace('<link name="arm"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"', '<link name="arm"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0.8" iyz="0.8"'), /link "arm": <inertia .*> is not positive definite/],
    ['negative diagonal inertia', GOOD.replace('<link name="arm"><inertial><mass value="1"/><inertia ixx="1"', '<link name="arm"><inertial><mass value="1"/><inertia ixx="-1"'), /link "arm": <inertia .*> is not positive definite/],
    ['NaN attribute', GOOD.replace('<link name="arm"><inertial><mass value="1"/>', '<link name="arm"><inertial><mass value="NaN"/>'), /link "arm": <mass value="NaN">: "NaN" is not a finite decimal number/],
    ['non-numeric attribute', GOOD.replace('lower="-1"', 'lower="minus one"'), /joint "j": <limit lower="minus one"> must hold 1 number separated by spaces, found 2/],
    ['hex attribute', GOOD.replace('upper="1"', 'upper="0x10"'), /joint "j": <limit upper="0x10">: "0x10" is not a finite decimal number/],
    ['Infinity attribute', GOOD.replace('<axis xyz="0 0 1"/>', '<axis xyz="0 0 Infinity"/>'), /joint "j": <axis xyz="0 0 Infinity">: "Infinity" is not a finite/],
    ['wrong count', GOOD.replace('<axis xyz="0 0 1"/>', '<axis xyz="0 1"/>'), /joint "j": <axis xyz="0 1"> must hold 3 numbers/],
    ['zero axis', GOOD.replace('<axis xyz="0 0 1"/>', '<axis xyz="0 0 0"/>'), /joint "j": <axis xyz="0 0 0"> has zero length/],
    ['missing inertia attribute', GOOD.replace('<link name="arm"><inertial><mass value="1"/><inertia ixx="1" ', '<link name="arm"><inertial><mass value="1"/><inertia '), /link "arm": <inertia> needs the attribute ixx/],
    ['missing mass', GOOD.replace('<link name="arm"><inertial><mass value="1"/>', '<link name="arm"><inertial>'), /link "arm": <inertial> needs <mass value/],
    ['missing link name', GOOD.replace('<link name="arm">', '<link>'), /a <link> has no name/],
    ['missing joint type', GOOD.replace(' type="revolute"', ''), /joint "j": needs type=/],
    ['missing child element', GOOD.replace('<child link="arm"/>', ''), /joint "j": needs <child link/],
    ['revolute without limit', GOOD.replace('<limit lower="-1" upper="1" effort="1" velocity="1"/>', ''), /joint "j": a revolute joint needs <limit/],
    ['limit without effort', GOOD.replace(' effort="1"', ''), /joint "j": <limit> needs the attribute effort/],
    ['lower above upper', GOOD.replace('lower="-1" upper="1"', 'lower="1" upper="-1"'), /joint "j": <limit lower="1"> is above upper="-1"; swap them/],
    ['negative damping', GOOD.replace('<axis', '<dynamics damping="-1"/><axis'), /joint "j": <dynamics damping="-1" friction="0"> must be >= 0/],
    ['box without size', robot(link('base', INERTIAL + '<collision><geometry><box/></geometry></collision>')), /link "base" <collision> #1: <box> needs the attribute size/],
    ['absurd box', robot(link('base', INERTIAL + '<collision><geometry><box size="1 1 1e6"/></geometry></collision>')), /link "base" <collision> #1: <box size> is 1000000 m; it must be in \(0, 1000\] m/],
    ['negative radius', robot(link('base', INERTIAL + '<visual><geometry><sphere radius="-1"/></geometry></visual>')), /link "base" <visual> #1: <sphere radius> is -1 m/],
    ['two geometries', robot(link('base', INERTIAL + '<collision><geometry><sphere radius="1"/><box size="1 1 1"/></geometry></collision>')), /must hold exactly one of <box>, <cylinder>, <sphere>, <mesh>; found 2/],
    ['no geometry', robot(link('base', INERTIAL + '<collision></collision>')), /link "base" <collision> #1: needs a <geometry>/],
    ['unknown geometry', robot(link('base', INERTIAL + '<collision><geometry><capsule radius="1" length="1"/></geometry></collision>')), /found 0/],
    ['duplicate link', robot(link('base') + link('base')), /link "base" is defined twice/],
    ['duplicate joint', robot(link('base') + link('a') + link('b') + joint('j', 'fixed', 'base', 'a') + joint('j', 'fixed', 'base', 'b')), /joint "j" is defined twice/],
    ['ball marker on a revolute', GOOD.replace('<axis', '<terrawheel:ball/><axis'), /joint "j": <terrawheel:ball\/> marks a ball joint and needs type="fixed"/],
    // Issue #28: plausible ranges at load, each error naming the link.
    ['denormal mass 1e-320', GOOD.replace('<link name="arm"><inertial><mass value="1"/>', '<link name="arm"><inertial><mass value="1e-320"/>'), /link "arm": <mass value="1e-320"> is below 0.000001 kg/, 'arm'],
    ['tiny mass 1e-300', GOOD.replace('<link name="arm"><inertial><mass value="1"/>', '<link name="arm"><inertial><mass value="1e-300"/>'), /link "arm": <mass value="1e-300"> is below 0.000001 kg/, 'arm'],
    ['tiny inertia 1e-300', GOOD.replace('<link name="arm"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"', '<link name="arm"><inertial><mass value="1"/><inertia ixx="1e-300" iyy="1e-300" izz="1e-300"'), /link "arm": <inertia ixx="1e-300"> is below 1e-12 kg·m²/, 'arm'],
    ['absurd inertia', GOOD.replace('<link name="arm"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"', '<link name="arm"><inertial><mass value="1"/><inertia ixx="1e20" iyy="1e20" izz="1e20"'), /link "arm": <inertia ixx="100000000000000000000"> exceeds 10000000000000 kg·m²/, 'arm'],
    ['tiny wheel radius 1e-300', robot(link('base', INERTIAL + '<collision><geometry><cylinder radius="1e-300" length="0.1"/></geometry></collision>')), /link "base" <collision> #1: <cylinder radius> is 1e-300 m; it must be in \[0.0001, 1000\] m/, 'base'],
    ['undeclared entity as the robot name', GOOD.replace('<robot name="t">', '<robot name="&foo;">'), /line 1: the entity &foo; is not declared/],
    ['undeclared entity in a link name', GOOD.replace('<link name="arm">', '<link name="&arm;">'), /the entity &arm; is not declared/],
    ['reserved attribute name', GOOD.replace('<link name="arm">', '<link name="arm" constructor="x">'), /not a URDF this loader can read/],
  ];
  for (const [what, text, re, where] of cases) {
    it(what, () => {
      const e = errorOf(text);
      expect(e.message).toMatch(re);
      if (where !== undefined) expect(e.where).toBe(where);
    });
  }

  it('mass="0" is a massless link: merged on a fixed joint (a sensor frame), refused on a moving one', () => {
    const zero = (type: string) => GOOD.replace('<link name="arm"><inertial><mass value="1"/>', '<link name="arm"><inertial><mass value="0"/>').replace('type="revolute"', `type="${type}"`);
    const e = errorOf(zero('revolute'), true);
    expect(e.message).toMatch(/link "arm" has no <inertial> but moves on revolute joint "j"/);
    const out = loadUrdfRobot(zero('fixed'), { controller: 'none' });
    expect(out.robot.bodies.map((b) => b.name)).toEqual(['base']);
    expect(out.linkBodies.arm).toBe('base');
    expect(out.warnings[0]).toMatch(/link "arm": <mass value="0"> is read as a massless link/);
  });

  // Issue #28 (no backtracking regex over untrusted text): the number pattern was /\d+\.?\d*/, two
  // quantifiers over the same digits, so 20,000 digits and an "x" took 4.9 s (quadratic); this
  // one has a million digits and would take hours. The test's timeout is the guard.
  it('a number attribute of a million digits and a letter is refused at once (linear number pattern)', () => {
    const e = errorOf(GOOD.replace('<mass value="1"/>', `<mass value="${'1'.repeat(1_000_000)}x"/>`));
    expect(e.message).toMatch(/is not a finite decimal number/);
  });

  it('the number pattern accepts exactly what the old one did (seeded strings over its alphabet)', () => {
    const old = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
    const rng = new Rng(0x28);
    const alphabet = ['1', '0', '9', '.', 'e', 'E', '+', '-', 'x', ' '];
    for (let n = 0; n < 20_000; n++) {
      let t = '';
      for (let k = rng.int(0, 8); k > 0; k--) t += alphabet[rng.int(0, alphabet.length - 1)];
      expect(NUMBER_RE.test(t), t).toBe(old.test(t));
    }
  });

  it('the five predefined entities and character references are not refused', () => {
    expect(parseUrdf(GOOD.replace('<robot name="t">', '<robot name="a &amp; b &lt;&gt;&quot;&apos;">')).name).toBe('a & b <>"\'');
    expect(() => parseUrdf(GOOD.replace('<robot name="t">', '<robot name="&#65;&#x42;">'))).not.toThrow();
  });

  it('caps the file size and the link count before reading', () => {
    expect(errorOf(' '.repeat(URDF_MAX_BYTES + 1)).message).toMatch(/at most \d+ are accepted/);
    const many = robot(Array.from({ length: URDF_MAX_LINKS + 1 }, (_, i) => `<link name="l${i}"/>`).join(''));
    expect(errorOf(many).message).toMatch(/1001 links and 0 joints; at most 1000/);
  });

  it('a root without mass and without one massive fixed child', () => {
    expect(errorOf(robot(link('base', '')), true).message).toMatch(/link "base" \(the root\) has no <inertial>/);
  });

  it('a missing collision mesh names the file and the link', () => {
    const text = robot(link('base', INERTIAL + '<collision><geometry><mesh filename="package://bot/meshes/body.stl"/></geometry></collision>'));
    const e = (() => {
      try {
        loadUrdfRobot(text, { urdfPath: '/home/u/bot/urdf/bot.urdf', meshes: () => undefined });
      } catch (err) {
        return err as UrdfError;
      }
      throw new Error('loaded');
    })();
    expect(e).toBeInstanceOf(UrdfError);
    expect(e.message).toMatch(/link "base" <collision> #1: collision mesh "\/home\/u\/bot\/meshes\/body.stl" \(from "package:\/\/bot\/meshes\/body.stl"\) is missing/);
    expect(e.where).toBe('base');
  });

  it('a broken collision mesh names the link and the file', () => {
    const text = robot(link('base', INERTIAL + '<collision><geometry><mesh filename="body.stl"/></geometry></collision>'));
    let err: unknown;
    try {
      loadUrdfRobot(text, { urdfPath: 'r/bot.urdf', meshes: () => new Uint8Array(100) });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UrdfError);
    expect((err as UrdfError).message).toMatch(/^link "base" <collision> #1: mesh "r\/body.stl": not an STL/);
    expect((err as UrdfError).where).toBe('base');
  });

  it('a broken Collada collision mesh is refused naming the link, the file and what is wrong', () => {
    const text = robot(link('base', INERTIAL + '<collision><geometry><mesh filename="body.dae"/></geometry></collision>'));
    let err: unknown;
    try {
      loadUrdfRobot(text, { controller: 'none', meshes: () => new TextEncoder().encode('<COLLADA><library_geometries></COLLADA>') });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UrdfError);
    expect((err as UrdfError).message).toMatch(/^link "base" <collision> #1: mesh "body.dae": not well-formed XML/);
  });

  it('a zero-sized primitive (the p2os Pioneer 3-AT\'s <box size="0 0 0"/>) is no shape, with a warning; a negative size stays an error', () => {
    const text = robot(
      link('base', INERTIAL + '<collision><geometry><box size="0 0 0"/></geometry></collision><collision><geometry><sphere radius="0.1"/></geometry></collision><visual><geometry><cylinder radius="0" length="0.1"/></geometry></visual>'),
    );
    const parsed = parseUrdf(text);
    expect(parsed.links[0].collisions.map((c) => c.geometry.type)).toEqual(['sphere']);
    expect(parsed.links[0].visuals).toHaveLength(0);
    const w = parsed.warnings.join('\n');
    expect(w).toMatch(/link "base" <collision> #1: <box size="0 0 0"\/> has no volume; read as no shape/);
    expect(w).toMatch(/link "base" <visual> #1: <cylinder radius="0" length="0.1"\/> has no volume/);
    expect(errorOf(robot(link('base', INERTIAL + '<collision><geometry><box size="1 -1 0"/></geometry></collision>'))).message).toMatch(/<box size> is -1 m/);
  });
  it('warns (does not fail) on a triangle-inequality breach, an undefined material and a locked joint', () => {
    const text = robot(
      link('base', '<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="3" ixy="0" ixz="0" iyz="0"/></inertial><visual><geometry><sphere radius="1"/></geometry><material name="ghost"/></visual>') +
        link('arm') +
        joint('j', 'revolute', 'base', 'arm', '<limit lower="0" upper="0" effort="1" velocity="1"/>'),
    );
    const w = parseUrdf(text).warnings.join('\n');
    expect(w).toMatch(/link "base": <inertia> breaks the triangle inequality/);
    expect(w).toMatch(/material "ghost" is not defined/);
    expect(w).toMatch(/joint "j": <limit lower> equals upper/);
  });
});

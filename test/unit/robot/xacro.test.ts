/**
 * xacro inside TerraWheel (issue #27): properties, math, macros with blocks, conditionals,
 * includes by $(find pkg) and package://, $(arg) with defaults and given values, pass-through
 * parameters; comments trigger nothing; a failure names the file.
 */
import { describe, expect, it } from 'vitest';
import { expandXacro, isXacro, namespaceFile } from '../../../sim/robot/urdf/xacro';
import { parseUrdf } from '../../../sim/robot/urdf/parse-urdf';
import { UrdfError } from '../../../sim/robot/urdf/urdf-error';

const NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"';

/** Expands `main` at /ws/src/pkg/urdf/main.xacro with the given other files. */
/** Link names of expanded text, in order (the text need not be one tree). */
function links(urdf: string): string[] {
  return [...urdf.matchAll(/<link name="([^"]*)"/g)].map((m) => m[1]);
}

async function expand(main: string, files: Record<string, string> = {}, args?: Record<string, string>) {
  return expandXacro(main, { path: '/ws/src/pkg/urdf/main.xacro', readFile: (p) => files[p], args });
}

describe('isXacro', () => {
  it('a commented-out include is not xacro; an element or a substitution outside comments is', () => {
    expect(isXacro(`<robot name="r"><!-- <xacro:include filename="x"/> --><link name="a"/></robot>`)).toBe(false);
    expect(isXacro(`<robot name="r"><!-- \${x} --><link name="a"/></robot>`)).toBe(false);
    expect(isXacro(`<robot name="r" ${NS}><xacro:property name="a" value="1"/></robot>`)).toBe(true);
    expect(isXacro(`<robot name="r"><link name="\${p}a"/></robot>`)).toBe(true);
  });

  it('parseUrdf reads a plain URDF whose comment mentions xacro (xacro\'s own output)', () => {
    const m = parseUrdf(`<?xml version="1.0"?><robot name="r"><!-- <xacro:include filename="$(find p)/x.urdf"/> --><link name="a"/></robot>`);
    expect(m.links.map((l) => l.name)).toEqual(['a']);
  });
});

describe('expandXacro', () => {
  it('properties, math, a macro with a block and parameters, conditionals', async () => {
    const out = await expand(`<robot name="r" ${NS}>
      <xacro:property name="r" value="0.1"/>
      <xacro:macro name="wheel" params="name y *origin">
        <link name="\${name}"><collision><xacro:insert_block name="origin"/><geometry><cylinder radius="\${r*2}" length="\${r/2}"/></geometry></collision></link>
      </xacro:macro>
      <xacro:wheel name="w1" y="1"><origin xyz="0 \${pi/2} 0"/></xacro:wheel>
      <xacro:if value="\${r > 1}"><link name="big"/></xacro:if>
      <xacro:unless value="\${r > 1}"><link name="small"/></xacro:unless>
    </robot>`);
    expect(links(out.urdf)).toEqual(['w1', 'small']);
    const m = parseUrdf(out.urdf.replace(/<link name="small"\/>/, ''));
    const g = m.links[0].collisions[0];
    expect(g.geometry).toEqual({ type: 'cylinder', radius: 0.2, length: 0.05 });
    expect(g.origin.xyz[1]).toBeCloseTo(Math.PI / 2, 12);
  });

  it('Python math functions (sqrt, fabs, floor, ceil, exp, hypot, min, max) as xacro offers them (the MiR\'s ${sqrt(5e-05)})', async () => {
    const out = await expand(`<robot name="r" ${NS}><link name="\${sqrt(16)}_\${fabs(-2)}_\${floor(2.7)}_\${ceil(2.1)}_\${exp(0)}_\${hypot(3, 4)}_\${min(1, 2)}_\${max(1, 2)}"/></robot>`);
    expect(links(out.urdf)).toEqual(['4_2_2_3_1_5_1_2']);
  });

  it('a property whose value is a number as a whole text node serialises (the MiR: "n.data.replace is not a function")', async () => {
    const out = await expand(`<robot name="r" ${NS}><xacro:property name="m" value="2"/><link name="a"><mu1>\${m*2}</mu1></link></robot>`);
    expect(out.urdf).toContain('<mu1>4</mu1>');
  });

  it('includes by $(find pkg) and package://, relative to the main file\'s package', async () => {
    const files = {
      '/ws/src/pkg/urdf/parts.xacro': `<robot ${NS}><xacro:macro name="part" params="n"><link name="part_\${n}"/></xacro:macro><xacro:include filename="package://pkg/urdf/o.xacro"/></robot>`,
      '/ws/src/pkg/urdf/o.xacro': `<robot ${NS}><link name="other"/></robot>`,
    };
    const out = await expand(`<robot name="r" ${NS}><xacro:include filename="$(find pkg)/urdf/parts.xacro"/><xacro:part n="a"/></robot>`, files);
    expect(links(out.urdf).sort()).toEqual(['other', 'part_a']);
    expect(out.files).toEqual(['/ws/src/pkg/urdf/main.xacro', '/ws/src/pkg/urdf/parts.xacro', '/ws/src/pkg/urdf/o.xacro']);
  });

  it('a relative main path keeps its includes relative', async () => {
    const out = await expandXacro(`<robot name="r" ${NS}><xacro:include filename="$(find pkg)/urdf/b.xacro"/><xacro:include filename="c.xacro"/></robot>`, {
      path: 'robots/pkg/urdf/a.xacro',
      readFile: (p) => ({ 'robots/pkg/urdf/b.xacro': `<robot ${NS}><link name="b"/></robot>`, 'robots/pkg/urdf/c.xacro': `<robot ${NS}><link name="c"/></robot>` } as Record<string, string>)[p],
    });
    expect(out.warnings).toEqual([]);
    expect(links(out.urdf)).toEqual(['b', 'c']);
  });

  it('$(arg) takes its default, or the scenario\'s value', async () => {
    const main = `<robot name="r" ${NS}><xacro:arg name="prefix" default="a_"/><xacro:arg name="big" default="false"/>
      <link name="$(arg prefix)base"/><xacro:if value="$(arg big)"><link name="$(arg prefix)extra"/></xacro:if></robot>`;
    expect(links((await expand(main)).urdf)).toEqual(['a_base']);
    expect(links((await expand(main, {}, { prefix: 'b_', big: 'true' })).urdf)).toEqual(['b_base', 'b_extra']);
  });

  it('a pass-through parameter (name:=^) takes the caller\'s value', async () => {
    const out = await expand(`<robot name="r" ${NS}><xacro:property name="n" value="outer"/>
      <xacro:macro name="m" params="n:=^"><link name="l_\${n}"/></xacro:macro><xacro:m/></robot>`);
    expect(parseUrdf(out.urdf).links.map((l) => l.name)).toEqual(['l_outer']);
  });

  it('an include that cannot be read is skipped with a warning; $(optenv) is its default', async () => {
    const out = await expand(`<robot name="r" ${NS}><xacro:include filename="$(find missing_pkg)/urdf/x.xacro"/><link name="$(optenv NAME base)"/></robot>`);
    expect(out.warnings).toEqual(['xacro: included file "/ws/src/pkg/urdf/urdf/x.xacro" cannot be read; skipped (its macros and properties are missing) (package "missing_pkg" not found: no ancestor folder of /ws/src/pkg/urdf/main.xacro has that name and no package.xml beside it or its ancestors names it)']);
    expect(parseUrdf(out.urdf).links.map((l) => l.name)).toEqual(['base']);
  });

  it('husky-bracket-upper: Python string methods in an expression (${name.upper()} in the Clearpath Husky\'s pacs.urdf.xacro) evaluate', async () => {
    // xacro-parser cannot call a method on a string ("Cannot read properties of undefined"):
    // the wrapper's pythonStringMethods pre-pass turns it into a function call
    const out = await expand(`<robot name="r" ${NS}>
      <xacro:macro name="bracket" params="name">
        <xacro:property name="name_upper" value="\${name.upper()}"/>
        <xacro:property name="enabled" value="$(optenv HUSKY_\${name_upper}_BRACKET_ENABLED 0)"/>
        <link name="\${name_upper}_\${'MiXed'.lower()}"/>
        <xacro:if value="\${enabled}"><link name="bracket_\${name}"/></xacro:if>
      </xacro:macro>
      <xacro:bracket name="a01"/></robot>`);
    expect(links(out.urdf)).toEqual(['A01_mixed']);
  });

  it('rosbot-ns-include: a namespaced include (ns="body", as Husarion\'s ROSbot writes all its parts): ns.macro, ${ns.prop}, the file\'s own names inside it, nested namespaces', async () => {
    // xacro-parser refuses ns="..." ("xacro:include name spaces not supported")
    const files = {
      '/ws/src/pkg/urdf/body.xacro': `<robot ${NS}>
        <!-- <xacro:property name="commented" value="x"/> -->
        <xacro:property name="size" value="0.2"/>
        <xacro:property name="half" value="\${size / 2}"/>
        <xacro:macro name="inner" params="n"><link name="inner_\${n}_\${half}"/></xacro:macro>
        <xacro:macro name="body" params="size:=9 tag">
          <xacro:include filename="$(find pkg)/urdf/sensor.xacro" ns="sensor"/>
          <xacro:property name="local" value="\${size * 2}"/>
          <link name="body_\${size}_\${local}_\${half}_\${tag}"/>
          <xacro:inner n="\${tag}"/>
          <xacro:sensor.range at="\${tag}"/>
        </xacro:macro>
      </robot>`,
      '/ws/src/pkg/urdf/sensor.xacro': `<robot ${NS}><xacro:property name="kind" value="tof"/>
        <xacro:macro name="range" params="at"><link name="\${kind}_\${at}"/></xacro:macro></robot>`,
    };
    const out = await expand(`<robot name="r" ${NS}>
      <xacro:property name="size" value="outer"/>
      <xacro:include filename="$(find pkg)/urdf/body.xacro" ns="husarion"/>
      <xacro:husarion.body size="1" tag="a"/>
      <link name="l_\${husarion.half * 10}_\${size}"/>
    </robot>`, files);
    // the macro's parameter "size" hides the file's own property; "half" is the file's (0.1); the
    // includer's "size" is untouched by the included file's top-level "size"
    expect(links(out.urdf)).toEqual(['body_1_2_0.1_a', 'inner_a_0.1', 'tof_a', 'l_1_outer']);
    expect(out.warnings).toEqual([]);
    // the file's own macros are not reachable unqualified from outside
    await expect(expand(`<robot name="r" ${NS}><xacro:include filename="body.xacro" ns="n"/><xacro:inner n="x"/></robot>`, files)).rejects.toThrow(/Cannot find macro "inner"/);
  });

  it('namespaceFile rewrites only what the file defines, and nothing in a quoted string or under another name', () => {
    const out = namespaceFile(`<robot ${NS}><xacro:property name="p" value="1"/><xacro:macro name="m" params="q"><a v="\${p + q} \${'p'} \${x.p} \${pp}"/><xacro:m q="1"/><xacro:other/></xacro:macro></robot>`, 'N');
    expect(out).toContain('<xacro:property name="N.p" value="1"/>');
    expect(out).toContain('<xacro:macro name="N.m" params="q">');
    expect(out).toContain(`<a v="\${N.p + q} \${'p'} \${x.p} \${pp}"/>`);
    expect(out).toContain('<xacro:N.m q="1"/><xacro:other/></xacro:macro>');
  });

  it('Python string methods with arguments (${parent_link.rstrip(\'_link\')} in Husarion\'s sensor macros), with Python\'s meaning', async () => {
    const out = await expand(`<robot name="r" ${NS}><xacro:property name="p" value="cover_link"/>
      <link name="\${p.rstrip('_link')}"/><link name="\${'base_link'.rstrip('_link')}"/><link name="\${p.replace('cover', 'top')}"/>
      <link name="\${'xxaxx'.strip('x')}_\${'yyb'.lstrip('y')}"/>
      <xacro:if value="\${p.endswith('_link')}"><link name="ends"/></xacro:if><xacro:if value="\${p.startswith('link')}"><link name="starts"/></xacro:if></robot>`);
    // rstrip removes a set of characters, not a suffix: 'base_link' → 'base'
    expect(links(out.urdf)).toEqual(['cover', 'base', 'top_link', 'a_b', 'ends']);
  });

  it('$(find pkg) of a sibling package of the workspace (a folder with a package.xml beside an ancestor), or a package in a folder named otherwise', async () => {
    const files = {
      '/ws/src/other_pkg/package.xml': '<package><name>other_pkg</name></package>',
      '/ws/src/other_pkg/urdf/s.xacro': `<robot ${NS}><xacro:macro name="s"><link name="sibling"/></xacro:macro></robot>`,
      '/ws/src/pkg/package.xml': '<package><name>renamed_pkg</name></package>',
      '/ws/src/pkg/urdf/own.xacro': `<robot ${NS}><link name="own"/></robot>`,
    };
    const out = await expand(`<robot name="r" ${NS}><xacro:include filename="$(find other_pkg)/urdf/s.xacro"/><xacro:s/>
      <xacro:include filename="$(find renamed_pkg)/urdf/own.xacro"/></robot>`, files);
    expect(out.warnings).toEqual([]);
    expect(links(out.urdf)).toEqual(['sibling', 'own']);
    // a package.xml that names another package does not make its folder that package
    const decoy = await expand(`<robot name="r" ${NS}><xacro:include filename="$(find decoy)/urdf/d.xacro"/><link name="a"/></robot>`, {
      '/ws/src/decoy/package.xml': '<package><name>not_decoy</name></package>',
      '/ws/src/decoy/urdf/d.xacro': `<robot ${NS}><link name="decoy"/></robot>`,
    });
    expect(links(decoy.urdf)).toEqual(['a']);
    expect(decoy.warnings.join('\n')).toMatch(/package "decoy" not found/);
  });

  it('a macro of an include that could not be read: the error names the skipped file and the missing package', async () => {
    await expect(expand(`<robot name="r" ${NS}><xacro:include filename="$(find sensors_pkg)/urdf/l.xacro" ns="lidar"/><xacro:lidar.l/></robot>`))
      .rejects.toThrow(/Cannot find macro "lidar.l".*skipped includes that may define it: "\/ws\/src\/pkg\/urdf\/urdf\/l.xacro" \(package "sensors_pkg" not found/);
  });

  it('a failure is a UrdfError naming the file', async () => {
    await expect(expand(`<robot name="r" ${NS}><xacro:nosuchmacro/></robot>`)).rejects.toThrow(UrdfError);
    await expect(expand(`<robot name="r" ${NS}><xacro:nosuchmacro/></robot>`)).rejects.toThrow(/\/ws\/src\/pkg\/urdf\/main.xacro: xacro expansion failed: .*nosuchmacro/);
  });
});

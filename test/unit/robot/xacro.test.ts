/**
 * xacro inside TerraWheel (issue #27): properties, math, macros with blocks, conditionals,
 * includes by $(find pkg) and package://, $(arg) with defaults and given values, pass-through
 * parameters; comments trigger nothing; a failure names the file.
 */
import { describe, expect, it } from 'vitest';
import { expandXacro, isXacro } from '../../../sim/robot/urdf/xacro';
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
    expect(out.warnings).toEqual(['xacro: included file "/ws/src/pkg/urdf/urdf/x.xacro" cannot be read; skipped (its macros and properties are missing)']);
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

  it('a failure is a UrdfError naming the file', async () => {
    await expect(expand(`<robot name="r" ${NS}><xacro:nosuchmacro/></robot>`)).rejects.toThrow(UrdfError);
    await expect(expand(`<robot name="r" ${NS}><xacro:nosuchmacro/></robot>`)).rejects.toThrow(/\/ws\/src\/pkg\/urdf\/main.xacro: xacro expansion failed: .*nosuchmacro/);
  });
});

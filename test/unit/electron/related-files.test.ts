/**
 * referencedFileNames over untrusted URDF text (issue #28): the <mesh filename="..."> scan is
 * linear in the input. The old backtracking regex took 14 s on 512 KiB of "<mesh " (every
 * "<mesh" scanned to the end of the text looking for a filename); the scanner counts the
 * characters it examines, and the count grows in proportion to the input.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../sim/math/random';
import { meshFileNames, referencedFileNames } from '../../../electron/related-files';

const enc = (s: string) => new TextEncoder().encode(s);

/** The regex main used before issue #28: the reference semantics of meshFileNames. */
function regexNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/<mesh\b[^>]*?\bfilename\s*=\s*(["'])([^"']*)\1/g)) out.push(m[2]);
  return out;
}

function steps(text: string): number {
  const counter = { steps: 0 };
  meshFileNames(text, 1024, counter);
  return counter.steps;
}

describe('referencedFileNames: linear-time <mesh> scan (issue #28: 512 KiB of "<mesh " took 14 s)', () => {
  it('examines a number of characters proportional to the input on adversarial text', () => {
    for (const unit of ['<mesh ', '<mesh filename=', '<mesh filename="', '<mesh filename=" \'', '<mesh\tfilename = ', '<mesh filenamefilename']) {
      const small = unit.repeat(Math.ceil((64 * 1024) / unit.length));
      const big = unit.repeat(Math.ceil((512 * 1024) / unit.length));
      const a = steps(small);
      const b = steps(big);
      expect(a, unit).toBeGreaterThan(0);
      // 8x the input: at most 8x the work (plus rounding), and at most a few looks per character.
      expect(b / a, unit).toBeLessThan(8.2);
      expect(b / big.length, unit).toBeLessThan(4);
    }
  });

  it('the 512 KiB reproducer names nothing and returns', () => {
    expect(referencedFileNames('r.urdf', enc('<mesh '.repeat((512 * 1024) / 6)))).toEqual([]);
  });

  it('finds exactly what the old regex found (seeded random texts over the grammar\'s pieces)', () => {
    const rng = new Rng(0x28);
    const pieces = ['<mesh', '<meshes', ' ', '\n', '\t', 'filename', 'xfilename', '=', '"', "'", 'a.stl', '>', '/>', '<', 'b', '.', '_', '\u00a0'];
    for (let n = 0; n < 3000; n++) {
      let s = '';
      const len = rng.int(1, 40);
      for (let k = 0; k < len; k++) s += pieces[rng.int(0, pieces.length - 1)];
      expect(meshFileNames(s, 1024), JSON.stringify(s)).toEqual(regexNames(s));
    }
  });

  it('a value closed by the other quote: the next candidate inside it still counts, as with the regex', () => {
    for (const s of [`<mesh filename="filename='x' >`, `<mesh filename='a"filename="b">`, `<mesh filename="a' filename="b"/>`]) {
      expect(meshFileNames(s, 9), s).toEqual(regexNames(s));
    }
  });

  it('keeps plain and ./ names, drops paths and dotfiles, caps the count', () => {
    const urdf = `<robot><mesh filename="a.stl"/><mesh scale="1 1 1" filename='./b.obj'/><mesh filename="../c.stl"/><mesh filename=".d.stl"/></robot>`;
    expect(referencedFileNames('r.urdf', enc(urdf))).toEqual(['a.stl', 'b.obj']);
    expect(referencedFileNames('r.urdf', enc('<mesh filename="a.stl"/>'.repeat(2000)))).toHaveLength(1024);
  });
});

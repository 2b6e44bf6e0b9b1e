/**
 * Seeded mutations of XML text (URDF and xacro), shared by the URDF and xacro fuzzers: byte flips,
 * swapped attribute values, deleted and duplicated elements, bad numbers, truncation, stray markup.
 */
import type { Rng } from '../../sim/math/random';

export const BAD_NUMBERS = ['NaN', '-1', '0', '-0', '1e308', '1e-320', '1e-300', '1e-7', '1e20', 'Infinity', 'abc', '', '1 2', '99999999', '0x1F', '.', '-'];
export const JUNK = ['<', '>', '&', '"', "'", '</robot>', '<link name="x">', '<joint>', '<!--', ']]>', '<?x?>', '&amp;', '&foo;', '&#65;', '\u0000', '\uFFFF'];

export function pick<T>(rng: Rng, a: readonly T[]): T {
  return a[rng.int(0, a.length - 1)];
}

export function mutateXml(text: string, rng: Rng): string {
  const kind = rng.int(0, 6);
  switch (kind) {
    case 0: {
      // byte flips (on UTF-16 code units of ASCII text: same thing here)
      const chars = text.split('');
      const flips = rng.int(1, 4);
      for (let k = 0; k < flips; k++) {
        const i = rng.int(0, chars.length - 1);
        chars[i] = String.fromCharCode(chars[i].charCodeAt(0) ^ (1 << rng.int(0, 6)));
      }
      return chars.join('');
    }
    case 1: {
      // swap two attribute values
      const re = /="([^"]*)"/g;
      const spans: [number, number][] = [];
      for (let m = re.exec(text); m; m = re.exec(text)) spans.push([m.index + 2, m.index + 2 + m[1].length]);
      if (spans.length < 2) return text;
      let [a, b] = [pick(rng, spans), pick(rng, spans)];
      if (a[0] > b[0]) [a, b] = [b, a];
      if (a[0] === b[0]) return text;
      return text.slice(0, a[0]) + text.slice(b[0], b[1]) + text.slice(a[1], b[0]) + text.slice(a[0], a[1]) + text.slice(b[1]);
    }
    case 2:
    case 3: {
      // delete (2) or duplicate (3) one element
      const starts: number[] = [];
      for (let i = text.indexOf('<'); i >= 0; i = text.indexOf('<', i + 1)) if (/[a-z]/i.test(text[i + 1] ?? '')) starts.push(i);
      if (starts.length === 0) return text;
      const s = pick(rng, starts);
      const tag = /^<([\w:]+)/.exec(text.slice(s))?.[1] ?? '';
      const close = text.indexOf('>', s);
      let e = close + 1;
      if (text[close - 1] !== '/') {
        const c = text.indexOf(`</${tag}>`, s);
        e = c < 0 ? close + 1 : c + tag.length + 3;
      }
      return kind === 2 ? text.slice(0, s) + text.slice(e) : text.slice(0, e) + text.slice(s, e) + text.slice(e);
    }
    case 4: {
      // replace one number with a bad one
      const re = /-?\d+(\.\d+)?(e-?\d+)?/g;
      const spans: [number, number][] = [];
      for (let m = re.exec(text); m; m = re.exec(text)) spans.push([m.index, m.index + m[0].length]);
      if (spans.length === 0) return text;
      const [a, b] = pick(rng, spans);
      return text.slice(0, a) + pick(rng, BAD_NUMBERS) + text.slice(b);
    }
    case 5:
      return text.slice(0, rng.int(0, text.length));
    default: {
      const i = rng.int(0, text.length);
      return text.slice(0, i) + pick(rng, JUNK) + text.slice(i);
    }
  }
}


/**
 * The `disable_collisions` pairs of an SRDF file (MoveIt's semantic robot description, next to a
 * URDF): `<disable_collisions link1="a" link2="b" reason="Adjacent"/>`. Everything else in the
 * file (groups, poses, end effectors) has no meaning for the simulation and is not read.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { UrdfError } from './urdf-error';

/** Largest SRDF accepted (characters). */
const SRDF_MAX_CHARS = 16 * 1024 * 1024;

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'disable_collisions' });

/** The link pairs, in file order; throws UrdfError naming what is wrong. */
export function parseSrdfDisabledPairs(text: string, file = 'the SRDF'): [string, string][] {
  if (text.length > SRDF_MAX_CHARS) throw new UrdfError(`${file}: ${text.length} characters; at most ${SRDF_MAX_CHARS}`, file);
  if (/<!ENTITY/i.test(text)) throw new UrdfError(`${file}: declares XML entities (<!ENTITY>); remove the DOCTYPE`, file);
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new UrdfError(`${file}: malformed XML at line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg}`, file);
  const doc = parser.parse(text) as { robot?: { disable_collisions?: { link1?: unknown; link2?: unknown }[] } };
  const out: [string, string][] = [];
  (doc.robot?.disable_collisions ?? []).forEach((d, k) => {
    if (typeof d.link1 !== 'string' || typeof d.link2 !== 'string') throw new UrdfError(`${file}: <disable_collisions> #${k + 1} needs link1="..." and link2="..."`, file);
    out.push([d.link1, d.link2]);
  });
  return out;
}

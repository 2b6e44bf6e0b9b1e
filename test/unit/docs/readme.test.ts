/**
 * The README is the front door (issue #26): short, with the two commands CI and users run, and
 * every link from it and from docs/*.md leads somewhere (a file that exists, a heading that exists).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..', '..', '..');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
export function headingSlug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown page: its headings' slugs (outside code blocks). */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = /^#{1,6} (.*)$/.exec(line);
    if (!fenced && m) anchors.add(headingSlug(m[1]));
  }
  return anchors;
}

/** Relative Markdown links `[text](target)` of a page, outside code blocks and inline code. */
export function relativeLinks(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const links: string[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (!/^[a-z]+:/i.test(m[1])) links.push(m[1]);
  }
  return links;
}

function brokenLinks(page: string): string[] {
  const broken: string[] = [];
  for (const link of relativeLinks(readFileSync(join(root, page), 'utf8'))) {
    const [path, anchor] = link.split('#');
    const target = path === '' ? join(root, page) : resolve(dirname(join(root, page)), path);
    if (!existsSync(target)) broken.push(`${page}: ${link} (no file)`);
    else if (anchor && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) {
      broken.push(`${page}: ${link} (no heading #${anchor})`);
    }
  }
  return broken;
}

describe('README', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');

  it('is under 250 lines and starts with the two commands', () => {
    expect(readme.split('\n').length).toBeLessThan(250);
    const block = readme.slice(readme.indexOf('```sh'), readme.indexOf('```', readme.indexOf('```sh') + 5));
    expect(block).toContain('npm install && npm start');
    expect(block).toMatch(/^npm test\b/m);
  });

  it('shows the committed screenshot and cites the paper', () => {
    expect(readme).toContain('](docs/images/terrawheel.png)');
    expect(existsSync(join(root, 'docs/images/terrawheel.png'))).toBe(true);
    expect(readme).toContain('Collision detection algorithms of bounding cylinders with');
  });

  it('tours every bundled scenario', () => {
    for (const f of readdirSync(join(root, 'assets/scenarios')).filter((n) => n.endsWith('.json'))) {
      expect(readme, f).toContain('`' + f.replace(/\.json$/, '') + '`');
    }
  });
});

describe('links in README.md and docs/*.md', () => {
  it.each(pages)('%s: every relative link leads to a file and heading that exist', (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  it('the checker sees a broken file link and a broken anchor', () => {
    expect(relativeLinks('see [a](docs/nope.md) and [b](#x) and `[c](skip.md)` and [d](https://x.org)')).toEqual(['docs/nope.md', '#x']);
    expect(anchorsOf('# Design notes\n## Dynamics (`sim/dynamics/`)\n```\n# not a heading\n```')).toEqual(
      new Set(['design-notes', 'dynamics-simdynamics']),
    );
    expect(headingSlug('Swept queries (`npm run bench -- ccd`)')).toBe('swept-queries-npm-run-bench----ccd');
  });
});

import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import type { MenuCommand, Settings } from '../../../electron/ipc-contract';
import { MAX_RECENT_LABEL, buildMenuTemplate, recentLabel, type MenuOptions } from '../../../electron/menu';

function build(over: Partial<MenuOptions> = {}) {
  const sent: MenuCommand[] = [];
  const calls: string[] = [];
  const template = buildMenuTemplate(
    { platform: 'linux', isDev: false, appName: 'TerraWheel', recentFiles: [], ...over },
    { send: (c) => sent.push(c), clearRecent: () => calls.push('clear'), about: () => calls.push('about') },
  );
  return { template, sent, calls };
}

function submenu(item: MenuItemConstructorOptions | undefined): MenuItemConstructorOptions[] {
  expect(Array.isArray(item?.submenu)).toBe(true);
  return item?.submenu as MenuItemConstructorOptions[];
}

function find(items: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions {
  const item = items.find((i) => i.label === label);
  if (item === undefined) throw new Error(`no menu item '${label}' in [${items.map((i) => i.label ?? i.role ?? i.type).join(', ')}]`);
  return item;
}

function click(item: MenuItemConstructorOptions): void {
  (item.click as unknown as () => void)();
}

const recent: Settings['recentFiles'] = [
  { kind: 'terrain', name: 'hills.json', path: '/m/hills.json' },
  { kind: 'recording', name: 'run.twrec', path: '/r/run.twrec' },
];

describe('buildMenuTemplate', () => {
  it('has File, View, Help on Linux/Windows, with the file items in order', () => {
    const { template } = build();
    expect(template.map((m) => m.label ?? m.role)).toEqual(['File', 'View', 'help']);
    const file = submenu(template[0]);
    expect(file.map((i) => i.label ?? i.role ?? i.type)).toEqual([
      'Open Terrain…',
      'Open Robot…',
      'Open Scenario…',
      'Open Recording…',
      'Open Recent',
      'separator',
      'Save Recording As…',
      'separator',
      'quit',
    ]);
  });

  it('open and save items send the matching MenuCommand', () => {
    const { template, sent } = build();
    const file = submenu(template[0]);
    for (const label of ['Open Terrain…', 'Open Robot…', 'Open Scenario…', 'Open Recording…', 'Save Recording As…']) click(find(file, label));
    expect(sent).toEqual([
      { type: 'open', kind: 'terrain' },
      { type: 'open', kind: 'robot' },
      { type: 'open', kind: 'scenario' },
      { type: 'open', kind: 'recording' },
      { type: 'save-recording-as' },
    ]);
  });

  it('Open Recent is a disabled placeholder when empty', () => {
    const { template } = build();
    const rec = submenu(find(submenu(template[0]), 'Open Recent'));
    expect(rec).toEqual([{ label: 'No Recent Files', enabled: false }]);
  });

  it('Open Recent lists entries that send their index, plus Clear Recent', () => {
    const { template, sent, calls } = build({ recentFiles: recent });
    const rec = submenu(find(submenu(template[0]), 'Open Recent'));
    expect(rec.map((i) => i.label ?? i.type)).toEqual(['hills.json (terrain)', 'run.twrec (recording)', 'separator', 'Clear Recent']);
    click(rec[1]);
    click(rec[0]);
    click(rec[3]);
    expect(sent).toEqual([
      { type: 'open-recent', index: 1 },
      { type: 'open-recent', index: 0 },
    ]);
    expect(calls).toEqual(['clear']);
  });

  it('Reload and Developer Tools exist only in dev builds', () => {
    const roles = (isDev: boolean) => submenu(build({ isDev }).template[1]).map((i) => i.role ?? i.type);
    expect(roles(false)).toEqual(['togglefullscreen', 'separator', undefined]);
    expect(roles(true)).toEqual(['reload', 'toggleDevTools', 'separator', 'togglefullscreen', 'separator', undefined]);
  });

  it('View ▸ Live Link sends the live-link command (the renderer starts or stops it)', () => {
    const { template, sent } = build();
    const item = submenu(template[1]).find((i) => typeof i.label === 'string' && i.label.startsWith('Live Link'))!;
    expect(item.label).toContain('ws://127.0.0.1:8765');
    (item.click as unknown as () => void)();
    expect(sent).toEqual([{ type: 'live-link' }]);
  });

  it('Help ▸ About calls about()', () => {
    const { template, calls } = build();
    click(find(submenu(template[2]), 'About TerraWheel'));
    expect(calls).toEqual(['about']);
  });

  it('macOS gets the app menu first and Close instead of Quit in File', () => {
    const { template } = build({ platform: 'darwin' });
    expect(template.map((m) => m.label ?? m.role)).toEqual(['TerraWheel', 'File', 'View', 'help']);
    expect(submenu(template[0]).some((i) => i.role === 'quit')).toBe(true);
    const file = submenu(template[1]);
    expect(file[file.length - 1].role).toBe('close');
  });

  it('no accelerator is a bare key (WASD and arrows belong to the driving controls)', () => {
    const { template } = build({ recentFiles: recent, isDev: true });
    const all: MenuItemConstructorOptions[] = [];
    const walk = (items: MenuItemConstructorOptions[]) => {
      for (const i of items) {
        all.push(i);
        if (Array.isArray(i.submenu)) walk(i.submenu as MenuItemConstructorOptions[]);
      }
    };
    walk(template);
    const accels = all.map((i) => i.accelerator).filter((a): a is string => typeof a === 'string');
    expect(accels.length).toBeGreaterThan(0);
    for (const a of accels) expect(a).toMatch(/^CmdOrCtrl\+/);
  });
});

describe('recentLabel', () => {
  it('escapes & and shortens long names in the middle', () => {
    expect(recentLabel({ kind: 'robot', name: 'R&D.urdf', path: '/x' })).toBe('R&&D.urdf (robot)');
    const long = `${'a'.repeat(100)}.json`;
    const label = recentLabel({ kind: 'scenario', name: long, path: '/x' });
    const shown = label.slice(0, label.lastIndexOf(' ('));
    expect(shown.length).toBeLessThanOrEqual(MAX_RECENT_LABEL);
    expect(shown.endsWith('.json')).toBe(true);
    expect(shown).toContain('…');
  });
});

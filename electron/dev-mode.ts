/**
 * Whether this run is a development run (DevTools, the developer menu). Only an unpackaged app is:
 * a packaged build ignores every command-line switch (--dev, --inspect, …; the Electron fuses in
 * electron-builder.yml also turn off Node's own inspector switches and NODE_OPTIONS), so a user
 * or a script that can start the installed app cannot open a console inside its renderer.
 */
export function devToolsAllowed(isPackaged: boolean): boolean {
  return !isPackaged;
}

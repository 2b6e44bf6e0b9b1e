// Types of bundle-cache.mjs (plain JavaScript: bin/terrawheel.mjs loads it before any TypeScript loader).

/** A bundle's recipe (see findOrBuildBundle in bundle-cache.mjs). */
export interface BundleSpec {
  /** The cache subfolder: `<cache>/<name>/<key>/`. */
  name: string;
  /** Bumped when the recipe changes: part of the key. */
  format: number;
  /** Output name (without .mjs) to source path relative to the repository root. */
  entries: Record<string, string>;
  /** The output name whose URL is returned. */
  main: string;
  /** Package names left external (the others are bundled). */
  external?: string[];
  /** Leave every package external but those in `bundled`. */
  packagesExternal?: boolean;
  bundled?: string[];
  /** Dynamic imports as chunks of their own (loaded when run). */
  splitting?: boolean;
  /** The repository (default: this one). */
  root?: string;
  /** The cache root (default: bundleCacheRoot()). */
  cacheDir?: string;
}

export const REPO_ROOT: string;
export function bundleCacheRoot(): string;
export function bundleSourceFiles(root?: string): string[];
export function bundleKey(format: number, esbuildVersion: string, root?: string): string;
export function bundleSourceStamp(format: number, esbuildVersion: string, root?: string): string;
export function esbuildVersion(): string;
export function findOrBuildBundle(spec: BundleSpec): Promise<string>;
/** Bundles of one name kept in the cache after a build (the new one and the newest others). */
export const KEPT_BUNDLES: number;
export const CLI_BUNDLE: BundleSpec;
export function cliBundle(opts?: Partial<BundleSpec>): Promise<string>;

/**
 * Whether a file needs xacro expansion, without loading the expander (parseUrdf runs in the
 * renderer too, which should not carry xacro-parser for this test). Comments are removed first:
 * a commented-out `<!-- <xacro:include .../> -->` is not xacro.
 */

/** Strips XML comments (`<!-- ... -->`), so nothing inside one is seen. */
export function stripXmlComments(text: string): string {
  return text.replace(/<!--[\s\S]*?-->/g, '');
}

/** True when the text (outside comments) uses xacro: a `xacro:` element or a `${...}` / `$(...)` substitution. */
export function isXacro(text: string): boolean {
  const t = stripXmlComments(text);
  return /<xacro:[A-Za-z_]/.test(t) || /\$\{[^}]*\}/.test(t) || /\$\([a-z]+[\s)]/.test(t);
}

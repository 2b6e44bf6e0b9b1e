/**
 * Which exports of a module have no doc comment: the check behind the API reference (`npm run docs`
 * renders the doc comments of `sim/index.ts` with TypeDoc; an export without one is a blank entry).
 *
 * Uses the TypeScript compiler API rather than TypeDoc's `validation.notDocumented`: TypeDoc counts
 * every method of an exported class as its own symbol, while this checks what the entry point
 * exports. An export is documented when its declaration (a function, class, interface, type alias,
 * variable or enum) carries a `/** … *\/` comment with text, or, for a re-exported namespace
 * (`export * as constants from …`), when the export statement does. Where a name has two meanings
 * (`export const EpaStatus = { … }` beside `export type EpaStatus = …`), a comment on either counts.
 */
import ts from 'typescript';

/** One export without a doc comment: its name and the file that declares it. */
export interface UndocumentedExport {
  name: string;
  file: string;
}

/** The compiler options the check uses: the project's `tsconfig.json`, read from `projectDir`. */
export function projectCompilerOptions(projectDir: string): ts.CompilerOptions {
  const configPath = ts.findConfigFile(projectDir, ts.sys.fileExists, 'tsconfig.json');
  if (!configPath) throw new Error(`no tsconfig.json in ${projectDir}`);
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, projectDir);
  return { ...parsed.options, noEmit: true };
}

function hasDocText(node: ts.Node): boolean {
  for (const doc of ts.getJSDocCommentsAndTags(node)) {
    if (ts.isJSDoc(doc)) {
      const text = typeof doc.comment === 'string' ? doc.comment : ts.getTextOfJSDocComment(doc.comment);
      if (text && text.trim() !== '') return true;
    }
  }
  return false;
}

/** The node a doc comment of `decl` sits on (a variable's comment is on its statement). */
function commentHost(decl: ts.Declaration): ts.Node {
  if (ts.isVariableDeclaration(decl) && ts.isVariableDeclarationList(decl.parent)) return decl.parent.parent;
  return decl;
}

/**
 * Every export of `entryFile` whose declarations carry no doc comment, sorted by name.
 * `options` default to the compiler options of the `tsconfig.json` nearest the entry file.
 */
export function undocumentedExports(entryFile: string, options?: ts.CompilerOptions): UndocumentedExport[] {
  const opts = options ?? projectCompilerOptions(ts.sys.resolvePath(entryFile + '/..'));
  const program = ts.createProgram([entryFile], opts);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entryFile);
  if (!source) throw new Error(`cannot read ${entryFile}`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) return [];
  const missing: UndocumentedExport[] = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const aliasDecls = exported.declarations ?? [];
    // `export * as ns from …` (and a documented `export { x }` statement for a namespace)
    if (aliasDecls.some((d) => ts.isNamespaceExport(d) && hasDocText(d.parent))) continue;
    const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const decls = (target.declarations ?? []).filter((d) => !ts.isSourceFile(d));
    if (decls.some((d) => hasDocText(commentHost(d)))) continue;
    const file = (decls[0] ?? aliasDecls[0])?.getSourceFile().fileName ?? entryFile;
    missing.push({ name: exported.getName(), file });
  }
  return missing.sort((a, b) => a.name.localeCompare(b.name));
}

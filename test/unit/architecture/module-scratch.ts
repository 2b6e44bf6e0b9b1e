/**
 * The module-scratch checker: finds module-level mutable state in a TypeScript source, the kind
 * that lets one call's scratch or result leak into another (two worlds, two worker queries, a
 * re-entrant call). `sim/collision` and `sim/dynamics` keep their scratch in workspaces owned by
 * the caller (a world, a query context); test/unit/architecture/module-scratch.test.ts runs this over
 * every file there.
 *
 * Rules, for every top-level statement of a module (exported or not):
 *   1. `let` or `var` at module scope: a finding (a mutable binding).
 *   2. `const X = …` whose initializer can hold mutable state: a finding when it is
 *        - a `new` expression (a typed array, a class instance: scratch or a shared result),
 *        - a call (`vec3()`, `quat()`, a factory) other than `Object.freeze(…)` and `Math.*(…)`,
 *        - an array or object literal, unless it is an immutable table (below).
 *   3. A class's `static` property initialised with any of the above, unless `readonly` and
 *      allowed by rule 4: a finding (module-level state in a class's clothing).
 * Immutable tables are allowed:
 *   4. automatically: `Object.freeze(…)`; primitive literals; functions; and array or object
 *      literals typed read-only (`as const`, or an annotation `readonly T[]` / `Readonly<…>`)
 *      whose leaves are all literals or names (enum-like tables: `{ Ok: 0, Overflow: 1 } as const`,
 *      `[EDGE_BOTTOM, EDGE_LEFT] as const`) — TypeScript rejects a write to them;
 *   5. explicitly: a declaration whose doc comment carries the tag `@immutable` followed by a
 *      reason (e.g. a typed-array lookup table, which Object.freeze cannot freeze). The reason
 *      is required; the tag is the reviewable allowlist: grep `@immutable` to see all of them.
 */
import ts from 'typescript';

export interface ScratchFinding {
  file: string;
  line: number;
  name: string;
  rule: string;
}

/** The findings in `source` (a module's text); `file` only labels them. */
export function findModuleScratch(source: string, file: string): ScratchFinding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: ScratchFinding[] = [];
  const at = (node: ts.Node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st)) {
      const flags = st.declarationList.flags;
      const isConst = (flags & ts.NodeFlags.Const) !== 0;
      const allowTag = immutableTag(st, sf);
      for (const d of st.declarationList.declarations) {
        const name = d.name.getText(sf);
        if (!isConst) {
          out.push({ file, line: at(d), name, rule: 'let/var at module scope' });
          continue;
        }
        if (allowTag) continue;
        const why = mutableInitializer(d.initializer, d.type);
        if (why !== null) out.push({ file, line: at(d), name, rule: why });
      }
    } else if (ts.isClassDeclaration(st)) {
      for (const m of st.members) {
        if (!ts.isPropertyDeclaration(m)) continue;
        const mods = ts.getModifiers(m) ?? [];
        if (!mods.some((x) => x.kind === ts.SyntaxKind.StaticKeyword)) continue;
        if (immutableTag(m, sf)) continue;
        const readonly = mods.some((x) => x.kind === ts.SyntaxKind.ReadonlyKeyword);
        const why = mutableInitializer(m.initializer, m.type);
        const name = `${st.name?.text ?? '(class)'}.${m.name.getText(sf)}`;
        if (why !== null) out.push({ file, line: at(m), name, rule: `static ${why}` });
        else if (!readonly) out.push({ file, line: at(m), name, rule: 'static non-readonly property' });
      }
    }
  }
  return out;
}

/** True when the node's doc comment has `@immutable <reason>` (a reason is required). */
function immutableTag(node: ts.Node, sf: ts.SourceFile): boolean {
  const text = sf.getFullText().slice(node.getFullStart(), node.getStart(sf));
  return /@immutable[ \t]+[A-Za-z]/.test(text);
}

function unwrap(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e) || ts.isSatisfiesExpression(e)) e = e.expression;
  return e;
}

function isPrimitive(e: ts.Expression): boolean {
  e = unwrap(e);
  if (ts.isPrefixUnaryExpression(e)) return isPrimitive(e.operand);
  return ts.isNumericLiteral(e) || ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) || ts.isBigIntLiteral(e)
    || e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword || e.kind === ts.SyntaxKind.NullKeyword;
}

/** Leaves of a read-only table: literals, names (other constants), property reads (enum members), nested tables. */
function isTableLeaf(e: ts.Expression): boolean {
  e = unwrap(e);
  if (ts.isAsExpression(e)) return isTableLeaf(e.expression);
  if (isPrimitive(e) || ts.isIdentifier(e) || ts.isPropertyAccessExpression(e)) return true;
  if (ts.isBinaryExpression(e)) return isTableLeaf(e.left) && isTableLeaf(e.right); // e.g. 1 << 3
  if (ts.isArrayLiteralExpression(e)) return e.elements.every((x) => isTableLeaf(x));
  if (ts.isObjectLiteralExpression(e)) {
    return e.properties.every((p) => ts.isPropertyAssignment(p) && isTableLeaf(p.initializer));
  }
  return false;
}

function isReadonlyType(t: ts.TypeNode | undefined): boolean {
  if (t === undefined) return false;
  if (ts.isTypeOperatorNode(t) && t.operator === ts.SyntaxKind.ReadonlyKeyword) return true;
  if (ts.isTypeReferenceNode(t)) {
    const n = t.typeName.getText();
    return n === 'Readonly' || n === 'ReadonlyArray';
  }
  return false;
}

/** Why this initializer can hold mutable state, or null when it cannot. */
function mutableInitializer(init: ts.Expression | undefined, type: ts.TypeNode | undefined): string | null {
  if (init === undefined) return null;
  let e = unwrap(init);
  let asConst = false;
  while (ts.isAsExpression(e) || ts.isTypeAssertionExpression(e)) {
    if (ts.isAsExpression(e) && ts.isTypeReferenceNode(e.type) && e.type.typeName.getText() === 'const') asConst = true;
    e = unwrap(e.expression);
  }
  if (isPrimitive(e) || ts.isArrowFunction(e) || ts.isFunctionExpression(e) || ts.isIdentifier(e) || ts.isPropertyAccessExpression(e)
    || ts.isTemplateExpression(e) || ts.isRegularExpressionLiteral(e) || ts.isBinaryExpression(e) || ts.isPrefixUnaryExpression(e)
    || ts.isConditionalExpression(e) || ts.isClassExpression(e)) return null;
  if (ts.isNewExpression(e)) return `module-level instance (new ${e.expression.getText()})`;
  if (ts.isCallExpression(e)) {
    const callee = e.expression.getText();
    if (callee === 'Object.freeze' || callee.startsWith('Math.')) return null; // frozen, or a number
    return `module-level call result (${callee}(…))`;
  }
  if (ts.isArrayLiteralExpression(e) || ts.isObjectLiteralExpression(e)) {
    const kind = ts.isArrayLiteralExpression(e) ? 'array' : 'object';
    if ((asConst || isReadonlyType(type)) && isTableLeaf(e)) return null;
    return `mutable ${kind} literal (freeze it, type it read-only with literal leaves, or tag @immutable)`;
  }
  return `initializer of kind ${ts.SyntaxKind[e.kind]}`;
}

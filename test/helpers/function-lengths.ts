import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getTokenPosOfNode, type Node, type SourceFile, SyntaxKind } from 'typescript/unstable/ast';
import { API } from 'typescript/unstable/sync';

/** One function of a file and how many lines its body spans (from its `{`, or its expression, to its end). */
export interface FunctionLength {
  file: string;
  /** Where it is known by: its own name, or the name it is assigned to or passed as. */
  name: string;
  line: number;
  lines: number;
}

const FUNCTIONS = new Set([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
]);

function lineOf(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function nameOf(node: Node): string {
  const own = (node as { name?: { text?: string } }).name?.text;
  if (own) return own;
  const parent = node.parent as { name?: { text?: string } } | undefined;
  return parent?.name?.text ?? '(anonymous)';
}

function lengthsIn(sf: SourceFile, file: string): FunctionLength[] {
  const found: FunctionLength[] = [];
  const visit = (node: Node): undefined => {
    const body = (node as { body?: Node }).body;
    if (FUNCTIONS.has(node.kind) && body) {
      const start = lineOf(sf.text, getTokenPosOfNode(body, sf));
      const end = lineOf(sf.text, body.end);
      found.push({ file, name: nameOf(node), line: lineOf(sf.text, getTokenPosOfNode(node, sf)), lines: end - start + 1 });
    }
    node.forEachChild(visit);
    return undefined;
  };
  sf.forEachChild(visit);
  return found;
}

/**
 * Every function (declarations, expressions, arrows, methods, accessors) of the given TypeScript files, with the
 * lines of its body, read by the TypeScript compiler's own parser (nested functions are counted in their outer
 * function too, and on their own). Files are parsed only: no imports followed, no types checked.
 */
export function functionLengths(files: readonly string[]): FunctionLength[] {
  const dir = mkdtempSync(join(tmpdir(), 'function-lengths-'));
  const config = join(dir, 'tsconfig.json');
  writeFileSync(config, JSON.stringify({ compilerOptions: { noResolve: true, noLib: true, types: [] }, files }));
  const api = new API({ cwd: dir });
  try {
    const program = api.updateSnapshot({ openProject: config }).getProjects()[0]!.program;
    return files.flatMap((file) => {
      const sf = program.getSourceFile(file);
      if (!sf) throw new Error(`not parsed: ${file}`);
      return lengthsIn(sf, file);
    });
  } finally {
    api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

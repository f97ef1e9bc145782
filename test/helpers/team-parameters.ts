import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getTokenPosOfNode, type Node, type SourceFile, SyntaxKind } from 'typescript/unstable/ast';
import { API } from 'typescript/unstable/sync';

/** A parameter with one of the names looked for: where, and of which function (or method, or function type). */
export interface NamedParameter {
  file: string;
  line: number;
  /** The function's own name, or the name it is assigned to, or `(anonymous)`. */
  function: string;
  parameter: string;
}

/** A member (property or method) of an interface or object type alias, by the type's name. */
export interface TypeMember {
  file: string;
  type: string;
  member: string;
}

function lineOf(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

const textOf = (node: Node | undefined): string | undefined => (node as { text?: string } | undefined)?.text;

function ownerName(node: Node): string {
  const own = textOf((node as { name?: Node }).name);
  if (own) return own;
  const parent = node.parent as { name?: Node } | undefined;
  return textOf(parent?.name) ?? '(anonymous)';
}

function inFile(sf: SourceFile, file: string, names: ReadonlySet<string>) {
  const parameters: NamedParameter[] = [];
  const members: TypeMember[] = [];
  const visit = (node: Node): undefined => {
    if (node.kind === SyntaxKind.Parameter) {
      const parameter = textOf((node as { name?: Node }).name);
      if (parameter && names.has(parameter))
        parameters.push({ file, line: lineOf(sf.text, getTokenPosOfNode(node, sf)), function: ownerName(node.parent), parameter });
    }
    if (node.kind === SyntaxKind.InterfaceDeclaration || node.kind === SyntaxKind.TypeAliasDeclaration) {
      const type = textOf((node as { name?: Node }).name) ?? '(anonymous)';
      const own = node.kind === SyntaxKind.InterfaceDeclaration ? node : (node as { type?: Node }).type;
      own?.forEachChild((m) => {
        if (m.kind === SyntaxKind.PropertySignature || m.kind === SyntaxKind.MethodSignature) {
          const member = textOf((m as { name?: Node }).name);
          if (member) members.push({ file, type, member });
        }
        return undefined;
      });
    }
    node.forEachChild(visit);
    return undefined;
  };
  sf.forEachChild(visit);
  return { parameters, members };
}

/**
 * Every parameter named one of `names` in the given TypeScript files (functions, arrows, methods, method and
 * function types alike), and every member of their interfaces and object type aliases, read by the TypeScript
 * compiler's own parser. Files are parsed only: no imports followed, no types checked.
 */
export function parametersAndMembers(files: readonly string[], names: readonly string[]): { parameters: NamedParameter[]; members: TypeMember[] } {
  const dir = mkdtempSync(join(tmpdir(), 'team-parameters-'));
  const config = join(dir, 'tsconfig.json');
  writeFileSync(config, JSON.stringify({ compilerOptions: { noResolve: true, noLib: true, types: [] }, files }));
  const api = new API({ cwd: dir });
  const wanted = new Set(names);
  try {
    const program = api.updateSnapshot({ openProject: config }).getProjects()[0]!.program;
    const found = files.map((file) => {
      const sf = program.getSourceFile(file);
      if (!sf) throw new Error(`not parsed: ${file}`);
      return inFile(sf, file, wanted);
    });
    return { parameters: found.flatMap((f) => f.parameters), members: found.flatMap((f) => f.members) };
  } finally {
    api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

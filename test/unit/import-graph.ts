/** The real import graph of the repository's TypeScript files, for the boundary tests. */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

export const ROOT = resolve(__dirname, "../..");

/** File (relative to the root, `/`-separated) → what it imports: files, or package names. */
export type ImportGraph = Map<string, string[]>;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

const toKey = (path: string): string => relative(ROOT, path).split(sep).join("/");

/** A relative specifier as a file (`./x` → `x.ts` or `x/index.ts`; a dynamic import's `./x.js`
 *  → `x.ts`); a package stays its name. */
function resolveSpecifier(from: string, specifier: string): string {
  if (!specifier.startsWith(".")) return specifier;
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ""));
  const candidates = [base.endsWith(".ts") ? base : `${base}.ts`, join(base, "index.ts")];
  const file = candidates.find((candidate) => existsSync(candidate));
  if (!file) throw new Error(`${toKey(from)}: cannot resolve ${specifier}`);
  return toKey(file);
}

export function importGraph(folders: readonly string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of folders.flatMap((folder) => tsFiles(join(ROOT, folder)))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    graph.set(
      toKey(file),
      importedFiles.map((imported) => resolveSpecifier(file, imported.fileName)),
    );
  }
  return graph;
}

/** Every import cycle among the graph's own files, each as a path that returns to its start. */
export function findCycles(graph: ImportGraph): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (file: string): void => {
    const at = onPath.indexOf(file);
    if (at !== -1) {
      cycles.push([...onPath.slice(at), file]);
      return;
    }
    if (done.has(file)) return;
    onPath.push(file);
    for (const next of graph.get(file) ?? []) if (graph.has(next)) visit(next);
    onPath.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) visit(file);
  return cycles;
}

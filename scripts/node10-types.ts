/**
 * The declarations a project on `moduleResolution: node` (node10, what `pulumi new typescript`
 * writes) reads, through package.json's `types` and `typesVersions`: a copy of the published
 * `.d.ts` files under dist/node10/, where each import of a dependency whose types are CommonJS
 * declarations (`.d.cts`) names that dependency's ESM declarations instead.
 *
 * Why: zod's `.d.cts` files default-import modules declared with `export =`, which only compiles
 * with `esModuleInterop`, and the template's tsconfig does not set it; zod's ESM `.d.ts` files
 * compile without it. node10 ignores `exports`, so `zod/index.js` reaches zod's `index.d.ts`
 * there; node16 and bundler resolution never read these files (they follow `exports` to
 * dist/provider/...), and a deep path would not resolve for them. Run after tsc (`npm run build`).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const ROOT = join(__dirname, "..", "..");
const DIST = join(ROOT, "dist");
export const NODE10_DIR = "node10";

interface Manifest {
  files?: string[];
  dependencies?: Record<string, string>;
  exports?: Record<string, string | Record<string, string | Record<string, string>>>;
}

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Manifest;

/**
 * The folders of dist/ whose declarations the package publishes: each `dist/<folder>/` pattern of
 * package.json `files` that takes `.d.ts` files, but dist/node10 itself (what this script writes).
 */
function publishedFolders(): string[] {
  const folders = (readJson(join(ROOT, "package.json")).files ?? []).flatMap((pattern) => {
    const folder = /^dist\/([^/*]+)\/.*d\.ts/.exec(pattern)?.[1];
    return folder === undefined || folder === NODE10_DIR ? [] : [folder];
  });
  if (folders.length === 0) throw new Error("node10-types: package.json `files` names no declarations under dist/");
  return folders;
}

/**
 * For each `<dependency>` or `<dependency>/<subpath>` that `exports` maps to CommonJS
 * declarations, the specifier of its ESM declarations (`zod` -> `zod/index.js`).
 */
function esmSpecifiers(): Map<string, string> {
  const specifiers = new Map<string, string>();
  for (const name of Object.keys(readJson(join(ROOT, "package.json")).dependencies ?? {})) {
    const dir = join(ROOT, "node_modules", name);
    for (const [subpath, target] of Object.entries(readJson(join(dir, "package.json")).exports ?? {})) {
      if (typeof target !== "object" || subpath.includes("*")) continue;
      const types = target["types"];
      const esm = target["import"];
      if (typeof types !== "string" || !types.endsWith(".d.cts") || typeof esm !== "string") continue;
      if (!existsSync(join(dir, esm.replace(/\.js$/, ".d.ts")))) continue;
      specifiers.set(`${name}${subpath.slice(1)}`, `${name}/${esm.replace(/^\.\//, "")}`);
    }
  }
  return specifiers;
}

function declarationFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".d.ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Writes dist/node10/; returns how many files, and how many imports it rewrote. */
export function writeNode10Types(): { files: number; rewritten: number } {
  const specifiers = esmSpecifiers();
  const target = join(DIST, NODE10_DIR);
  rmSync(target, { recursive: true, force: true });
  let files = 0;
  let rewritten = 0;
  for (const folder of publishedFolders()) {
    for (const file of declarationFiles(join(DIST, folder))) {
      const text = readFileSync(file, "utf8").replace(/((?:from |import\()")([^"]+)(")/g, (whole, before, specifier, after) => {
        const esm = specifiers.get(specifier);
        if (esm === undefined) return whole;
        rewritten += 1;
        return `${before}${esm}${after}`;
      });
      const out = join(target, relative(DIST, file));
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, text);
      files += 1;
    }
  }
  return { files, rewritten };
}

if (require.main === module) {
  const { files, rewritten } = writeNode10Types();
  console.error(`node10-types: ${files} declaration files in dist/${NODE10_DIR}, ${rewritten} imports named ESM declarations`);
}

import { realpathSync } from "node:fs";
import Module from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { LIFE_CYCLE } from "./engine/outcomes";

/**
 * The provider of one resource type, as small as Pulumi can serialize it.
 *
 * Pulumi stores the serialized provider in every resource's inputs and outputs, and the engine
 * rewrites the whole checkpoint after each step: its size is paid N² times over a stack. So the
 * provider is `{ typeName }` whose prototype is the runtime module's exports (its `configure`,
 * `check`, `diff`, `create`, `read`, `update` and `delete` take the type from `this`). Pulumi's
 * closure serializer writes an object taken from a module under `node_modules` as a `require`
 * of that module, so the text is about 300 bytes: `Object.create(require("pulumi-forge/..."))`
 * and the type name (docs/architecture.md, "The serialized provider").
 *
 * That needs the runtime module to be loaded from a path under `node_modules`. It is when the
 * package is installed; a checkout linked as `node_modules/pulumi-forge` (the examples, the e2e
 * programs; in the program's directory or one above) is loaded from its real path, so the module
 * is loaded a second time under the linked path. When neither holds (the library run from its TypeScript sources), the provider
 * is the same seven methods written out, each loading the runtime by package name in its body.
 */
export function serializableProvider(typeName: string): dynamic.ResourceProvider {
  const runtime = packagedRuntime();
  if (runtime) return Object.assign(Object.create(runtime) as dynamic.ResourceProvider, { typeName });
  return writtenOutProvider(typeName);
}

/** The compiled runtime module's path inside the package. */
const RUNTIME_FILE = join("dist", "provider", "runtime.js");
let cachedRuntime: object | null | undefined;

/** The runtime module's exports as loaded from a path under `node_modules`, or undefined. */
function packagedRuntime(): object | undefined {
  if (cachedRuntime === undefined) cachedRuntime = findPackagedRuntime() ?? null;
  return cachedRuntime ?? undefined;
}

function findPackagedRuntime(): object | undefined {
  if (!__filename.endsWith(".js")) return undefined; // the TypeScript sources (tests)
  const real = join(__dirname, "runtime.js");
  const root = resolve(__dirname, "..", "..");
  if (relative(root, real) !== RUNTIME_FILE) return undefined;
  if (real.split(sep).includes("node_modules")) return require("./runtime") as object;
  // A linked checkout: the program resolves `pulumi-forge` through a node_modules folder of its
  // directory or one above, as Node does.
  const linked = linkedPackage(realpathSync(root));
  if (!linked) return undefined;
  const file = join(linked, RUNTIME_FILE);
  const cached = require.cache[file];
  if (cached) return cached.exports as object;
  // Node's own loader steps (Module#load is not in its type declarations).
  const copy = new Module(file, module) as Module & { load(filename: string): void };
  copy.filename = file;
  copy.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  require.cache[file] = copy;
  try {
    copy.load(file);
  } catch {
    delete require.cache[file];
    return undefined;
  }
  return copy.exports as object;
}

/** `<dir>/node_modules/pulumi-forge` linking to `root`, for the program's directory or the nearest one above. */
function linkedPackage(root: string): string | undefined {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", "pulumi-forge");
    try {
      if (realpathSync(candidate) === root) return candidate;
    } catch {
      // not there: look further up
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The provider written out: a method per step of the life cycle and `configure`, capturing the
 * type name only, each loading the runtime by package name inside its body (about 2.7 KB
 * serialized).
 */
function writtenOutProvider(typeName: string): dynamic.ResourceProvider {
  const steps = LIFE_CYCLE.map((step) => [
    step,
    async (...args: unknown[]) =>
      require("pulumi-forge/runtime")
        .implementation(typeName)
        [step](...args),
  ]);
  return {
    async configure(req) {
      require("pulumi-forge/runtime").configure(req.config);
    },
    ...(Object.fromEntries(steps) as Omit<dynamic.ResourceProvider, "configure">),
  };
}

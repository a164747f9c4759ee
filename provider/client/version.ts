import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** Finds this package's version by walking up from here (the depth differs between sources and dist). */
function packageVersion(): string {
  let dir = typeof __dirname === "string" ? __dirname : process.cwd();
  for (let i = 0; i < 8; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === "pulumi-forge" && typeof pkg.version === "string") return pkg.version;
    } catch {
      // No package.json at this level.
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return "0.0.0";
}

/** `pulumi-forge/<version>`, sent as User-Agent so forge admins can tell where calls come from. */
export const USER_AGENT = `pulumi-forge/${packageVersion()}`;

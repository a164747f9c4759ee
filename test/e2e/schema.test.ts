/**
 * The generated package schema loads in Pulumi's own binder (pkg/v3 codegen/schema, what the
 * engine and `pulumi package` use): scripts/check-schema.sh builds the checker once from the Go
 * module proxy, like the CLI (an engine-layer test: it needs the Go toolchain the set-up uses).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { actionDeclarations } from "../../provider/actions";
import { lookupDeclarations } from "../../provider/lookups/registry";
import { declarations } from "../../provider/resources";
import { REPO_ROOT } from "./harness";

it("binds provider/plugin/schema.json with Pulumi's binder: every resource and function, no diagnostics", () => {
  const output = execFileSync(
    "bash",
    [join(REPO_ROOT, "scripts", "check-schema.sh"), join(REPO_ROOT, "provider", "plugin", "schema.json")],
    {
      encoding: "utf8",
      timeout: 600_000,
    },
  );
  const schema = JSON.parse(readFileSync(join(REPO_ROOT, "provider", "plugin", "schema.json"), "utf8")) as { functions: object };
  // Resources and functions as the binder counts them: every declaration, every lookup and action.
  expect(output.trim()).toBe(`ok forge ${Object.keys(declarations).length} ${Object.keys(schema.functions).length}`);
  expect(Object.keys(schema.functions).length).toBe(Object.keys(lookupDeclarations).length + actionDeclarations.length);
}, 600_000);

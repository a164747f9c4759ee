import { describe, expect, it } from "vitest";

/*
 * The emulator's layering, checked on the real import graph: every import, export-from and
 * dynamic import of every .ts file under emulator/ and api/, type-only ones included (a cycle
 * through types is still a cycle of the design).
 */

import { findCycles, importGraph, type ImportGraph } from "./import-graph";

const resourceOf = (file: string): string | undefined => /^emulator\/resources\/([^/]+)\//.exec(file)?.[1];
/** Resolved files end in .ts; anything else is a package name. */
const isPackage = (target: string): boolean => !target.endsWith(".ts");
const inCoreOrApi = (target: string): boolean => /^(emulator\/core|api)\//.test(target);

/** The layering rules, as `importer -> imported: why` lines. */
export function boundaryViolations(graph: ImportGraph): string[] {
  const violations: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const edge = `${file} -> ${target}`;
      const outside = isPackage(target) ? /^pulumi-forge(\/|$)/.test(target) : !/^(emulator|api)\//.test(target);
      if (file.startsWith("emulator/") && outside) {
        violations.push(`${edge}: the emulator imports only api/ and its own code`);
      }
      if (file.startsWith("api/") && !target.startsWith("api/") && target !== "zod") {
        violations.push(`${edge}: api/ is neutral and imports nothing outside itself`);
      }
      if (file.startsWith("emulator/core/") && !isPackage(target) && !inCoreOrApi(target)) {
        violations.push(`${edge}: core knows no resource, registry or HTTP`);
      }
      if (
        file.startsWith("emulator/outside-spec/") &&
        !isPackage(target) &&
        !inCoreOrApi(target) &&
        !target.startsWith("emulator/outside-spec/")
      ) {
        violations.push(
          `${edge}: outside-spec/ imports only its own folder, core/ and api/ (a resource's model reaches it through the registry)`,
        );
      }
      const resource = resourceOf(file);
      if (resource === undefined || isPackage(target)) continue;
      const own = target.startsWith(`emulator/resources/${resource}/`);
      if (!own && !inCoreOrApi(target)) {
        violations.push(`${edge}: a resource imports only its own folder, core/ and api/`);
      }
    }
  }
  return violations;
}

describe("the import checks themselves", () => {
  it("finds cycles, including self-imports, and none in a graph without them", () => {
    const graph: ImportGraph = new Map([
      ["a.ts", ["b.ts", "zod"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts"]],
      ["d.ts", ["d.ts"]],
      ["e.ts", ["a.ts"]],
    ]);
    expect(findCycles(graph)).toEqual([
      ["a.ts", "b.ts", "c.ts", "a.ts"],
      ["d.ts", "d.ts"],
    ]);
    expect(
      findCycles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", ["c.ts"]],
          ["c.ts", []],
          ["e.ts", ["a.ts", "c.ts"]],
        ]),
      ),
    ).toEqual([]);
  });

  it("reports each kind of forbidden edge", () => {
    const graph: ImportGraph = new Map([
      ["emulator/http/server.ts", ["provider/client/index.ts", "emulator/registry.ts", "pulumi-forge/runtime"]],
      ["emulator/resources/labels/model.ts", ["emulator/resources/groups/model.ts", "emulator/core/core.ts", "zod"]],
      ["emulator/resources/labels/index.ts", ["emulator/registry.ts", "emulator/resources/labels/model.ts"]],
      ["emulator/resources/labels/routes.ts", ["emulator/http/types.ts", "test/emulator/helpers.ts"]],
      ["emulator/core/core.ts", ["emulator/resources/labels/model.ts", "node:fs", "api/index.ts"]],
      ["api/index.ts", ["provider/engine/ids.ts", "zod"]],
      ["emulator/outside-spec/model.ts", ["emulator/resources/groups/model.ts", "emulator/core/core.ts", "graphql"]],
    ]);
    expect(boundaryViolations(graph)).toEqual([
      "emulator/http/server.ts -> provider/client/index.ts: the emulator imports only api/ and its own code",
      "emulator/http/server.ts -> pulumi-forge/runtime: the emulator imports only api/ and its own code",
      "emulator/resources/labels/model.ts -> emulator/resources/groups/model.ts: a resource imports only its own folder, core/ and api/",
      "emulator/resources/labels/index.ts -> emulator/registry.ts: a resource imports only its own folder, core/ and api/",
      "emulator/resources/labels/routes.ts -> emulator/http/types.ts: a resource imports only its own folder, core/ and api/",
      "emulator/resources/labels/routes.ts -> test/emulator/helpers.ts: the emulator imports only api/ and its own code",
      "emulator/resources/labels/routes.ts -> test/emulator/helpers.ts: a resource imports only its own folder, core/ and api/",
      "emulator/core/core.ts -> emulator/resources/labels/model.ts: core knows no resource, registry or HTTP",
      "api/index.ts -> provider/engine/ids.ts: api/ is neutral and imports nothing outside itself",
      "emulator/outside-spec/model.ts -> emulator/resources/groups/model.ts: outside-spec/ imports only its own folder, core/ and api/ (a resource's model reaches it through the registry)",
    ]);
  });
});

describe("emulator and api boundaries (real import graph)", () => {
  const graph = importGraph(["emulator", "api"]);

  it("reads the real graph", () => {
    // Guards against a parser that finds nothing and so passes everything.
    expect(graph.get("emulator/registry.ts")).toContain("emulator/resources/labels/index.ts");
    expect(graph.get("emulator/resources/labels/model.ts")).toContain("zod");
  });

  it("keeps the layers apart", () => {
    expect(boundaryViolations(graph)).toEqual([]);
  });

  it("has no import cycle among emulator and spec files", () => {
    expect(findCycles(graph)).toEqual([]);
  });
});

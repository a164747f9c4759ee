/**
 * The provider's layering, on the real import graph (type-only imports and `require` calls
 * included): the engine interprets any declaration and knows none; the client speaks HTTP and
 * knows no engine. The registry of declarations meets the engine only in the composition root
 * (provider/composition-root.ts; runtime.ts and serialized-provider.ts, the dynamic face's side of
 * it) and in what is generated from it.
 */
import { describe, expect, it } from "vitest";
import { findCycles, importGraph, type ImportGraph } from "./import-graph";

/** What the engine must not reach: either face, and Pulumi's SDK (the faces speak it). */
const FACES = ["provider/faces/", "provider/plugin/", "@pulumi/", "pulumi-forge/plugin"];

const graph = importGraph(["provider", "api"]);
const importsOf = (prefix: string, of: ImportGraph = graph) => [...of].filter(([file]) => file.startsWith(prefix));

/** The imports of files under `prefix` that reach into one of `forbidden` (folders, files or packages). */
function crossings(prefix: string, forbidden: string[], of: ImportGraph = graph): string[] {
  return importsOf(prefix, of).flatMap(([file, imports]) =>
    imports
      .filter((target) => forbidden.some((entry) => target === entry || target.startsWith(entry)))
      .map((target) => `${file} -> ${target}`),
  );
}

describe("provider boundaries", () => {
  it("has no import cycle among the provider's, the CLIs', the policy pack's and the API's files, type imports included", () => {
    expect(findCycles(importGraph(["provider", "cli", "policies", "api"]))).toEqual([]);
  });

  it("reads the files it judges", () => {
    expect(importsOf("provider/engine/").length).toBeGreaterThan(10);
    expect(importsOf("provider/client/").length).toBeGreaterThan(5);
  });

  it("engine/ imports no resource, lookup, action, generated class or composition root", () => {
    const outside = [
      "provider/resources/",
      "provider/lookups/",
      "provider/adopt/",
      "provider/generated/",
      "provider/plugin/",
      "provider/actions.ts",
      "provider/composition-root.ts",
      "provider/runtime.ts",
      "provider/serialized-provider.ts",
      "provider/index.ts",
      "pulumi-forge/runtime",
      "@pulumi/pulumi/provider",
    ];
    expect(crossings("provider/engine/", outside)).toEqual([]);
  });

  it("engine/ serves no face: it imports neither face's adapter nor anything of Pulumi's SDK", () => {
    expect(crossings("provider/engine/", FACES)).toEqual([]);
  });

  it("the check sees an engine import of a face, by import or require", () => {
    const probe: ImportGraph = new Map([["provider/engine/x.ts", ["provider/faces/dynamic.ts", "@pulumi/pulumi", "provider/engine/y.ts"]]]);
    expect(crossings("provider/engine/", FACES, probe)).toEqual([
      "provider/engine/x.ts -> provider/faces/dynamic.ts",
      "provider/engine/x.ts -> @pulumi/pulumi",
    ]);
  });

  it("client/ imports no engine and no declaration", () => {
    expect(
      crossings("provider/client/", [
        "provider/engine/",
        "provider/resources/",
        "provider/lookups/",
        "provider/composition-root.ts",
        "provider/runtime.ts",
      ]),
    ).toEqual([]);
  });

  it("resources/ use the engine's words, not its machinery or the composition root", () => {
    const machinery = [
      "provider/engine/operations.ts",
      "provider/engine/recovery.ts",
      "provider/engine/requests.ts",
      "provider/engine/settings.ts",
      "provider/composition-root.ts",
      "provider/runtime.ts",
      "provider/serialized-provider.ts",
    ];
    expect(crossings("provider/resources/", machinery)).toEqual([]);
  });

  it("the registry and the engine's operations meet only in the faces: the provider process's root and forge-adopt's readers (a scope's, the fleet's inventory)", () => {
    const joiners = importsOf("provider/").filter(
      ([, imports]) =>
        (imports.includes("provider/resources/index.ts") || imports.includes("provider/resources/by-name.ts")) &&
        imports.includes("provider/engine/operations.ts"),
    );
    expect(joiners.map(([file]) => file).sort()).toEqual([
      "provider/adopt/inventory.ts",
      "provider/adopt/read.ts",
      "provider/composition-root.ts",
    ]);
  });
});

describe("rooms of provider/", () => {
  /** The room of a file: its folder under provider/, or the file itself at the top (`provider/runtime.ts`). */
  const roomOf = (file: string) => file.split("/").slice(0, 2).join("/");

  /** Pairs of rooms that import each other, each with one import of either way, sorted. */
  function twoWayArrows(of: ImportGraph): string[] {
    const arrows = new Map<string, string>();
    for (const [file, imports] of of) {
      for (const target of imports) {
        if (!file.startsWith("provider/") || !target.startsWith("provider/") || roomOf(file) === roomOf(target)) continue;
        const arrow = `${roomOf(file)} -> ${roomOf(target)}`;
        if (!arrows.has(arrow)) arrows.set(arrow, `${file} -> ${target}`);
      }
    }
    return [...arrows]
      .filter(([arrow]) => {
        const [from, to] = arrow.split(" -> ");
        return from! < to! && arrows.has(`${to} -> ${from}`);
      })
      .map(([arrow, example]) => {
        const [from, to] = arrow.split(" -> ");
        return `${from} <-> ${to} (${example}; ${arrows.get(`${to} -> ${from}`)})`;
      })
      .sort();
  }

  it("every arrow between two rooms points one way: the vocabulary both use sits below them", () => {
    expect(twoWayArrows(graph)).toEqual([]);
  });

  it("the check sees an arrow pointing back up", () => {
    const probe: ImportGraph = new Map([
      ["provider/resources/x.ts", ["provider/lookups/registry.ts", "provider/engine/declaration.ts"]],
      ["provider/lookups/y.ts", ["provider/resources/z.ts"]],
      ["provider/engine/declaration.ts", []],
    ]);
    expect(twoWayArrows(probe)).toEqual([
      "provider/lookups <-> provider/resources (provider/lookups/y.ts -> provider/resources/z.ts; provider/resources/x.ts -> provider/lookups/registry.ts)",
    ]);
  });
});

describe("type tokens", () => {
  /** A string that starts a type token of either face, with a name or an interpolation after it. */
  const SPELLED = /["'`](forge:index:|pulumi-nodejs:dynamic\/forge:)(\$\{|[A-Za-z])/;

  it("are spelled only in provider/type-tokens.ts (the classes, the plugin, the schema, the CLIs, the policy pack and the docs ask it)", () => {
    const { readdirSync, readFileSync, statSync } = require("node:fs") as typeof import("node:fs");
    const { join } = require("node:path") as typeof import("node:path");
    const root = join(__dirname, "..", "..");
    const files = (dir: string): string[] =>
      readdirSync(join(root, dir)).flatMap((entry) => {
        const path = `${dir}/${entry}`;
        return statSync(join(root, path)).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
      });
    const spelled = ["provider", "cli", "policies", "docs"]
      .flatMap(files)
      .filter((file) => file !== "provider/type-tokens.ts" && !file.startsWith("provider/generated/"))
      .flatMap((file) =>
        readFileSync(join(root, file), "utf8")
          .split("\n")
          .map((line, index) => ({ where: `${file}:${index + 1}`, line })),
      )
      .filter(({ line }) => !/^\s*(\*|\/\/|\/\*)/.test(line) && SPELLED.test(line))
      .map(({ where }) => where);
    expect(spelled).toEqual([]);
  });

  it("the check finds a token spelled by hand", () => {
    expect(SPELLED.test("const token = `forge:index:${name}`;")).toBe(true);
    expect(SPELLED.test('if (type === "pulumi-nodejs:dynamic/forge:GroupLabel")')).toBe(true);
    expect(SPELLED.test("the plugin's tokens, `forge:index:<Name>`")).toBe(false);
  });
});

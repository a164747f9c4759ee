import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { LAYERS } from "./test/layers";

// FORGE_SKIP_ENGINE_TESTS=1 leaves the engine layers out (scripts/test.sh says so); without it,
// an engine suite on a machine without the Pulumi CLI fails with how to install it.
const skipEngine = process.env["FORGE_SKIP_ENGINE_TESTS"] === "1";
// An optional layer (test/layers.ts) runs only when asked for: FORGE_LANGUAGE_TESTS=1 (npm run
// test:languages) or its name after --project.
const asked = (name: string) =>
  process.env["FORGE_LANGUAGE_TESTS"] === "1" ||
  process.argv.some((arg, index) => arg === `--project=${name}` || (arg === name && process.argv[index - 1] === "--project"));

export default defineConfig({
  test: {
    // The e2e suite drives the real Pulumi CLI: slow, and one stack at a time per file.
    testTimeout: 60_000,
    hookTimeout: 600_000,
    pool: "forks",
    // Two files at a time even on two cores (vitest's default is cores - 1): the engine layers'
    // files mostly wait on the processes they start, so two overlap well. Measured on a 2-core
    // machine, warm, from a fresh clone: 586 s one at a time (under other load), 329 s two at a time.
    // At most four: each engine file starts several processes of its own (the CLI, hosts, plugins).
    maxWorkers: Math.min(4, Math.max(2, availableParallelism())),
    reporters: ["default"],
    // The provider's declaring files, loaded per type in a build, through vitest's imports here.
    setupFiles: ["test/support/declaring-files.ts"],
    projects: Object.entries(LAYERS)
      .filter(([name, layer]) => !(skipEngine && layer.engine) && (!layer.optional || asked(name)))
      .map(([name, layer]) => ({
        extends: true,
        test: { name, include: layer.include, ...(layer.exclude ? { exclude: layer.exclude } : {}) },
      })),
  },
});

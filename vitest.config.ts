import { defineConfig } from "vitest/config";
import { LAYERS } from "./test/layers";

// FORGE_SKIP_ENGINE_TESTS=1 leaves the engine layers out (scripts/test.sh says so); without it,
// an engine suite on a machine without the Pulumi CLI fails with how to install it.
const skipEngine = process.env["FORGE_SKIP_ENGINE_TESTS"] === "1";

export default defineConfig({
  test: {
    // The e2e suite drives the real Pulumi CLI: slow, and one stack at a time per file.
    testTimeout: 60_000,
    hookTimeout: 600_000,
    pool: "forks",
    reporters: ["default"],
    projects: Object.entries(LAYERS)
      .filter(([, layer]) => !(skipEngine && layer.engine))
      .map(([name, layer]) => ({ extends: true, test: { name, include: layer.include, ...(layer.exclude ? { exclude: layer.exclude } : {}) } })),
  },
});

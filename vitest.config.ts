import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The e2e suite drives the real Pulumi CLI: slow, and one stack at a time per file.
    testTimeout: 60_000,
    hookTimeout: 600_000,
    pool: "forks",
    reporters: ["default"],
  },
});

/**
 * The layers of the suite, each a vitest project with an npm script (`npm run test:<layer>`):
 * four in-process layers, and the engine layers that drive the real Pulumi CLI. Every test file
 * is in exactly one layer (test/unit/layers.test.ts).
 */
export interface Layer {
  include: string[];
  exclude?: string[];
  /** Drives the real Pulumi CLI: skipped only with FORGE_SKIP_ENGINE_TESTS=1, failing without the CLI otherwise. */
  engine: boolean;
  /**
   * Left out of the default run (it needs tools the set-up does not build): run only when asked,
   * `npm run test:languages` (FORGE_LANGUAGE_TESTS=1) or `--project <layer>`.
   */
  optional?: boolean;
}

export const LAYERS: Record<string, Layer> = {
  unit: { include: ["test/unit/**/*.test.ts"], engine: false },
  emulator: { include: ["test/emulator/**/*.test.ts"], engine: false },
  contract: {
    include: ["test/contract/**/*.test.ts", "test/integration/**/*.test.ts", "test/connection/tls-and-proxies.test.ts"],
    engine: false,
  },
  policies: { include: ["test/policies/**/*.test.ts"], exclude: ["test/policies/preview.test.ts"], engine: false },
  e2e: { include: ["test/e2e/**/*.test.ts", "test/policies/preview.test.ts"], engine: true },
  consumer: { include: ["test/consumer/**/*.test.ts"], engine: true },
  cli: { include: ["test/cli/**/*.test.ts", "test/connection/https-stack.test.ts"], engine: true },
  gitops: { include: ["test/gitops/**/*.test.ts"], engine: true },
  languages: { include: ["test/languages/**/*.test.ts"], engine: true, optional: true },
};

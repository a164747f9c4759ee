/**
 * `npm run bench`: the scale benchmark. The real Pulumi CLI (Automation API, local file backend)
 * runs up, preview, refresh and destroy of N resources of a mix of types against the emulator
 * (in this process, real HTTP on loopback), and the same four operations of N no-op dynamic
 * resources (the engine's own floor: no HTTP), in the same run. Two floors: `methods`, a no-op
 * provider with the six methods a user would write (1.75 KB serialized, the floor of the issue's
 * first measurements), and `create-only`, the smallest provider the engine accepts (the strict
 * floor). What to compare across changes are the printed ratios, not the absolute times, which
 * depend on the machine and its load.
 *
 *   BENCH_N=100,500 (default)   sizes to run
 *   BENCH_RATE_LIMIT=200/5      also an `up` + `destroy` of the largest N under that budget
 *                                (requests per window of seconds) and count the 429s
 *
 * Not a test: it asserts nothing about time. It fails only if an operation fails.
 */
import { FORGE_PROGRAM, lastSeq, PULUMI_VERSION, requestsSince, startBenchWorld } from "./stacks";
import type { Stack } from "@pulumi/pulumi/automation";

const OPS = ["up", "preview", "refresh", "destroy"] as const;
type Op = (typeof OPS)[number];

/** A floor: the same number of dynamic resources whose provider does nothing. */
const FLOOR_PROGRAM = (provider: string) => `
const pulumi = require("@pulumi/pulumi");
const n = Number(new pulumi.Config().require("n"));
const provider = ${provider};
for (let i = 0; i < n; i += 1) {
  new pulumi.dynamic.Resource(provider, "noop-" + i, { key: "noop-" + i, name: "bench-" + i, color: "#aa0000" }, {}, "floor", "Noop");
}
`;

const FLOORS = {
  methods: `{
  async check(olds, news) { return { inputs: news }; },
  async diff() { return { changes: false }; },
  async create(inputs) { return { id: inputs.key, outs: inputs }; },
  async read(id, props) { return { id, props }; },
  async update(id, olds, news) { return { outs: news }; },
  async delete() {},
}`,
  "create-only": `{ async create(inputs) { return { id: inputs.key, outs: inputs }; } }`,
};

interface Measured {
  ms: Record<Op, number>;
  requests: Record<Op, number>;
  throttled: Record<Op, number>;
  stateBytesPerResource: number;
  providerBytes: number;
}

async function main(): Promise<void> {
  const sizes = (process.env["BENCH_N"] ?? "100,500").split(",").map(Number);
  const budget = process.env["BENCH_RATE_LIMIT"];
  const world = await startBenchWorld({ requestLogSize: 100_000 });
  const { emulator } = world;
  const stackOf = (name: string, program: string, n: number) => world.stack(name, program, { n: String(n) });

  const measure = async (stack: Stack, n: number, ops: readonly Op[] = OPS): Promise<Measured> => {
    const result: Measured = { ms: {} as Record<Op, number>, requests: {} as Record<Op, number>, throttled: {} as Record<Op, number>, stateBytesPerResource: 0, providerBytes: 0 };
    for (const op of ops) {
      const since = await lastSeq(emulator);
      const started = performance.now();
      await stack[op]({ color: "never", onOutput: () => {} });
      result.ms[op] = performance.now() - started;
      const logged = await requestsSince(emulator, since);
      result.requests[op] = logged.length;
      result.throttled[op] = logged.filter((entry) => entry.status === 429).length;
      if (op === "up") {
        const deployment = (await stack.exportStack()).deployment as { resources?: { type: string; inputs?: Record<string, unknown> }[] };
        const managed = (deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic"));
        if (managed.length !== n) throw new Error(`expected ${n} resources in the state, found ${managed.length}`);
        result.stateBytesPerResource = JSON.stringify(managed).length / n;
        result.providerBytes = String(managed[0]?.inputs?.["__provider"] ?? "").length;
      }
    }
    return result;
  };

  try {
    console.log(`scale benchmark: Pulumi ${PULUMI_VERSION}, Node ${process.version}, emulator ${emulator.url}`);
    for (const n of sizes) {
      const floors: Record<string, Measured> = {};
      for (const [name, provider] of Object.entries(FLOORS)) floors[name] = await measure(await stackOf(`floor-${name}-${n}`, FLOOR_PROGRAM(provider), n), n);
      const forge = await measure(await stackOf(`forge-${n}`, FORGE_PROGRAM, n), n);
      report(n, floors, forge);
    }
    if (budget) {
      const [limit = "200", window = "5"] = budget.split("/");
      const n = Math.max(...sizes);
      await emulator.admin("/rate-limit", {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ limit: Number(limit), window_s: Number(window) }),
      });
      const limited = await measure(await stackOf(`limited-${n}`, FORGE_PROGRAM, n), n, ["up", "destroy"]);
      console.log(
        `\nunder a budget of ${limit} requests per ${window} s, N = ${n}: ` +
          (["up", "destroy"] as const).map((op) => `${op} ${seconds(limited.ms[op])} (${limited.requests[op]} requests, ${limited.throttled[op]} answered 429)`).join(", "),
      );
    }
  } finally {
    await world.close();
  }
}

function report(n: number, floors: Record<string, Measured>, forge: Measured): void {
  const names = Object.keys(floors);
  console.log(`\nN = ${n}`);
  console.log(`| op | ${names.map((name) => `floor (${name})`).join(" | ")} | pulumi-forge | ${names.map((name) => `ratio to ${name}`).join(" | ")} | requests (per resource) | 429s |`);
  console.log(`|---|${names.map(() => "---|").join("")}---|${names.map(() => "---|").join("")}---|---|`);
  for (const op of OPS) {
    console.log(
      `| ${op} | ${names.map((name) => seconds(floors[name]!.ms[op])).join(" | ")} | ${seconds(forge.ms[op])} | ` +
        `${names.map((name) => `${(forge.ms[op] / floors[name]!.ms[op]).toFixed(2)}x`).join(" | ")} | ` +
        `${forge.requests[op]} (${(forge.requests[op] / n).toFixed(2)}) | ${forge.throttled[op]} |`,
    );
  }
  console.log(
    `state bytes per resource (serialized provider, held in inputs and outputs): ` +
      [...names.map((name) => [`floor (${name})`, floors[name]!] as const), ["pulumi-forge", forge] as const]
        .map(([label, measured]) => `${label} ${Math.round(measured.stateBytesPerResource)} (${measured.providerBytes})`)
        .join(", "),
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * `npm run soak [-- memory|faults|outage|ratelimit ...]` (all four by default): runs that show the
 * library and the emulator hold up over time and under failure. Each prints its result and exits
 * non-zero if the property it shows does not hold.
 *
 * - memory: SOAK_REQUESTS (default 1 000 000) reads against an emulator in a child process, its
 *   heap (after a GC) sampled every tenth: flat, since the request log is a ring buffer.
 * - faults: an `up` of SOAK_N (default 200) resources of four types while 20% of the API
 *   requests fail (answers lost after the work, dropped connections, 429, 503, each about 5.4%,
 *   seeded): only the creates whose answer was lost after the work fail, each naming its one
 *   object; no duplicate and no orphan in the forge; importing what the errors name converges,
 *   and the next `up` is a no-op.
 * - outage: an `up` of SOAK_N group labels; a few seconds in, every request is answered 503 for
 *   15 s, then connections are refused for 15 s: the same `up` converges (the retry budget is a
 *   time budget) and says why it was slow.
 * - ratelimit: an `up` of SOAK_N resources under a budget of SOAK_RATE_LIMIT (default 100/5:
 *   requests per window of seconds): converges, and the 429s are few (the client paces itself).
 */
import { fork } from "node:child_process";
import { isDeepStrictEqual } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, request } from "undici";
import {
  benchRecordsInForge,
  benchRecordsInState,
  faultMix,
  FORGE_PROGRAM,
  lastSeq,
  lostAnswerNames,
  requestsSince,
  startBenchWorld,
} from "./stacks";

const N = Number(process.env["SOAK_N"] ?? 200);
const quiet = { color: "never" as const, onOutput: () => {} };
// The counts of a summary include the stack itself.

function check(ok: boolean, what: string): void {
  console.log(`  ${ok ? "ok" : "FAILED"}: ${what}`);
  if (!ok) process.exitCode = 1;
}

async function memory(): Promise<void> {
  const total = Number(process.env["SOAK_REQUESTS"] ?? 1_000_000);
  const child = fork(__filename, ["serve"], { execArgv: ["--expose-gc"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const ask = (message: string) =>
    new Promise<{ url?: string; heapMb?: number; rssMb?: number }>((resolve) => {
      child.once("message", (answer) => resolve(answer as { url?: string; heapMb?: number }));
      child.send(message);
    });
  const { url } = await ask("start");
  const agent = new Agent({ connections: 16, pipelining: 4 });
  const samples: { done: number; heapMb: number; rssMb: number }[] = [];
  const started = performance.now();
  let done = 0;
  const loop = async (until: number) => {
    while (done < until) {
      done += 1;
      const response = await request(`${url}/api/v4/groups/acme/labels/soak`, {
        dispatcher: agent,
        headers: { "private-token": "forge-root-token" },
      });
      await response.body.text();
    }
  };
  console.log(`memory: ${total} requests (GET one label) against the emulator, its heap after a GC every ${total / 10}:`);
  for (let step = 1; step <= 10; step += 1) {
    await Promise.all(Array.from({ length: 32 }, () => loop((total * step) / 10)));
    const sample = await ask("memory");
    samples.push({ done, heapMb: sample.heapMb!, rssMb: sample.rssMb! });
    console.log(`  ${String(done).padStart(8)} requests: heap ${sample.heapMb!.toFixed(1)} MB, rss ${sample.rssMb!.toFixed(0)} MB`);
  }
  await agent.close();
  child.kill();
  const seconds = (performance.now() - started) / 1000;
  console.log(`  ${(done / seconds).toFixed(0)} requests/s`);
  // Flat: the last sample within 5 MB of the second (the first still warms up).
  const [, second] = samples;
  const last = samples[samples.length - 1]!;
  check(
    last.heapMb - second!.heapMb < 5,
    `heap flat: ${second!.heapMb.toFixed(1)} MB after ${second!.done}, ${last.heapMb.toFixed(1)} MB after ${last.done}`,
  );
}

/** The child of `memory`: an emulator whose request log keeps its default size. */
async function serve(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded in the child only
  const { startEmulator } = require("../emulator") as typeof import("../emulator");
  let url = "";
  process.on("message", async (message) => {
    if (message === "start") {
      const emulator = await startEmulator({ port: 0 });
      url = emulator.url;
      await fetch(`${url}/api/v4/groups/acme/labels`, {
        method: "POST",
        headers: { "content-type": "application/json", "private-token": "forge-root-token" },
        body: JSON.stringify({ name: "soak", color: "#aa0000" }),
      });
      process.send?.({ url });
    } else if (message === "memory") {
      (globalThis as { gc?: () => void }).gc?.();
      const usage = process.memoryUsage();
      process.send?.({ heapMb: usage.heapUsed / 1e6, rssMb: usage.rss / 1e6 });
    }
  });
}

async function faults(): Promise<void> {
  const world = await startBenchWorld();
  try {
    const stack = await world.stack("faults", FORGE_PROGRAM, { n: String(N) });
    for (const fault of faultMix(0.2)) {
      await world.emulator.admin("/faults", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(fault),
      });
    }
    console.log(`faults: up of ${N} resources (4 types) with 20% of API requests failing (lost answers, drops, 429, 503):`);
    const since = await lastSeq(world.emulator);
    const started = performance.now();
    // Under the ownership rule a create whose answer was lost after the work fails, naming the one
    // object it may have made; nothing else may fail. The errors are counted from the engine's
    // events, one per resource: the text shows each error up to three times (the resource's row
    // as it changes, then the diagnostics) and adds the stack's own "update failed". The engine
    // goes on after a failed create (continueOnError), so that every create meets the faults; by
    // default it starts no create after the first failure (a dozen of 200).
    const diagnostics: { urn: string; message: string }[] = [];
    const up = await stack
      .up({
        color: "never",
        continueOnError: true,
        onOutput: () => {},
        onEvent: (event) => {
          const diagnostic = event.diagnosticEvent;
          if (diagnostic?.severity === "error") diagnostics.push({ urn: diagnostic.urn ?? "", message: diagnostic.message });
        },
      })
      .catch((error: unknown) => error as Error);
    const logged = await requestsSince(world.emulator, since);
    const failed = logged.filter((entry) => entry.status === 0 || entry.status >= 500 || entry.status === 429).length;
    const errors = diagnostics.filter((diagnostic) => diagnostic.urn !== "" && !diagnostic.urn.includes("::pulumi:pulumi:Stack::"));
    const others = diagnostics.filter((diagnostic) => !errors.includes(diagnostic));
    const named = new Map(errors.map(({ urn, message }) => [urn.slice(urn.lastIndexOf("::") + 2), lostAnswerNames(message)]));
    const imports = Object.fromEntries([...named].flatMap(([resource, ids]) => (ids.length === 1 ? [[resource, ids[0]!]] : [])));
    console.log(
      `  up: ${((performance.now() - started) / 1000).toFixed(1)} s, ${logged.length} requests of which ${failed} failed; ${errors.length} creates failed`,
    );
    for (const [resource, id] of Object.entries(imports)) console.log(`    ${resource} names "${id}"`);
    // A create the forge did and whose answer it lost (the mix's 502s come after the work) fails: none is adopted.
    const lostAfterWork = logged.filter((entry) => entry.method === "POST" && entry.status === 502 && entry.user !== null).length;
    check(
      up instanceof Error === errors.length > 0 &&
        Object.keys(imports).length === errors.length &&
        new Set(errors.map((error) => error.urn)).size === errors.length &&
        errors.length === lostAfterWork,
      `the up stops only on lost answers, each naming its one object (${errors.length} resources failed, ${Object.keys(imports).length} name one object, ${lostAfterWork} answers lost after the work)`,
    );
    // The stack's own errors: the update failed, and (the Node.js runtime) each failed resource failed to register.
    const echoes = others.filter(
      (other) =>
        /^update failed\s*$/.test(other.message) ||
        named.has(/^Error: resource (\S+) \[[^\]]+\] failed to register/.exec(other.message)?.[1] ?? ""),
    );
    check(
      echoes.length === others.length,
      `the stack's own errors only echo those (${others.length - echoes.length} other: ${
        others
          .filter((other) => !echoes.includes(other))
          .map((other) => JSON.stringify(other.message.trim()))
          .join(", ") || "none"
      })`,
    );
    await world.emulator.admin("/faults", { method: "DELETE" });
    const inForge = await benchRecordsInForge(world.api);
    const inState = await benchRecordsInState(stack);
    check(new Set(inForge).size === inForge.length, `no duplicate in the forge (${inForge.length} records)`);
    // What the forge holds beyond the state, record by record: exactly the objects of the creates that failed.
    const beyond = withoutEach(inForge, inState);
    const ofFailed = Object.keys(imports).map(benchRecordOfResource).sort();
    check(
      isDeepStrictEqual(beyond, ofFailed) && withoutEach(inState, inForge).length === 0,
      `no orphan: the forge holds what the state holds (${inState.length}) and the objects of the ${ofFailed.length} failed creates (${inForge.length} records; beyond the state: ${beyond.join(", ") || "none"})`,
    );
    // The user's decision, as the errors advise: import each named object. An error that named
    // another object than its resource's fails this import (its inputs do not match).
    await stack.setConfig("imports", { value: JSON.stringify(imports) });
    const imported = await stack.up(quiet).catch((error: unknown) => error as Error);
    const converged = await benchRecordsInForge(world.api);
    check(
      !(imported instanceof Error) && isDeepStrictEqual(converged, await benchRecordsInState(stack)) && converged.length === N,
      imported instanceof Error
        ? `importing what the errors name converges: ${lastLines(imported)}`
        : `importing what the errors name converges: the forge and the state hold the same ${converged.length} records`,
    );
    const again = await stack.up(quiet).catch((error: unknown) => error as Error);
    const changes = again instanceof Error ? lastLines(again) : JSON.stringify(again.summary.resourceChanges);
    check(
      !(again instanceof Error) && Object.keys(again.summary.resourceChanges ?? {}).join() === "same",
      `the next up is a no-op (${changes})`,
    );
    await stack.destroy(quiet);
  } finally {
    await world.close();
  }
}

/** The record a resource of FORGE_PROGRAM makes, as benchRecordsInForge names it (`message-17` is `BroadcastMessage bench-17`). */
function benchRecordOfResource(resource: string): string {
  const types: Record<string, string> = {
    label: "GroupLabel",
    message: "BroadcastMessage",
    agent: "ClusterAgent",
    list: "FeatureFlagUserList",
  };
  const [prefix, index] = resource.split("-");
  return `${types[prefix!]} bench-${index}`;
}

/** `all` without one entry of `some` for each: what `all` holds beyond `some`, duplicates kept. */
function withoutEach(all: string[], some: string[]): string[] {
  const left = [...all];
  for (const entry of some) {
    const at = left.indexOf(entry);
    if (at >= 0) left.splice(at, 1);
  }
  return left.sort();
}

/** The end of a failed command's message: its diagnostics. */
function lastLines(error: Error): string {
  return error.message.trim().split("\n").slice(-5).join(" / ");
}

async function outage(): Promise<void> {
  const world = await startBenchWorld();
  try {
    const stack = await world.stack("outage", FORGE_PROGRAM, { n: String(N), types: "GroupLabel" });
    console.log(`outage: up of ${N} group labels; from 3 s in, every request 503 for 15 s, then connections refused for 15 s:`);
    const output: string[] = [];
    const started = performance.now();
    const upDone = stack.up({ color: "never", onOutput: (text) => output.push(text) });
    const outageDone = (async () => {
      await sleep(3000);
      await world.emulator.admin("/faults", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ path: ".*", status: 503 }),
      });
      await sleep(15_000);
      await world.emulator.admin("/faults", { method: "DELETE" });
      await world.emulator.refuseConnections(15_000);
    })();
    const up = await upDone;
    await outageDone;
    const seconds = (performance.now() - started) / 1000;
    const waits = output
      .join("")
      .split("\n")
      .filter((line) => line.includes("retrying in"));
    console.log(`  up: ${seconds.toFixed(1)} s, ${waits.length} retry waits logged, e.g.\n    ${waits[0]?.trim() ?? "(none)"}`);
    check(
      up.summary.result === "succeeded" && up.summary.resourceChanges?.["create"] === N + 1,
      `one up creates all ${N} and the stack through the outage (${JSON.stringify(up.summary.resourceChanges)})`,
    );
    check(waits.length > 0, "the waits are in the run's output");
    const inForge = await benchRecordsInForge(world.api);
    check(inForge.length === N && new Set(inForge).size === N, `no duplicate, no orphan (${inForge.length} labels)`);
    await stack.destroy(quiet);
  } finally {
    await world.close();
  }
}

async function ratelimit(): Promise<void> {
  const [limit = 100, window = 5] = (process.env["SOAK_RATE_LIMIT"] ?? "100/5").split("/").map(Number);
  const world = await startBenchWorld({ rateLimit: { limit, windowSeconds: window } });
  try {
    const stack = await world.stack("ratelimit", FORGE_PROGRAM, { n: String(N) });
    console.log(`ratelimit: up and destroy of ${N} resources under a budget of ${limit} requests per ${window} s:`);
    for (const op of ["up", "destroy"] as const) {
      const since = await lastSeq(world.emulator);
      const started = performance.now();
      const result = await stack[op](quiet);
      const logged = await requestsSince(world.emulator, since);
      const throttled = logged.filter((entry) => entry.status === 429).length;
      console.log(`  ${op}: ${((performance.now() - started) / 1000).toFixed(1)} s, ${logged.length} requests, ${throttled} answered 429`);
      check(result.summary.result === "succeeded", `${op} succeeds`);
      check(throttled <= logged.length * 0.05, `no retry storm: ${throttled} 429s for ${logged.length} requests`);
    }
  } finally {
    await world.close();
  }
}

const runs = { memory, faults, outage, ratelimit };

async function main(): Promise<void> {
  if (process.argv[2] === "serve") return serve();
  const chosen = process.argv.slice(2);
  for (const name of chosen.length > 0 ? chosen : Object.keys(runs)) {
    const run = runs[name as keyof typeof runs];
    if (!run) throw new Error(`unknown soak run ${name}: one of ${Object.keys(runs).join(", ")}`);
    await run();
  }
}

main().catch((error: unknown) => {
  // A failed Pulumi command carries its whole output: its end (the diagnostics) is what tells.
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error(text.length > 6000 ? `...${text.slice(-6000)}` : text);
  process.exit(1);
});

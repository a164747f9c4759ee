/**
 * `npm run bench:emulator`: the emulator's throughput on a read route (GET one group label, with
 * a token) against a bare `node:http` server answering the same bytes (status, headers, body),
 * in the same run. Each server runs in a worker thread of its own; the load comes from this
 * thread (undici, keep-alive, BENCH_CONNECTIONS concurrent loops), the two servers measured in
 * alternation, BENCH_ROUNDS rounds of BENCH_SECONDS each. The ratio is what to compare; the goal
 * is at least 0.5.
 */
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";
import { createServer } from "node:http";
import { Agent, request } from "undici";

interface Canned {
  status: number;
  headers: Record<string, string>;
  body: string;
}

type WorkerData = { kind: "emulator" } | { kind: "bare"; canned: Canned };

const PATH = "/api/v4/groups/acme/labels/bench";
const TOKEN = "forge-root-token";

async function serve(data: WorkerData): Promise<void> {
  if (data.kind === "emulator") {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded in the worker only
    const { startEmulator } = require("../emulator") as typeof import("../emulator");
    const emulator = await startEmulator({ port: 0 });
    await fetch(`${emulator.url}/api/v4/groups/acme/labels`, {
      method: "POST",
      headers: { "content-type": "application/json", "private-token": TOKEN },
      body: JSON.stringify({ name: "bench", color: "#aa0000", description: "a label to read" }),
    });
    parentPort?.postMessage({ url: emulator.url });
    return;
  }
  const { canned } = data;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(canned.status, canned.headers);
      res.end(canned.body);
    });
  });
  server.listen(0, "127.0.0.1", () => {
    const address = server.address() as { port: number };
    parentPort?.postMessage({ url: `http://127.0.0.1:${address.port}` });
  });
}

function start(data: WorkerData): Promise<{ url: string; worker: Worker }> {
  const worker = new Worker(__filename, { workerData: data });
  return new Promise((resolve, reject) => {
    worker.once("message", (message: { url: string }) => resolve({ url: message.url, worker }));
    worker.once("error", reject);
  });
}

/** Requests answered in `seconds` by `connections` loops over keep-alive connections. */
async function load(url: string, seconds: number, connections: number): Promise<number> {
  const agent = new Agent({ connections, keepAliveTimeout: 10_000 });
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const loop = async () => {
    while (performance.now() < end) {
      const response = await request(`${url}${PATH}`, { dispatcher: agent, headers: { "private-token": TOKEN } });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`${url}${PATH} answered ${response.statusCode}`);
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  await agent.close();
  return done / seconds;
}

async function main(): Promise<void> {
  const seconds = Number(process.env["BENCH_SECONDS"] ?? 3);
  const rounds = Number(process.env["BENCH_ROUNDS"] ?? 3);
  const connections = Number(process.env["BENCH_CONNECTIONS"] ?? 8);
  const emulator = await start({ kind: "emulator" });
  // The bare server answers exactly what the emulator answers (its date header aside).
  const sample = await request(`${emulator.url}${PATH}`, { headers: { "private-token": TOKEN } });
  const body = await sample.body.text();
  const headers = Object.fromEntries(
    Object.entries(sample.headers)
      .filter(([name]) => !["date", "connection", "keep-alive"].includes(name))
      .map(([name, value]) => [name, String(value)]),
  );
  const bare = await start({ kind: "bare", canned: { status: sample.statusCode, headers, body } });
  await load(emulator.url, 1, connections); // warm-up
  await load(bare.url, 1, connections);
  const totals = { emulator: 0, bare: 0 };
  for (let round = 0; round < rounds; round += 1) {
    totals.emulator += await load(emulator.url, seconds, connections);
    totals.bare += await load(bare.url, seconds, connections);
  }
  const emulatorRate = totals.emulator / rounds;
  const bareRate = totals.bare / rounds;
  console.log(`emulator throughput, GET ${PATH} (${body.length} bytes), ${connections} connections, ${rounds} x ${seconds} s each:`);
  console.log(
    `| server | requests/s |\n|---|---|\n| bare node:http, same bytes | ${bareRate.toFixed(0)} |\n| emulator | ${emulatorRate.toFixed(0)} |`,
  );
  console.log(`ratio emulator / bare: ${(emulatorRate / bareRate).toFixed(2)} (goal >= 0.5)`);
  await Promise.all([emulator.worker.terminate(), bare.worker.terminate()]);
}

if (isMainThread) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  serve(workerData as WorkerData).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

/**
 * `npm run bench`: the client's request path against the emulator on loopback, each case next
 * to a baseline measured in the same run, so the printed ratios (not the absolute numbers,
 * which depend on the machine) are what to compare across changes.
 */
import { Agent, request } from "undici";
import { afterAll, beforeAll, test, type Bench } from "vitest";
import { routes } from "../api/routes";
import { ForgeClient } from "../provider/client";
import { dynamicFaceOf } from "../provider/runtime";
import { startWorld, type World } from "../test/contract/world";

let world: World;
let client: ForgeClient;
const fresh = new Agent({ pipelining: 0, keepAliveTimeout: 1, connections: 1 });

beforeAll(async () => {
  world = await startWorld();
  client = new ForgeClient({ baseUrl: world.emulator.url, token: world.user("root").token });
  await world.api.request(routes.groupLabels.create, { group: "acme", name: "bench", color: "red" });
  for (let index = 0; index < 250; index += 1) await world.api.request(routes.broadcastMessages.create, { message: `m${index}` });
});
afterAll(async () => {
  await fresh.close();
  await world?.close();
});

const options = { time: 1500, warmupTime: 200 };

/** Compares a candidate with its baseline in the same run and prints the throughput ratio. */
async function compare(
  bench: Bench,
  title: string,
  baseline: [string, () => Promise<void>],
  candidate: [string, () => Promise<void>],
): Promise<void> {
  const results = await bench.compare(bench(baseline[0], baseline[1]), bench(candidate[0], candidate[1]), options);
  const ratio = results.get(candidate[0]).throughput.mean / results.get(baseline[0]).throughput.mean;
  console.log(`${title}: ${candidate[0]} = ${ratio.toFixed(2)}x the throughput of ${baseline[0]}`);
}

test("GET one label: a new connection per request vs the client's keep-alive", async ({ bench }) => {
  await compare(
    bench,
    "GET one label",
    [
      "baseline: new connection per request (undici, Connection: close)",
      async () => {
        const response = await request(`${world.emulator.url}/api/v4/groups/acme/labels/bench`, {
          dispatcher: fresh,
          headers: { "private-token": world.user("root").token, connection: "close" },
        });
        await response.body.json();
      },
    ],
    [
      "pulumi-forge client (keep-alive, retry layer, typed errors)",
      async () => {
        await client.request(routes.groupLabels.get, { group: "acme", labelId: "bench" });
      },
    ],
  );
});

test("resource read: the bare GET vs the engine's read around it", async ({ bench }) => {
  await compare(
    bench,
    "resource read",
    [
      "baseline: the client GET the read needs",
      async () => {
        await client.request(routes.groupLabels.get, { group: "acme", labelId: "bench" });
      },
    ],
    [
      "engine read (GET, projection, reconcile, id)",
      async () => {
        await dynamicFaceOf("GroupLabel").read("acme:bench", { group: "acme", name: "bench", color: "red" });
      },
    ],
  );
});

test("list 250 records: default page size vs the client's list()", async ({ bench }) => {
  await compare(
    bench,
    "list 250 records",
    [
      "baseline: per_page=20 (the API default), following Link",
      async () => {
        let url: string | undefined = `${world.emulator.url}/api/v4/broadcast_messages?per_page=20`;
        while (url) {
          const response: Awaited<ReturnType<typeof request>> = await request(url, {
            headers: { "private-token": world.user("root").token },
          });
          await response.body.json();
          url = /<([^>]+)>; rel="next"/.exec(String(response.headers["link"] ?? ""))?.[1];
        }
      },
    ],
    [
      "pulumi-forge list() (per_page=100, Link rel=next)",
      async () => {
        await client.list(routes.broadcastMessages.list);
      },
    ],
  );
});

/**
 * `npm run bench:reads`: what a refresh of a group's labels costs in requests through the shared
 * listing (engine/shared-listings.ts), against the emulator in this process: 200 labels with none,
 * one and ten deleted out of band (each really gone costs its own GET, since a listing never says
 * "gone"), and 200 labels read while someone deletes 15 labels of page 1 as page 2 is held (the
 * labels that slide onto page 1 cost a GET each, and none is read as gone).
 *
 * Not a test: it prints counts and asserts nothing (test/contract/shifting-listings.test.ts does).
 */
import { startEmulator, seedToken, type RunningEmulator } from "../emulator";
import { ForgeClient } from "../provider/client";
import { routes } from "../api/routes";
import { ResourceOperations } from "../provider/engine/operations";
import { declarations } from "../provider/resources";

type Label = { id: number; name: string };

async function admin<T>(emulator: RunningEmulator, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${emulator.url}/__emulator/${route}`, {
    method,
    headers: { "private-token": seedToken("root"), "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** Reads `labels` as one refresh does (a fresh provider process, every read at once); `meanwhile` runs once page 2 is held. */
async function refresh(
  emulator: RunningEmulator,
  api: ForgeClient,
  labels: Label[],
  meanwhile?: () => Promise<void>,
): Promise<{ requests: number; gone: number }> {
  const held = meanwhile
    ? (
        await admin<{ id: number }>(emulator, "POST", "faults", {
          method: "GET",
          path: "^/groups/acme/labels$",
          query: { page: 2 },
          latencyMs: 600_000,
          times: 1,
        })
      ).id
    : undefined;
  const before = (await admin<{ seq: number }>(emulator, "GET", "requests/last")).seq;
  const operations = new ResourceOperations(declarations.groupLabel, () => api);
  const reading = Promise.all(
    labels.map((label) => operations.read(`acme:${label.id}`, { group: "acme", name: label.name, color: "#FF0000", labelId: label.id })),
  );
  if (meanwhile && held !== undefined) {
    while ((await admin<{ held: number }>(emulator, "GET", "faults")).held === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await meanwhile();
    await admin(emulator, "DELETE", `faults/${held}`);
  }
  const reads = await reading;
  const log = await admin<{ method: string }[]>(emulator, "GET", `requests?since=${before}`);
  return { requests: log.filter((entry) => entry.method === "GET").length, gone: reads.filter((read) => read.id === "").length };
}

async function main(): Promise<void> {
  console.log("| 200 labels of one group, one refresh | requests | read as gone |");
  console.log("|---|---|---|");
  for (const [title, setUp] of [
    ["none deleted", async () => {}],
    [
      "1 deleted out of band",
      async (api: ForgeClient, labels: Label[]) =>
        void (await api.request(routes.groupLabels.delete, { group: "acme", labelId: labels[50]!.id })),
    ],
    [
      "10 deleted out of band",
      async (api: ForgeClient, labels: Label[]) => {
        for (const label of labels.slice(50, 60)) await api.request(routes.groupLabels.delete, { group: "acme", labelId: label.id });
      },
    ],
    ["15 of another's deleted from page 1 while page 2 is read", undefined],
  ] as const) {
    const emulator = await startEmulator({ port: 0, requestLogSize: 10_000 });
    const api = new ForgeClient({ baseUrl: emulator.url, token: seedToken("root") });
    try {
      const make = async (prefix: string, count: number) => {
        const made: Label[] = [];
        for (let index = 0; index < count; index += 1)
          made.push(
            (
              await api.request<Label>(routes.groupLabels.create, {
                group: "acme",
                name: `${prefix}-${String(index).padStart(3, "0")}`,
                color: "#FF0000",
              })
            ).body,
          );
        return made;
      };
      const theirs = setUp ? [] : await make("a-theirs", 100);
      const labels = await make("b-ours", 200);
      if (setUp) await setUp(api, labels);
      const shift = async () => {
        for (const label of theirs.slice(0, 15)) await api.request(routes.groupLabels.delete, { group: "acme", labelId: label.id });
      };
      const { requests, gone } = await refresh(emulator, api, labels, setUp ? undefined : shift);
      console.log(`| ${title} | ${requests} | ${gone} |`);
    } finally {
      await api.close();
      await emulator.close();
    }
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

/**
 * The soak's fault run (`npm run soak -- faults`), small and seeded: creates of the mix's four
 * kinds while 20% of their requests fail (answers lost after the work, dropped connections, 429,
 * 503), on both faces. The rule of docs/ownership.md is checked create by create
 * against the emulator's log: exactly the creates whose answer was lost after the work fail, each
 * naming the one object that answer made and sending nothing more; every other create ends with
 * its object; the forge holds each resource's object once and nothing else (no orphan, no
 * duplicate).
 *
 * The same run every time, whatever the machine's load: each kind's creates run one after
 * another, and each kind has faults of its own on its own routes, POSTs apart from GETs, each
 * seeded. A kind's POSTs meet the same draws in the same order on every run and on both faces;
 * timing moves only GETs (a listing the creates share for a few seconds is read again or not),
 * whose faults cost a retry and decide nothing.
 */
import { expect, it } from "vitest";
import { faultMix, lostAnswerNames } from "../../bench/stacks";
import { routes } from "../../api/routes";
import type { State } from "../../provider/engine/declaration";
import { dynamicFaceOf } from "../../provider/runtime";
import { pluginProvider } from "../../provider/plugin/loaded";
import { pluginToken } from "../../provider/type-tokens";
import { useWorld } from "./world";

const world = useWorld();
/** Creates of each kind: enough that the seed below loses an answer after the work in each rule's kinds. */
const PER_KIND = 6;
const SEED = 2200;

interface Kind {
  type: string;
  /** The kind's routes, as a fault's path pattern (matched against the decoded path). */
  routes: string;
  /** What the kind's routes hold, as the request log shows them (encoded). */
  logged: string;
  inputs: (index: number) => State;
  /** The field that names a record (unique in the run), and the forge's records of the kind. */
  nameField: string;
  onForge: () => Promise<string[]>;
}

const KINDS: Kind[] = [
  {
    type: "GroupLabel",
    routes: "^/groups/.+/labels",
    logged: "/labels",
    inputs: (index) => ({ group: "acme", name: `fault-${index}`, color: "#aa0000" }),
    nameField: "name",
    onForge: async () =>
      (await world().api.list<{ name: string }>(routes.groupLabels.list, { group: "acme" })).map((record) => record.name),
  },
  {
    type: "BroadcastMessage",
    routes: "^/broadcast_messages",
    logged: "/broadcast_messages",
    inputs: (index) => ({ message: `fault-${index}` }),
    nameField: "message",
    onForge: async () => (await world().api.list<{ message: string }>(routes.broadcastMessages.list)).map((record) => record.message),
  },
  {
    type: "ClusterAgent",
    routes: "^/projects/.+/cluster_agents",
    logged: "/cluster_agents",
    inputs: (index) => ({ project: "acme/web", name: `fault-${index}` }),
    nameField: "name",
    onForge: async () =>
      (await world().api.list<{ name: string }>(routes.clusterAgents.list, { project: "acme/web" })).map((record) => record.name),
  },
  {
    type: "FeatureFlagUserList",
    routes: "^/projects/.+/feature_flags_user_lists",
    logged: "/feature_flags_user_lists",
    inputs: (index) => ({ project: "acme/web", name: `fault-${index}`, userXids: ["user-1"] }),
    nameField: "name",
    onForge: async () =>
      (await world().api.list<{ name: string }>(routes.featureFlagUserLists.list, { project: "acme/web" })).map((record) => record.name),
  },
];

/** A create on each face, one provider per run: the dynamic classes' operations, and the plugin's interface addressed by URN. */
const faces: Array<{ face: string; open: () => (type: string, resource: string, inputs: State) => Promise<{ id: string }> }> = [
  { face: "the dynamic classes", open: () => (type, _resource, inputs) => dynamicFaceOf(type).create(inputs) },
  {
    face: "the plugin",
    open: () => {
      const plugin = pluginProvider({ version: "0.1.0", schema: "{}" });
      return async (type, resource, inputs) => {
        const urn = `urn:pulumi:test::forge::${pluginToken(type)}::${resource}`;
        const checked = await plugin.check!(urn, {}, inputs);
        return plugin.create!(urn, checked.inputs);
      };
    },
  },
];

interface LogEntry {
  method: string;
  path: string;
  status: number;
  user: string | null;
  seq: number;
}

interface Outcome {
  kind: Kind;
  resource: string;
  name: string;
  created?: { id: string };
  error?: Error;
  /** The create's POSTs, in order, as the emulator logged them. */
  posts: LogEntry[];
}

async function admin(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await world().emulator.admin(path, init);
  expect(response.status).toBeLessThan(300);
  return response;
}

const lastSeq = async () => ((await (await admin("/requests/last")).json()) as { seq: number }).seq;

/** A POST the forge handled and whose answer it then lost (the mix's 502s are all after the work). */
const lostAfterWork = (entry: LogEntry) => entry.status === 502 && entry.user !== null;

/** Each kind's creates in turn, the kinds side by side, under the seeded faults. */
async function faultRun(create: (type: string, resource: string, inputs: State) => Promise<{ id: string }>): Promise<Outcome[]> {
  for (const [index, kind] of KINDS.entries()) {
    const faults = [
      ...faultMix(0.2, SEED + 100 * index, { method: "POST", path: kind.routes }),
      ...faultMix(0.2, SEED + 100 * index + 50, { method: "GET", path: kind.routes }),
    ];
    for (const fault of faults)
      await admin("/faults", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(fault) });
  }
  const runs = await Promise.all(
    KINDS.map(async (kind) => {
      const outcomes: (Omit<Outcome, "posts"> & { since: number; until: number })[] = [];
      for (let index = 0; index < PER_KIND; index += 1) {
        const inputs = kind.inputs(index);
        const resource = `${kind.type}-${index}`;
        const since = await lastSeq();
        const result = await create(kind.type, resource, inputs).then(
          (created) => ({ created }),
          (error: unknown) => ({ error: error as Error }),
        );
        outcomes.push({ kind, resource, name: String(inputs[kind.nameField]), ...result, since, until: await lastSeq() });
      }
      return outcomes;
    }),
  );
  await admin("/faults", { method: "DELETE" });
  const log = (await (await admin("/requests")).json()) as LogEntry[];
  return runs.flat().map(({ since, until, ...outcome }) => ({
    ...outcome,
    posts: log.filter(
      (entry) => entry.method === "POST" && entry.path.includes(outcome.kind.logged) && entry.seq > since && entry.seq <= until,
    ),
  }));
}

/** The name of the record an import id addresses, read as `pulumi import` reads it. */
async function nameAt(kind: Kind, id: string): Promise<unknown> {
  const found = await dynamicFaceOf(kind.type).read(id, {});
  return (found.props as State | undefined)?.[kind.nameField];
}

const failedBy = new Map<string, string[]>();

for (const { face, open } of faces) {
  it(`${face}: under 20% failing requests, exactly the creates whose answer was lost after the work fail, each naming its own object; no orphan, no duplicate`, async () => {
    const outcomes = await faultRun(open());
    for (const outcome of outcomes) {
      const what = `${outcome.resource} (POSTs: ${outcome.posts.map((post) => post.status).join(", ")})`;
      const lost = outcome.posts.findIndex(lostAfterWork);
      if (lost < 0) {
        // Answered, or refused before any work (a drop, a 503, a 429) and sent again: it holds its object.
        expect(outcome.error?.message, what).toBeUndefined();
        expect(await nameAt(outcome.kind, outcome.created!.id), what).toBe(outcome.name);
        continue;
      }
      // The forge made the object and the answer was lost: nothing more is sent, nothing is
      // adopted, and the error names that object and only it.
      expect(lost, `${what}: nothing sent after the lost answer`).toBe(outcome.posts.length - 1);
      expect(outcome.created, `${what}: adopted what it cannot prove it made`).toBeUndefined();
      expect(outcome.error?.message, what).toMatch(/the answer to the create was lost .*Nothing was adopted, revoked or deleted/);
      const named = lostAnswerNames(outcome.error!.message);
      expect(named, what).toHaveLength(1);
      expect(await nameAt(outcome.kind, named[0]!), what).toBe(outcome.name);
    }
    // On the forge, each resource's object once (held or named), and nothing else.
    for (const kind of KINDS) {
      const names = (await kind.onForge()).filter((name) => name.startsWith("fault-")).sort();
      expect(names, kind.type).toEqual(Array.from({ length: PER_KIND }, (_, index) => String(kind.inputs(index)[kind.nameField])).sort());
    }
    // The run shows what it claims (the seed decides, the same on every run): answers lost after
    // the work for a kind of a unique identity and for one nothing identifies, and creates refused
    // before any work that were sent again.
    const failed = outcomes.filter((outcome) => outcome.posts.some(lostAfterWork));
    expect(failed.filter((outcome) => outcome.kind.type === "BroadcastMessage").length).toBeGreaterThan(0);
    expect(failed.filter((outcome) => outcome.kind.type !== "BroadcastMessage").length).toBeGreaterThan(0);
    const resent = outcomes.filter((outcome) => !outcome.error && outcome.posts.some((post) => post.status === 0 || post.status === 503));
    expect(resent.length).toBeGreaterThan(0);
    failedBy.set(face, failed.map((outcome) => outcome.resource).sort());
  }, 120_000);
}

it("both faces met the same run: the same creates failed", () => {
  const [first, second] = faces.map(({ face }) => failedBy.get(face));
  expect(first, "each face's run ended").toBeDefined();
  expect(second).toEqual(first);
});

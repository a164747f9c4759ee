/**
 * Rotation on both faces against the emulator, its clock moved by its admin route:
 * due and not due on the forge's clock, `current` and `previous` active on the forge after each
 * step (never more than the agent's two tokens), a token made by hand that blocks with its import
 * id, a token revoked by hand that refresh sees, and two racing rotations of which exactly one
 * rotates. The life cycle every kind passes (create, refresh, delete, dropped inputs, secrets
 * marked) runs in life-cycle.test.ts; the real engine's runs in test/cli/rotation.test.ts.
 * forge-drift's "rotation due" section, before and after rotateAfter, from a state's outputs.
 */
import { execFile } from "node:child_process";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { leftoverCredentials, revokeOnWord } from "../../cli/recover-rotation";
import { formatRotationDue, rotationsDue } from "../../cli/rotation-due";
import type { State } from "../../provider/engine/declaration";
import { pulumiSdk } from "../../provider/pulumi-sdk";
import { typeTokenOf } from "../../provider/type-tokens";
import { checked, FACES, type Face, type Written } from "./support/faces";
import { useWorld } from "./world";

const world = useWorld();
const HOUR = 3_600_000;
const TYPE = "RotatingClusterAgentToken";

afterEach(() => vi.restoreAllMocks());

async function admin(path: string, method = "GET", body?: unknown): Promise<Response> {
  const response = await world().emulator.admin(path, {
    method,
    headers: { "content-type": "application/json" },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status).toBeLessThan(300);
  return response;
}

/** Moves the forge's clock on (the emulator's admin route). */
const advance = (ms: number) => admin("/clock", "POST", { advance_ms: ms });

const newAgent = async (name: string) =>
  (await world().api.request<{ id: number }>("POST", "/projects/:project/cluster_agents", { project: "acme/web", name })).body.id;
const activeTokens = async (agentId: number) =>
  (await world().api.list<{ id: number }>("/projects/:project/cluster_agents/:agentId/tokens", { project: "acme/web", agentId }))
    .map((token) => token.id)
    .sort((a, b) => a - b);
const held = (outs: State, slot: "current" | "previous") => (outs[slot] as State | undefined)?.["tokenId"] as number | undefined;
const heldIds = (outs: State) =>
  [held(outs, "previous"), held(outs, "current")].filter((id): id is number => id !== undefined).sort((a, b) => a - b);

/** One `pulumi up` of the resource on a face: check, diff, and the update when the diff asks for one. */
async function up(face: Face, state: Written, sent: State, inputs: State): Promise<{ state: Written; sent: State; rotated: boolean }> {
  const news = await checked(face, TYPE, sent, inputs);
  const diff = await face.diff(TYPE, state.id, state.outs, news);
  if (!diff.changes) return { state, sent: news, rotated: false };
  expect(diff.replaces).toEqual([]);
  return { state: await face.update(TYPE, state.id, state.outs, news), sent: news, rotated: true };
}

/**
 * A forge whose answers carry a `Date` header `skewMs` off its application's clock, as a reverse
 * proxy or an ingress on another machine writes it: everything else is the emulator's.
 */
async function skewedForge(target: string, skewMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const upstream = httpRequest(`${target}${request.url ?? "/"}`, { method: request.method, headers: request.headers }, (answer) => {
      const headers = { ...answer.headers, date: new Date(Date.parse(String(answer.headers["date"])) + skewMs).toUTCString() };
      response.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(response);
    });
    request.pipe(upstream);
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((closed) => server.close(() => closed())),
  };
}

/** Messages the engine logs (Pulumi's log; at preview, the diff's). */
function logged(): string[] {
  const messages: string[] = [];
  for (const level of ["info", "warn"] as const)
    vi.spyOn(pulumiSdk().log, level).mockImplementation(async (message: string) => void messages.push(message));
  return messages;
}

for (const face of FACES) {
  describe(face.name, () => {
    it("rotates when rotateAfter has passed on the forge's clock, not before; a run with nothing due writes nothing; current and previous stay active, never more than two", async () => {
      const agentId = await newAgent("scheduled");
      const inputs = { project: "acme/web", agentId, name: "deploy", rotateAfter: "1h" };
      let sent = await checked(face, TYPE, {}, inputs);
      let state = await face.create(TYPE, sent);
      const first = held(state.outs, "current")!;
      expect(await activeTokens(agentId)).toEqual([first]);
      expect(state.outs["rotationDueAt"]).toBe(
        new Date(Date.parse((state.outs["current"] as State)["issuedAt"] as string) + HOUR).toISOString(),
      );

      // 59 minutes on: not due. The refresh's read (what `up --refresh` does) hears the forge's clock.
      await advance(59 * 60_000);
      state = await face.read(TYPE, state.id, state.outs);
      const writes = await world().writeCount();
      let step = await up(face, state, sent, inputs);
      expect(step.rotated).toBe(false);
      expect(await world().writeCount(), "nothing due, nothing written").toBe(writes);

      // Two more minutes: due. Preview says so, and since when; the update rotates.
      await advance(2 * 60_000);
      state = await face.read(TYPE, state.id, state.outs);
      const messages = logged();
      step = await up(face, state, sent, inputs);
      expect(step.rotated).toBe(true);
      expect(messages.join("\n")).toMatch(
        new RegExp(
          `rotation due since ${String(state.outs["rotationDueAt"]).replace(/[.]/g, "\\.")} .*the update makes a new token, keeps token ${first} as previous`,
        ),
      );
      [state, sent] = [step.state, step.sent];
      const second = held(state.outs, "current")!;
      expect(held(state.outs, "previous")).toBe(first);
      expect(await activeTokens(agentId)).toEqual([first, second]);

      // An hour later (and a minute: the Date header has whole seconds): the oldest goes before
      // the new one comes (the agent never holds three).
      await advance(HOUR + 60_000);
      state = await face.read(TYPE, state.id, state.outs);
      const log = (await (await admin("/requests")).json()) as { method: string; path: string }[];
      const before = log.length;
      step = await up(face, state, sent, inputs);
      [state, sent] = [step.state, step.sent];
      expect(held(state.outs, "previous")).toBe(second);
      expect(await activeTokens(agentId)).toEqual(heldIds(state.outs));
      const writesOfRotation = ((await (await admin("/requests")).json()) as { method: string; path: string }[])
        .slice(before)
        .filter((entry) => entry.method !== "GET");
      expect(writesOfRotation.map((entry) => entry.method)).toEqual(["DELETE", "POST"]);
      expect(writesOfRotation[0]!.path).toMatch(new RegExp(`/tokens/${first}$`));

      // Destroy revokes both.
      await face.delete(TYPE, state.id, state.outs);
      expect(await activeTokens(agentId)).toEqual([]);
    });

    it("one object written two ways is one object: the project by its id where the state has its path is no change, no replacement, no rotation", async () => {
      const agentId = await newAgent("respelled");
      const inputs = { project: "acme/web", agentId, name: "deploy", rotateAfter: "720h" };
      const sent = await checked(face, TYPE, {}, inputs);
      const state = await face.create(TYPE, sent);
      const byId = { ...inputs, project: String(world().projectId("acme/web")) };
      const writes = await world().writeCount();
      const step = await up(face, state, sent, byId);
      expect(step.rotated).toBe(false);
      expect(await world().writeCount()).toBe(writes);
      // The other way round too; a project that is another one still replaces.
      const other = await face.diff(TYPE, state.id, { ...state.outs, project: String(world().projectId("acme/web")) }, sent);
      expect(other).toMatchObject({ changes: false, replaces: [] });
      const moved = await face.diff(
        TYPE,
        state.id,
        state.outs,
        await checked(face, TYPE, sent, { ...inputs, project: String(world().projectId("acme/platform/deployer")) }),
      );
      expect(moved.replaces).toEqual(["project"]);
      await face.delete(TYPE, state.id, state.outs);
    });

    for (const skew of [2 * HOUR, -2 * HOUR])
      it(`measures the age on one clock: with the Date header ${skew > 0 ? "two hours ahead of" : "two hours behind"} the forge's application, the token rotates after rotateAfter, not at every up nor never`, async () => {
        const proxy = await skewedForge(world().emulator.url, skew);
        process.env["FORGE_BASE_URL"] = proxy.url;
        try {
          const agentId = await newAgent(`skewed${skew > 0 ? "ahead" : "behind"}`);
          const inputs = { project: "acme/web", agentId, name: "deploy", rotateAfter: "1h" };
          const sent = await checked(face, TYPE, {}, inputs);
          let state = await face.create(TYPE, sent);
          expect(Date.parse(String((state.outs["current"] as State)["issuedAt"]))).toBeGreaterThan(Date.now() + skew - 60_000);
          let step = await up(face, state, sent, inputs);
          expect(step.rotated, "not due right after its create").toBe(false);
          await advance(HOUR + 60_000);
          state = await face.read(TYPE, state.id, state.outs);
          step = await up(face, state, sent, inputs);
          expect(step.rotated, "due an hour later").toBe(true);
          await face.delete(TYPE, step.state.id, step.state.outs);
        } finally {
          world().actAs("root");
          await proxy.close();
        }
      });

    it("refuses in check a rotateAfter past ten years, naming the field, before any request (its due time could not be computed)", async () => {
      const writes = await world().writeCount();
      for (const rotateAfter of ["100000000d", "3651d", `${"9".repeat(400)}h`]) {
        const result = await face.check(TYPE, {}, { project: "acme/web", agentId: 1, name: "deploy", rotateAfter });
        // As the engine gets it: the field leads the reason.
        expect(result.failures?.map((failure) => failure.reason)).toEqual([expect.stringMatching(/^rotateAfter: .*longer than ten years/)]);
      }
      expect(
        (await face.check(TYPE, {}, { project: "acme/web", agentId: 1, name: "deploy", rotateAfter: "3650d" })).failures ?? [],
      ).toEqual([]);
      expect(await world().writeCount()).toBe(writes);
    });

    it("forge-drift's rotation due: nothing before rotateAfter on the forge's clock (no section); after, the resource, due since when and why, apart from drift", async () => {
      const agentId = await newAgent("reported");
      const created = await face.create(
        TYPE,
        await checked(face, TYPE, {}, { project: "acme/web", agentId, name: "deploy", rotateAfter: "1h" }),
      );
      const type = typeTokenOf(face.name, TYPE);
      // The state as forge-drift reads it from `pulumi stack export --show-secrets`.
      const state = [{ urn: `urn:pulumi:rotation::forge-rotation::${type}::agentTokens`, type, outputs: created.outs }];
      const warnings: string[] = [];
      const due = () =>
        rotationsDue(
          state,
          async () => world().api,
          (message) => void warnings.push(message),
        );

      await advance(30 * 60_000);
      expect(await due()).toEqual([]);
      expect(formatRotationDue("rotation", await due(), "text")).toBe("");

      await advance(31 * 60_000);
      const dueAt = String(created.outs["rotationDueAt"]);
      const reason = `current token issued ${String((created.outs["current"] as State)["issuedAt"])}, rotateAfter 1h`;
      expect(await due()).toEqual([{ name: "agentTokens", type, urn: state[0]!.urn, dueAt, reason }]);
      expect(formatRotationDue("rotation", await due(), "text")).toBe(
        `Rotation due in stack rotation (not drift; the next pulumi up rotates): 1 resource\n  agentTokens (RotatingClusterAgentToken): due since ${dueAt} (${reason})\n`,
      );
      expect(warnings).toEqual([]);
    });

    it("a rotation whose create's answer is lost says this run may have made the new token and revokes nothing; forge-recover names it and revokes it on the user's word; the next rotation goes through", async () => {
      const agentId = await newAgent("lost-answer");
      const inputs = { project: "acme/web", agentId, name: "deploy", rotateAfter: "1h" };
      const sent = await checked(face, TYPE, {}, inputs);
      let state = await face.create(TYPE, sent);
      const first = held(state.outs, "current")!;
      await advance(HOUR + 60_000);
      state = await face.read(TYPE, state.id, state.outs);
      // The forge makes the token, and its answer never arrives.
      await admin("/faults", "POST", { method: "POST", path: "/cluster_agents/\\d+/tokens$", after: true, drop: true, times: 1 });
      const failure = await up(face, state, sent, inputs).then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      await admin("/faults", "DELETE");
      const tokens = await activeTokens(agentId);
      const made = tokens.find((id) => id !== first)!;
      expect(tokens).toEqual([first, made]);
      const madeId = `acme/web:${agentId}:${made}`;
      expect(failure).toMatch(
        new RegExp(
          `answer to the create of its new token was lost, and the forge now holds token ${made} \\(import id ${madeId}.*this run may have made it`,
        ),
      );
      expect(failure).toContain(`--revoke <resource name>=${madeId}`);
      expect(failure).not.toMatch(/another rotation at the same time made/);

      // forge-recover's way out: the leftover is named; a token the resource holds is refused; the leftover is revoked on the word.
      const holding = { name: "agentTokens", type: typeTokenOf(face.name, TYPE), outputs: state.outs };
      const claimed = new Set([`ClusterAgentToken acme/web:${agentId}:${first}`]);
      expect((await leftoverCredentials(holding, world().api, claimed)).map((leftover) => leftover.importId)).toEqual([madeId]);
      await expect(revokeOnWord(holding, `acme/web:${agentId}:${first}`, world().api, claimed, false)).rejects.toThrow(/nothing revoked/);
      expect(await revokeOnWord(holding, madeId, world().api, claimed, false)).toMatch(new RegExp(`^revoked token ${made} `));
      expect(await activeTokens(agentId)).toEqual([first]);

      const step = await up(face, state, sent, inputs);
      expect(step.rotated).toBe(true);
      expect(held(step.state.outs, "previous")).toBe(first);
      await face.delete(TYPE, step.state.id, step.state.outs);
    });

    it("a token of the agent made by hand, after the resource's, blocks the rotation with an error naming its import id; nothing is revoked or made", async () => {
      const agentId = await newAgent("hand-made");
      const inputs = { project: "acme/web", agentId, name: "deploy", keepers: { quarter: "Q1" } };
      const sent = await checked(face, TYPE, {}, inputs);
      const state = await face.create(TYPE, sent);
      const theirs = (
        await world().as("max").request<{ id: number }>("POST", "/projects/:project/cluster_agents/:agentId/tokens", {
          project: "acme/web",
          agentId,
          name: "by hand",
        })
      ).body.id;
      const writes = await world().writeCount();
      const error = await up(face, state, sent, { ...inputs, keepers: { quarter: "Q2" } }).then(
        () => undefined,
        (caught: unknown) => caught as Error & { candidates?: string[] },
      );
      expect(error?.message).toMatch(
        new RegExp(
          `did not rotate \\(keepers changed\\): the forge holds token ${theirs} \\(import id acme/web:${agentId}:${theirs}, named "by hand" made \\S+ by user \\d+\\)`,
        ),
      );
      expect(error?.message).toContain("Nothing was revoked or made");
      expect(error?.candidates).toEqual([`acme/web:${agentId}:${theirs}`]);
      expect(await world().writeCount()).toBe(writes);
      expect(await activeTokens(agentId)).toEqual([held(state.outs, "current"), theirs]);
    });

    it("refresh sees a token revoked by hand: the slot empties with a warning, and the next up makes a new current beside the previous", async () => {
      const agentId = await newAgent("revoked");
      const inputs = { project: "acme/web", agentId, name: "deploy", keepers: { quarter: "Q1" } };
      let step = await up(face, await face.create(TYPE, await checked(face, TYPE, {}, inputs)), await checked(face, TYPE, {}, inputs), {
        ...inputs,
        keepers: { quarter: "Q2" },
      });
      const [previous, current] = [held(step.state.outs, "previous")!, held(step.state.outs, "current")!];
      await world().api.request("DELETE", "/projects/:project/cluster_agents/:agentId/tokens/:tokenId", {
        project: "acme/web",
        agentId,
        tokenId: current,
      });
      const messages = logged();
      const refreshed = await face.read(TYPE, step.state.id, step.state.outs);
      expect(messages.join("\n")).toContain(
        `its current token ${current} is gone (revoked outside the stack); the next update makes a new one`,
      );
      expect(refreshed.outs["current"]).toBeUndefined();
      expect(refreshed.outs["currentToken"]).toBeUndefined();
      expect(held(refreshed.outs, "previous")).toBe(previous);
      step = await up(face, refreshed, step.sent, { ...inputs, keepers: { quarter: "Q2" } });
      expect(step.rotated).toBe(true);
      expect(held(step.state.outs, "previous")).toBe(previous);
      expect(await activeTokens(agentId)).toEqual(heldIds(step.state.outs));
      expect(step.state.outs["currentToken"]).toEqual(expect.any(String));
    });

    it("two rotations at once, in two provider processes: the one whose token the forge made later stops, naming the other's, and exactly one rotated", async () => {
      const agentId = await newAgent("racing");
      const inputs = { project: "acme/web", agentId, name: "deploy", keepers: { quarter: "Q1" } };
      const created = await face.create(TYPE, await checked(face, TYPE, {}, inputs));
      const rotated = await up(face, created, await checked(face, TYPE, {}, inputs), { ...inputs, keepers: { quarter: "Q2" } });
      const olds = rotated.state.outs;
      const next = { ...inputs, keepers: { quarter: "Q3" } };
      // The other pipeline's create waits at the forge until this one has rotated.
      const hold = (await (
        await admin("/faults", "POST", { method: "POST", path: "/cluster_agents/\\d+/tokens$", latencyMs: 60_000, times: 1 })
      ).json()) as { id: number };
      const other = elsewhere({ type: TYPE, inputs: next, update: { id: rotated.state.id, olds } });
      const started = Date.now();
      while (((await (await admin("/faults")).json()) as { held: number }).held === 0 && Date.now() - started < 30_000) await sleep(25);
      const mine = await up(face, rotated.state, rotated.sent, next);
      expect(mine.rotated).toBe(true);
      await admin(`/faults/${hold.id}`, "DELETE");
      const outcome = await other;
      const winner = held(mine.state.outs, "current")!;
      expect(outcome.ok).toBe(false);
      expect(outcome.name).toBe("RotationBlockedError");
      expect(outcome.message).toMatch(
        new RegExp(
          `another rotation at the same time made token ${winner} \\(import id acme/web:${agentId}:${winner}.*\\), and the forge refused this run's new token \\(.*only two active tokens`,
        ),
      );
      expect(outcome.candidates).toEqual([`acme/web:${agentId}:${winner}`]);
      expect(await activeTokens(agentId)).toEqual(heldIds(mine.state.outs));
    });
  });
}

describe("error tracking client keys", () => {
  const KEYS = "RotatingErrorTrackingClientKey";
  const activeKeys = async () =>
    (await world().api.list<{ id: number }>("/projects/:project/error_tracking/client_keys", { project: "acme/web" }))
      .map((key) => key.id)
      .sort((a, b) => a - b);
  const keyIds = (outs: State) =>
    ["previous", "current"]
      .map((slot) => (outs[slot] as State | undefined)?.["keyId"] as number | undefined)
      .filter((id) => id !== undefined)
      .sort((a, b) => a! - b!);

  it("two rotations at once (no forge limit): the later key's run revokes its own key and stops; the other's keys are the project's", async () => {
    const face = FACES[1]!;
    const inputs = { project: "acme/web", keepers: { quarter: "Q1" } };
    const created = await face.create(KEYS, await checked(face, KEYS, {}, inputs));
    const sent = await checked(face, KEYS, {}, inputs);
    const next = { ...inputs, keepers: { quarter: "Q2" } };
    const hold = (await (
      await admin("/faults", "POST", { method: "POST", path: "/error_tracking/client_keys$", latencyMs: 60_000, times: 1 })
    ).json()) as { id: number };
    const other = elsewhere({ type: KEYS, inputs: next, update: { id: created.id, olds: created.outs } });
    const started = Date.now();
    while (((await (await admin("/faults")).json()) as { held: number }).held === 0 && Date.now() - started < 30_000) await sleep(25);
    const news = await checked(face, KEYS, sent, next);
    const mine = await face.update(KEYS, created.id, created.outs, news);
    await admin(`/faults/${hold.id}`, "DELETE");
    const outcome = await other;
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toMatch(
      /another rotation at the same time made key \d+ \(import id acme\/web:\d+\), before this run's new key \d+, which this run revoked again/,
    );
    expect(await activeKeys()).toEqual(keyIds(mine.outs));
    // A key has no creation time on the forge: its createdAt is the forge's Date when it answered.
    expect(Date.parse((mine.outs["current"] as State)["createdAt"] as string)).toBeGreaterThan(0);
  });
});

/** Runs one update in a second provider process, as another pipeline's `pulumi up` would. */
function elsewhere(job: {
  type: string;
  inputs: State;
  update: { id: string; olds: State };
}): Promise<{ ok: boolean; name?: string; message?: string; candidates?: string[] }> {
  const script = join(__dirname, "..", "..", "dist", "test", "contract", "support", "create-elsewhere.js");
  const env = { ...process.env, FORGE_BASE_URL: world().emulator.url, FORGE_TOKEN: world().user("root").token };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [script, JSON.stringify(job)], { env }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split("\n").pop()!) as { ok: boolean; name?: string; message?: string; candidates?: string[] });
    });
  });
}

/**
 * The tools treat both faces alike: the same resources declared in a TypeScript program (the
 * dynamic classes, `pulumi-nodejs:dynamic/forge:*`) and in a Pulumi YAML program (the plugin,
 * `forge:index:*`), on one forge, give the same `forge-drift` report and the same
 * `forge-recover` decisions, once the names that differ by design are put aside (the type token,
 * the URN, the objects' ids and the prefix each stack gives its objects' names). Out of band:
 * a declared description changed (drift), a label deleted (drift), a description the program
 * never set (not drift), a snippet's title changed (drift). A killed run is the state it leaves:
 * pending creates in `pending_operations`, one whose object the forge has (recover lists it and
 * adopts it only when told) and one it never made (recover clears it). The declared description
 * is a secret of the program: no report of either tool, on either face, prints it or the value
 * set by hand in its place.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { cliProject, PLUGIN_DIR, rootApi, type CliProject } from "../e2e/cli-project";
import { REPO_ROOT, skipEngineTests } from "../e2e/harness";

const DRIFT_BIN = join(REPO_ROOT, "dist", "cli", "forge-drift.js");
const RECOVER_BIN = join(REPO_ROOT, "dist", "cli", "forge-recover.js");
const FACES = ["ts", "yaml"] as const;
/** The declared description, a secret of the program, and the one set by hand in its place. */
const SECRET_DESCRIPTION = "parity-secret-description-2b9d";
const BY_HAND = "parity-changed-by-hand-e41c";
type Face = (typeof FACES)[number];

/** The program of each face: the same resources, names prefixed by the face. */
function program(face: Face): Record<string, string> {
  if (face === "ts") {
    return {
      "Pulumi.yaml": "name: parity-ts\nruntime: nodejs\n",
      "index.js": `const pulumi = require("@pulumi/pulumi");
const forge = require("pulumi-forge");
new forge.GroupLabel("changed", { group: "acme", name: "ts-changed", color: "#FF0000", description: pulumi.secret("${SECRET_DESCRIPTION}") });
new forge.GroupLabel("deleted", { group: "acme", name: "ts-deleted", color: "#00FF00" });
new forge.GroupLabel("quiet", { group: "acme", name: "ts-quiet", color: "#00FFFF" });
new forge.Snippet("notes", { title: "ts-notes", visibility: "private", files: [{ filePath: "a.md", content: "hello\\n" }] });
`,
    };
  }
  return {
    "Pulumi.yaml": `name: parity-yaml
runtime: yaml
plugins:
  providers:
    - name: forge
      path: ${PLUGIN_DIR}
resources:
  changed:
    type: forge:index:GroupLabel
    properties: { group: acme, name: yaml-changed, color: "#FF0000", description: { fn::secret: ${SECRET_DESCRIPTION} } }
  deleted:
    type: forge:index:GroupLabel
    properties: { group: acme, name: yaml-deleted, color: "#00FF00" }
  quiet:
    type: forge:index:GroupLabel
    properties: { group: acme, name: yaml-quiet, color: "#00FFFF" }
  notes:
    type: forge:index:Snippet
    properties:
      title: yaml-notes
      visibility: private
      files:
        - filePath: a.md
          content: "hello\\n"
`,
  };
}

describe.skipIf(skipEngineTests())("forge-drift and forge-recover on a TypeScript stack and a YAML stack of the same resources", () => {
  let emulator: RunningEmulator;
  const projects = {} as Record<Face, CliProject>;

  const api = rootApi(() => emulator.url);
  const labelId = async (name: string) =>
    (await api<{ id: number; name: string }[]>("GET", "/groups/acme/labels?per_page=100")).find((label) => label.name === name)?.id;

  /** A bin of ours run on a face's stack, as a pipeline runs it: what it prints never holds the secret. */
  const tool = (bin: string, face: Face, args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [bin, "--cwd", projects[face].dir, "--stack", "test", ...args],
        { env: projects[face].env },
        (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
      );
    }).then((run) => {
      for (const secret of [SECRET_DESCRIPTION, BY_HAND])
        expect(`${run.stdout}\n${run.stderr}`, `${face}: a secret in the output`).not.toContain(secret);
      return run;
    });

  /** A text with what differs by design between the faces put aside. */
  const neutral = (text: string, face: Face, ids: Record<string, string>) => {
    let result = text
      .replaceAll(`parity-${face}`, "<project>")
      .replaceAll(/pulumi-nodejs:dynamic\/forge:|forge:index:/g, "<forge>:")
      .replaceAll(`${face}-`, "<face>-");
    for (const [id, name] of Object.entries(ids)) result = result.replaceAll(id, `<${name}>`);
    return result;
  };

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    for (const face of FACES) {
      projects[face] = await cliProject({
        name: `parity-${face}`,
        from: program(face),
        nodeModules: face === "ts",
        config: { "forge:baseUrl": { value: emulator.url }, "forge:token": { value: seedToken("root"), secret: true } },
      });
    }
    await Promise.all(FACES.map((face) => projects[face].ok(["up", "--yes", "--skip-preview"])));
  }, 600_000);
  afterAll(async () => {
    await emulator?.close();
    for (const face of FACES) projects[face]?.close();
  });

  /** The import ids of each face's objects, by resource name, for {@link neutral}. */
  const idsOf = async (face: Face): Promise<Record<string, string>> =>
    Object.fromEntries(
      (await projects[face].resources())
        .filter((resource) => resource.id)
        .map((resource) => [resource.id!, `${resource.urn.split("::").pop()!} import id`]),
    );

  it("forge-drift reports the same drift on both stacks", async () => {
    const ids = { ts: await idsOf("ts"), yaml: await idsOf("yaml") };
    for (const face of FACES) {
      await api("PUT", `/groups/acme/labels/${await labelId(`${face}-changed`)}`, { description: BY_HAND });
      await api("DELETE", `/groups/acme/labels/${await labelId(`${face}-deleted`)}`);
      await api("PUT", `/groups/acme/labels/${await labelId(`${face}-quiet`)}`, { description: "never set by the program" });
      const snippet = (await api<{ id: number; title: string }[]>("GET", "/snippets")).find(
        (candidate) => candidate.title === `${face}-notes`,
      )!;
      await api("PUT", `/snippets/${snippet.id}`, { title: `${face}-notes renamed` });
    }
    const runs = await Promise.all(FACES.map((face) => tool(DRIFT_BIN, face, ["--format", "json"])));
    const reports = FACES.map((face, index) => {
      const run = runs[index]!;
      expect(run.code, `${face}: ${run.stdout}\n${run.stderr}`).toBe(2);
      return JSON.parse(neutral(run.stdout, face, ids[face])) as {
        stack: string;
        drifted: { name: string; drift: string; fields: { field: string }[] }[];
      };
    });
    expect(reports[0]).toEqual(reports[1]);
    // What the report says, once: the declared description and the deleted label and the
    // snippet's title; the description the program never set is not drift.
    const drifted = reports[0]!.drifted
      .map((entry) => `${entry.name} ${entry.drift} ${entry.fields.map((field) => field.field).join(",")}`)
      .sort();
    expect(drifted).toEqual(["changed changed description", "deleted deleted ", "notes changed title"]);
    // The text format too, line for line.
    const texts = await Promise.all(FACES.map((face) => tool(DRIFT_BIN, face, [])));
    expect(neutral(texts[0]!.stdout, "ts", ids.ts)).toBe(neutral(texts[1]!.stdout, "yaml", ids.yaml));
  }, 300_000);

  it("forge-recover makes the same decisions on the pending creates a killed run leaves on each stack", async () => {
    const claim = new Date(Date.now() - 1_000).toISOString();
    const made: Record<Face, number> = { ts: 0, yaml: 0 };
    for (const face of FACES) {
      // The state a run killed during two creates leaves: one object the forge made (after the
      // claim, by this user), one it never received.
      made[face] = (await api<{ id: number }>("POST", "/groups/acme/labels", { name: `${face}-pending`, color: "#123456" })).id;
      // Written into the file backend's checkpoint, as the killed run leaves it (`pulumi stack
      // import` would drop pending operations).
      const checkpointFile = join(projects[face].work, "backend", ".pulumi", "stacks", `parity-${face}`, "test.json");
      const checkpoint = JSON.parse(readFileSync(checkpointFile, "utf8")) as {
        checkpoint: { latest: { resources: Record<string, unknown>[]; pending_operations?: unknown[] } };
      };
      const state = checkpoint.checkpoint.latest;
      const label = state.resources.find((resource) => String(resource["urn"]).endsWith("::changed"))!;
      const pending = (name: string) => ({
        type: "creating",
        resource: {
          urn: String(label["urn"]).replace(/::changed$/, `::${name}`),
          custom: true,
          type: label["type"],
          parent: label["parent"],
          provider: label["provider"],
          inputs: {
            ...(face === "ts" ? { __provider: (label["inputs"] as Record<string, unknown>)["__provider"] } : {}),
            group: "acme",
            name: `${face}-${name}`,
            color: "#123456",
            __createdAfter: claim,
          },
        },
      });
      state.pending_operations = [pending("pending"), pending("never")];
      writeFileSync(checkpointFile, JSON.stringify(checkpoint));
    }
    const ids = (face: Face) => ({ [`acme:${made[face]}`]: "pending import id" });

    const listed = await Promise.all(FACES.map((face) => tool(RECOVER_BIN, face, [])));
    for (const [index, face] of FACES.entries())
      expect(listed[index]!.code, `${face}: ${listed[index]!.stdout}\n${listed[index]!.stderr}`).toBe(2);
    expect(neutral(listed[0]!.stdout, "ts", ids("ts"))).toBe(neutral(listed[1]!.stdout, "yaml", ids("yaml")));
    expect(listed[1]!.stdout).toMatch(new RegExp(`decide {2}pending: .*candidates: acme:${made.yaml}`));
    expect(listed[1]!.stdout).toMatch(/clear {3}never: nothing on the forge/);
    // An undecided create keeps its evidence: nothing is written while one is left (a state
    // written through `pulumi stack import` loses every pending operation).
    for (const face of FACES) {
      const state = JSON.parse(await projects[face].exportText()) as { deployment: { pending_operations?: unknown[] } };
      expect(state.deployment.pending_operations).toHaveLength(2);
    }

    const adopted = await Promise.all(FACES.map((face) => tool(RECOVER_BIN, face, ["--adopt", `pending=acme:${made[face]}`])));
    for (const [index, face] of FACES.entries())
      expect(adopted[index]!.code, `${face}: ${adopted[index]!.stdout}\n${adopted[index]!.stderr}`).toBe(0);
    expect(neutral(adopted[0]!.stdout, "ts", ids("ts"))).toBe(neutral(adopted[1]!.stdout, "yaml", ids("yaml")));
    for (const face of FACES) {
      const state = JSON.parse(await projects[face].exportText()) as {
        deployment: { resources: { urn: string; id?: string }[]; pending_operations?: unknown[] };
      };
      expect(state.deployment.pending_operations ?? []).toEqual([]);
      expect(state.deployment.resources.find((resource) => resource.urn.endsWith("::pending"))?.id).toBe(`acme:${made[face]}`);
    }
  }, 300_000);
});

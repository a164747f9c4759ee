/**
 * Moving a stack between the faces through the real engine: a TypeScript program on the dynamic
 * classes (`pulumi-nodejs:dynamic/forge:*`) switched to `pulumi-forge/plugin` (`forge:index:*`)
 * and back, each way with `aliasOtherFace()` first in the program. A label with a secret input,
 * an agent token (a secret output the forge shows only once) and an integration with a write-only
 * secret: the move's `up` sends no write to the forge and keeps every id and the token's value,
 * the state holds no secret in plain text, and the refresh and preview after it are clean
 * (docs/guides/moving-between-faces.md). Without the aliases the engine would create the
 * resources anew and delete the old ones; without the update of the way back, the dynamic
 * provider could not read or delete what the plugin face left in the state.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { seedToken, startEmulator, type RunningEmulator } from "../../emulator";
import { cliProject, PLUGIN_DIR, type CliProject } from "./cli-project";
import { engineTestDecision, pulumiInstalled } from "./harness";
import { parseTypeToken } from "../../provider/type-tokens";

const DESCRIPTION = "face-move-secret-description-3c9e";
const WEBHOOK = "https://hooks.example/T0/B0/face-move-webhook-51d0";
let emulator: RunningEmulator;
let project: CliProject;

const program = `const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config();
const forge = require(config.require("face") === "plugin" ? "pulumi-forge/plugin" : "pulumi-forge");
forge.aliasOtherFace();
new forge.GroupLabel("bug", { group: "acme", name: "bug", color: "red", description: config.requireSecret("description") });
const agent = new forge.ClusterAgent("agent", { project: "acme/platform/deployer", name: "production" });
const token = new forge.ClusterAgentToken("token", { project: "acme/platform/deployer", agentId: agent.agentId, name: "primary" });
new forge.GroupIntegrationChatWebhook("chat", { group: "acme", webhook: config.requireSecret("webhook") });
exports.token = token.token;
`;

const writes = async () =>
  ((await (await emulator.admin("/requests")).json()) as { method: string }[]).filter((request) => request.method !== "GET").length;
/** The forge resources of the state: face, declaration, name and id. */
const forgeResources = async () =>
  (await project.resources()).flatMap((resource) => {
    const token = parseTypeToken(resource.type);
    return token ? [`${token.face} ${token.name} ${resource.urn.split("::").pop()} ${resource.id}`] : [];
  });
const token = async () => (await project.ok(["stack", "output", "token", "--show-secrets"])).trim();

beforeAll(async () => {
  engineTestDecision(process.env, pulumiInstalled());
  emulator = await startEmulator({ port: 0 });
  project = await cliProject({
    name: "face-move",
    nodeModules: true,
    from: {
      "Pulumi.yaml": `name: forge-face-move\nruntime: nodejs\nplugins:\n  providers:\n    - name: forge\n      path: ${PLUGIN_DIR}\n`,
      "index.js": program,
    },
    config: {
      "forge:baseUrl": { value: emulator.url },
      "forge:token": { value: seedToken("root"), secret: true },
      description: { value: DESCRIPTION, secret: true },
      webhook: { value: WEBHOOK, secret: true },
      face: { value: "dynamic" },
    },
  });
}, 600_000);

afterAll(async () => {
  await emulator?.close();
  project?.close();
});

it("a stack moves from the dynamic classes to the plugin and back: nothing written to the forge, same ids and token, secrets encrypted, clean refresh and preview", async () => {
  await project.ok(["up", "--yes", "--skip-preview"]);
  const made = await forgeResources();
  const tokenValue = await token();
  const writesBefore = await writes();

  for (const face of ["plugin", "dynamic"] as const) {
    // The plugin face takes the resources over as they are; the dynamic face updates each once in
    // the state, to record its serialized provider, which writes nothing to the forge either.
    await project.ok(["up", "--yes", "--skip-preview", "--config", `face=${face}`, ...(face === "plugin" ? ["--expect-no-changes"] : [])]);
    if (face === "plugin") {
      // A refresh through the plugin, kept: the state the way back starts from has no serialized
      // provider left in its outputs. (No preview after it: the up above expected no changes, and
      // a plugin stack's quiet preview is test/e2e/plugin.test.ts's.)
      await project.ok(["refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
    } else {
      // Reads every resource through the dynamic provider, then compares with the program.
      await project.ok(["preview", "--refresh", "--expect-no-changes"]);
    }
    expect(await writes(), `the move to the ${face} face wrote to the forge`).toBe(writesBefore);
    const moved = await forgeResources();
    expect(moved.sort()).toEqual(made.map((resource) => resource.replace(/^dynamic/, face)).sort());
    const state = await project.exportText();
    for (const secret of [DESCRIPTION, WEBHOOK, tokenValue, seedToken("root")]) expect(state).not.toContain(secret);
  }
  expect(await token()).toBe(tokenValue);
}, 600_000);

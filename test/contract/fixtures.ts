import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AnyDeclaration, State } from "../../provider/engine/declaration";
import { sameValue } from "../../provider/engine/compare";
import { dynamicFaceOf } from "../../provider/runtime";
import { declarations as d } from "../../provider/resources";
import { integrationFixtures } from "./integration-fixtures";
import { FAKE_CERT, FAKE_KEY } from "../e2e/secrets-fixture";
import { instanceSettings, type World } from "./world";

/**
 * What the contract suite needs to know of one resource: valid inputs (with their
 * prerequisites), an in-place change, an immutable change, a change made behind the
 * provider's back, an input check must refuse, and one the server must refuse.
 */
export interface ContractFixture {
  declaration: AnyDeclaration;
  /** Creates prerequisites through the API and returns valid inputs. */
  inputs(world: World): Promise<State>;
  /** The same resource with a change the API can make in place. */
  update?: (inputs: State, world: World) => State;
  /** A change of an immutable input. */
  replace?: (inputs: State, world: World) => State;
  /** A program that differs from the object `inputs` made in what the forge shows (a secret
   *  input among them, where the kind has a readable one), and the fields an import of it must
   *  name. Default: `update`'s inputs and the fields it changes, write-only ones left out (no
   *  import can compare what the forge never shows). */
  importMismatch?: { inputs: (inputs: State, world: World) => State; fields: string[] };
  /** Changes the object through the API (not the provider); returns the field that drifted. */
  drift?: (world: World, outs: State) => Promise<string>;
  /** Deletes the object through the API; default: the declaration's delete route. */
  removeOutOfBand?: (world: World, outs: State) => Promise<void>;
  /** Settings of an existing object: "deleting" restores, it does not remove. */
  setting?: { restored: (world: World, outs: State) => Promise<void> };
  /** Objects the API cannot delete (a storage move that happened): delete only forgets them.
   *  `kept` throws unless the forge still shows what the object did. */
  forgotten?: { kept: (world: World, outs: State) => Promise<void> };
  /** A value for every optional input (the removal steps set each one, then drop it). */
  optional?: (inputs: State, world: World) => State;
  /** Optional inputs whose removal is tested elsewhere, with where and why: those that cannot
   *  be set together with the rest (another offering, the deprecated twin of another input). */
  removalElsewhere?: Record<string, string>;
  /** Optional inputs a program drops together, since check refuses one without the others (a
   *  certificate and its key): the removal steps drop each group at once, besides the inputs
   *  check lets go alone. */
  removalTogether?: string[][];
  invalid: { inputs: (inputs: State) => State; property: string };
  /** Inputs that pass check but the server rejects, with the status and message expected. */
  /** An input the forge refuses. `conflict`: the inputs name an object of a unique identity that
   *  exists already, which the provider refuses before sending anything (it did not make it),
   *  naming the import id; `status` and `message` are then the forge's for the same create. */
  apiError: { inputs: (inputs: State, world: World) => Promise<State>; actAs?: string; status: number; message: string; conflict?: true };
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const inFuture = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");

/** A small image file for avatar rows: `name` under the temporary directory, with `content`. */
export function imageFile(name: string, content: string | Buffer): string {
  const path = join(tmpdir(), `forge-contract-${process.pid}-${name}`);
  writeFileSync(path, content);
  return path;
}

async function newAgent(world: World, project: string, name: string): Promise<number> {
  const agent = await world.api.request<{ id: number }>("POST", "/projects/:project/cluster_agents", { project, name });
  return agent.body.id;
}

/** An agent already holding its two tokens: the forge refuses a third. */
function agentFull(name: string): ContractFixture["apiError"] {
  return {
    inputs: async (inputs, world) => {
      const agentId = await newAgent(world, "acme/web", name);
      for (const token of ["one", "two"]) {
        await world.api.request("POST", "/projects/:project/cluster_agents/:agentId/tokens", { project: "acme/web", agentId, name: token });
      }
      return { ...inputs, agentId };
    },
    status: 400,
    message: "An agent can have only two active tokens at a time",
  };
}

/** Revokes through the API what a rotating resource holds (`current`, `previous`), by its id field. */
async function revokeHeld(world: World, outs: State, idField: string, path: string): Promise<void> {
  for (const slot of ["current", "previous"]) {
    const held = outs[slot] as State | undefined;
    if (held) await world.api.request("DELETE", path, { project: outs["project"], agentId: outs["agentId"], [idField]: held[idField] });
  }
}

export const fixtures: ContractFixture[] = [
  {
    declaration: d.groupLabel,
    inputs: async (world) => {
      // `archived` needs the labels_archive flag; without it the forge ignores the value, and
      // setting then dropping it (the life cycle's removal steps) would show nothing.
      await instanceSettings(world, { labels_archive: true });
      return { group: "acme", name: "bug", color: "red", description: "Something is broken" };
    },
    update: (inputs) => ({ ...inputs, name: "defect", color: "#00AA00" }),
    optional: () => ({ description: "Something is broken", archived: true }),
    replace: (inputs) => ({ ...inputs, group: "acme/platform" }),
    drift: async (world, outs) => {
      await world.api.request("PUT", "/groups/:group/labels/:labelId", {
        group: outs["group"],
        labelId: outs["labelId"],
        color: "#123456",
      });
      return "color";
    },
    invalid: { inputs: (inputs) => ({ ...inputs, color: "reddish" }), property: "color" },
    apiError: {
      // A label of the same name in the group, made by hand (an ancestor group's label is another
      // refusal, which names the ancestor's import id: inherited-objects.test.ts).
      inputs: async (inputs, world) => {
        await world.api.request("POST", "/groups/:group/labels", { group: "acme", name: "duplicate", color: "#000000" });
        return { ...inputs, name: "duplicate" };
      },
      status: 409,
      message: "Label already exists",
      conflict: true,
    },
  },
  {
    declaration: d.groupLabelSubscription,
    inputs: async (world) => {
      const label = await world.api.request<{ id: number }>("POST", "/groups/:group/labels", {
        group: "acme",
        name: "watched",
        color: "blue",
      });
      return { group: "acme", labelId: label.body.id };
    },
    replace: (inputs) => ({ ...inputs, labelId: "watched" }),
    removeOutOfBand: async (world, outs) => {
      await world.api.request("POST", "/groups/:group/labels/:labelId/unsubscribe", { group: outs["group"], labelId: outs["labelId"] });
    },
    invalid: { inputs: (inputs) => ({ ...inputs, labelId: "" }), property: "labelId" },
    apiError: { inputs: async (inputs) => ({ ...inputs, labelId: 999_999 }), status: 404, message: "404 Label Not Found" },
  },
  {
    declaration: d.broadcastMessage,
    inputs: async () => ({
      message: "Maintenance on Saturday 10:00 UTC",
      startsAt: inFuture(24),
      endsAt: inFuture(26),
      targetAccessLevels: [40, 30],
      theme: "light-indigo",
      dismissable: true,
    }),
    update: (inputs) => ({ ...inputs, message: "Maintenance moved to Sunday", theme: "red" }),
    optional: () => ({
      startsAt: inFuture(24),
      endsAt: inFuture(26),
      font: "#FFFFFF",
      targetAccessLevels: [30],
      targetPath: "/acme/*",
      broadcastType: "banner",
      dismissable: true,
      theme: "red",
    }),
    drift: async (world, outs) => {
      await world.api.request("PUT", "/broadcast_messages/:id", { id: outs["messageId"], message: "edited by hand" });
      return "message";
    },
    invalid: { inputs: (inputs) => ({ ...inputs, targetAccessLevels: [35] }), property: "targetAccessLevels[0]" },
    apiError: { inputs: async (inputs) => inputs, actAs: "max", status: 403, message: "403 Forbidden" },
  },
  {
    declaration: d.clusterAgent,
    inputs: async () => ({ project: "acme/web", name: "production-cluster" }),
    replace: (inputs) => ({ ...inputs, name: "production-cluster-2" }),
    invalid: { inputs: (inputs) => ({ ...inputs, name: "-Bad_Name" }), property: "name" },
    apiError: {
      inputs: async (inputs, world) => {
        await newAgent(world, "acme/web", "taken");
        return { ...inputs, name: "taken" };
      },
      status: 400,
      message: "Name has already been taken",
      conflict: true,
    },
  },
  {
    declaration: d.clusterAgentToken,
    inputs: async (world) => ({
      project: "acme/web",
      agentId: await newAgent(world, "acme/web", "tokens"),
      name: "ci",
      description: "CI deploys",
    }),
    replace: (inputs) => ({ ...inputs, name: "ci-2" }),
    optional: () => ({ description: "CI deploys" }),
    invalid: { inputs: (inputs) => ({ ...inputs, name: "" }), property: "name" },
    apiError: agentFull("full"),
  },
  {
    declaration: d.rotatingClusterAgentToken,
    inputs: async (world) => ({
      project: "acme/web",
      agentId: await newAgent(world, "acme/web", "rotated"),
      name: "ci",
      rotateAfter: "720h",
    }),
    // A change of keepers rotates: the "update" of a rotating resource.
    update: (inputs) => ({ ...inputs, keepers: { quarter: "2026-Q4" } }),
    replace: (inputs) => ({ ...inputs, agentId: Number(inputs["agentId"]) + 1000 }),
    removeOutOfBand: (world, outs) => revokeHeld(world, outs, "tokenId", "/projects/:project/cluster_agents/:agentId/tokens/:tokenId"),
    optional: () => ({ description: "CI deploys", rotateAfter: "30d", keepers: { quarter: "2026-Q3" } }),
    invalid: { inputs: (inputs) => ({ ...inputs, rotateAfter: "soon" }), property: "rotateAfter" },
    apiError: agentFull("full-rotated"),
  },
  {
    declaration: d.clusterAgentUrlConfiguration,
    inputs: async (world) => ({
      project: "acme/web",
      agentId: await newAgent(world, "acme/web", "receptive"),
      url: "grpcs://agent.example.com:443",
    }),
    replace: (inputs) => ({ ...inputs, url: "grpcs://agent2.example.com:443" }),
    // The forge's configuration has no certificate; the key, write-only, cannot be compared.
    importMismatch: { inputs: (inputs) => ({ ...inputs, clientCert: FAKE_CERT, clientKey: FAKE_KEY }), fields: ["clientCert"] },
    // PEM-shaped, as check wants them (the emulator does not parse them).
    optional: () => ({ clientCert: FAKE_CERT, clientKey: FAKE_KEY, caCert: "CA", tlsHost: "agent.example.com" }),
    removalTogether: [["clientCert", "clientKey"]],
    invalid: { inputs: (inputs) => ({ ...inputs, clientCert: "-----BEGIN CERTIFICATE-----" }), property: "clientKey" },
    apiError: {
      inputs: async (inputs, world) => {
        const agentId = await newAgent(world, "acme/web", "configured");
        await world.api.request("POST", "/projects/:project/cluster_agents/:agentId/url_configurations", {
          project: "acme/web",
          agentId,
          url: "grpcs://first.example.com:443",
        });
        return { ...inputs, agentId };
      },
      status: 400,
      message: "URL configuration already exists for this agent",
    },
  },
  {
    declaration: d.jobTokenScope,
    inputs: async () => ({ project: "acme/api", enabled: true }),
    update: (inputs) => ({ ...inputs, enabled: false }),
    drift: async (world, outs) => {
      await world.api.request("PATCH", "/projects/:project/job_token_scope", { project: outs["project"], enabled: !outs["enabled"] });
      return "enabled";
    },
    setting: {
      restored: async (world, outs) => {
        const scope = await world.api.request<{ inbound_enabled: boolean }>("GET", "/projects/:project/job_token_scope", {
          project: outs["project"],
        });
        if (scope.body.inbound_enabled !== (outs["__restore"] as { enabled?: boolean } | undefined)?.enabled)
          throw new Error(`not restored: ${JSON.stringify(scope.body)}`);
      },
    },
    invalid: { inputs: (inputs) => ({ ...inputs, enabled: "yes" }), property: "enabled" },
    apiError: {
      inputs: async (inputs, world) => {
        await world.emulator.admin("/settings", {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ job_token_scope_enforced: true }),
        });
        return { ...inputs, enabled: false };
      },
      status: 400,
      message: "enabled=false is refused",
    },
  },
  {
    declaration: d.jobTokenScopeProjectAllowlistEntry,
    inputs: async (world) => ({ project: "acme/web", targetProjectId: world.projectId("acme/api") }),
    replace: (inputs, world) => ({ ...inputs, targetProjectId: world.projectId("acme/platform/deployer") }),
    invalid: { inputs: (inputs) => ({ ...inputs, targetProjectId: -1 }), property: "targetProjectId" },
    apiError: { inputs: async (inputs) => ({ ...inputs, targetProjectId: 999_999 }), status: 404, message: "404 Project Not Found" },
  },
  {
    declaration: d.jobTokenScopeGroupAllowlistEntry,
    inputs: async (world) => ({ project: "acme/web", targetGroupId: world.groupId("acme/platform") }),
    replace: (inputs, world) => ({ ...inputs, targetGroupId: world.groupId("acme") }),
    invalid: { inputs: (inputs) => ({ ...inputs, targetGroupId: 1.5 }), property: "targetGroupId" },
    apiError: { inputs: async (inputs) => ({ ...inputs, targetGroupId: 999_999 }), status: 404, message: "404 Group Not Found" },
  },
  {
    declaration: d.projectProtectedEnvironment,
    inputs: async (world) => ({
      project: "acme/web",
      name: "production",
      deployAccessLevels: [{ accessLevel: 40 }],
      approvalRules: [{ userId: world.user("olivia").id, requiredApprovals: 1 }],
    }),
    update: (inputs, world) => ({
      ...inputs,
      deployAccessLevels: [{ accessLevel: 30 }, { userId: world.user("max").id }],
      approvalRules: [{ accessLevel: 40, requiredApprovals: 2 }],
    }),
    replace: (inputs) => ({ ...inputs, name: "production-eu" }),
    optional: (_inputs, world) => ({ approvalRules: [{ userId: world.user("olivia").id, requiredApprovals: 2 }] }),
    drift: async (world, outs) => {
      const current = await world.api.request<{ deploy_access_levels: { id: number }[] }>(
        "GET",
        "/projects/:project/protected_environments/:name",
        { project: outs["project"], name: outs["name"] },
      );
      await world.api.request("PUT", "/projects/:project/protected_environments/:name", {
        project: outs["project"],
        name: outs["name"],
        deploy_access_levels: [
          ...current.body.deploy_access_levels.map((entry) => ({ id: entry.id, _destroy: true })),
          { access_level: 60 },
        ],
      });
      return "deployAccessLevels";
    },
    invalid: {
      inputs: (inputs) => ({ ...inputs, deployAccessLevels: [{ accessLevel: 50 }] }),
      property: "deployAccessLevels[0].accessLevel",
    },
    apiError: {
      inputs: async (inputs, world) => {
        await world.api.request("POST", "/projects/:project/protected_environments", {
          project: "acme/web",
          name: "taken",
          deploy_access_levels: [{ access_level: 40 }],
        });
        return { ...inputs, name: "taken" };
      },
      status: 409,
      message: "Protected environment 'taken' already exists",
      conflict: true,
    },
  },
  {
    declaration: d.groupProtectedEnvironment,
    inputs: async () => ({ group: "acme", name: "staging", deployAccessLevels: [{ accessLevel: 40 }], requiredApprovalCount: 1 }),
    update: (inputs, world) => ({
      ...inputs,
      requiredApprovalCount: 2,
      deployAccessLevels: [{ accessLevel: 40 }, { groupId: world.groupId("acme/platform") }],
    }),
    replace: (inputs) => ({ ...inputs, name: "testing" }),
    optional: () => ({ requiredApprovalCount: 2, approvalRules: [{ accessLevel: 40 }] }),
    drift: async (world, outs) => {
      await world.api.request("PUT", "/groups/:group/protected_environments/:name", {
        group: outs["group"],
        name: outs["name"],
        required_approval_count: 5,
      });
      return "requiredApprovalCount";
    },
    invalid: { inputs: (inputs) => ({ ...inputs, name: "prod" }), property: "name" },
    apiError: {
      inputs: async (inputs, world) => {
        await world.api.request("POST", "/groups/:group/protected_environments", {
          group: "acme",
          name: "production",
          deploy_access_levels: [{ access_level: 40 }],
        });
        return { ...inputs, name: "production" };
      },
      status: 409,
      message: "Protected environment 'production' already exists",
      conflict: true,
    },
  },
  {
    declaration: d.featureFlagUserList,
    inputs: async () => ({ project: "acme/web", name: "beta-testers", userXids: ["user-1", "user-2"] }),
    update: (inputs) => ({ ...inputs, name: "early-adopters", userXids: ["user-3", "user-1"] }),
    replace: (inputs) => ({ ...inputs, project: "acme/api" }),
    drift: async (world, outs) => {
      await world.api.request("PUT", "/projects/:project/feature_flags_user_lists/:iid", {
        project: outs["project"],
        iid: outs["iid"],
        user_xids: "intruder",
      });
      return "userXids";
    },
    invalid: { inputs: (inputs) => ({ ...inputs, userXids: ["a,b"] }), property: "userXids[0]" },
    apiError: {
      inputs: async (inputs, world) => {
        await world.api.request("POST", "/projects/:project/feature_flags_user_lists", {
          project: "acme/web",
          name: "taken",
          user_xids: "x",
        });
        return { ...inputs, name: "taken" };
      },
      status: 400,
      message: "Name has already been taken",
      conflict: true,
    },
  },
  {
    declaration: d.virtualRegistryCleanupPolicy,
    // The seed's one top-level group; no other row makes a cleanup policy.
    inputs: async () => ({ group: "acme", cadence: 14, enabled: true }),
    update: (inputs) => ({ ...inputs, cadence: 30, keepNDaysAfterDownload: 90 }),
    // The seed has one top-level group; by id, check cannot tell a subgroup (the forge would).
    replace: (inputs, world) => ({ ...inputs, group: world.groupId("acme/platform") }),
    optional: () => ({ cadence: 90, keepNDaysAfterDownload: 365, enabled: true, notifyOnSuccess: true, notifyOnFailure: true }),
    drift: async (world, outs) => {
      await world.api.request("PATCH", "/groups/:group/-/virtual_registries/cleanup/policy", { group: outs["group"], enabled: false });
      return "enabled";
    },
    invalid: { inputs: (inputs) => ({ ...inputs, cadence: 10 }), property: "cadence" },
    apiError: {
      inputs: async (inputs, world) => {
        await world.api.request("POST", "/groups/:group/-/virtual_registries/cleanup/policy", { group: "acme" });
        return inputs;
      },
      status: 400,
      message: "group has already been taken",
      conflict: true,
    },
  },
  {
    declaration: d.errorTrackingSettings,
    inputs: async (world) => {
      // Settings that exist already, so that create PATCHes them and `integrated` can be switched.
      await world.api.request("PUT", "/projects/:project/error_tracking/settings", {
        project: "acme/api",
        active: false,
        integrated: true,
      });
      return { project: "acme/api", active: true };
    },
    update: (inputs) => ({ ...inputs, active: false }),
    optional: () => ({ integrated: false }),
    replace: (inputs) => ({ ...inputs, project: "acme/web" }),
    drift: async (world, outs) => {
      await world.api.request("PATCH", "/projects/:project/error_tracking/settings", { project: outs["project"], active: !outs["active"] });
      return "active";
    },
    setting: {
      restored: async (world, outs) => {
        const settings = await world.api.request<{ active: boolean }>("GET", "/projects/:project/error_tracking/settings", {
          project: outs["project"],
        });
        if (settings.body.active !== false) throw new Error(`error tracking still on: ${JSON.stringify(settings.body)}`);
      },
    },
    invalid: { inputs: (inputs) => ({ ...inputs, active: "on" }), property: "active" },
    apiError: {
      // A project without settings can only start with the integrated backend.
      inputs: async (inputs) => ({ ...inputs, project: "acme/platform/deployer", integrated: false }),
      status: 400,
      message: "integrated must be true",
    },
  },
  {
    declaration: d.errorTrackingClientKey,
    inputs: async () => ({ project: "acme/web" }),
    replace: (inputs) => ({ ...inputs, rotateOn: { quarter: "2026-Q4" } }),
    optional: () => ({ rotateOn: { quarter: "2026-Q3" } }),
    invalid: { inputs: (inputs) => ({ ...inputs, rotateOn: "quarterly" }), property: "rotateOn" },
    apiError: { inputs: async (inputs) => inputs, actAs: "dev", status: 403, message: "403 Forbidden" },
  },
  {
    declaration: d.rotatingErrorTrackingClientKey,
    inputs: async () => ({ project: "acme/web", rotateAfter: "2160h" }),
    update: (inputs) => ({ ...inputs, keepers: { quarter: "2026-Q4" } }),
    replace: (inputs) => ({ ...inputs, project: "acme/platform/deployer" }),
    removeOutOfBand: (world, outs) => revokeHeld(world, outs, "keyId", "/projects/:project/error_tracking/client_keys/:keyId"),
    optional: () => ({ rotateAfter: "90d", keepers: { quarter: "2026-Q3" } }),
    invalid: { inputs: (inputs) => ({ ...inputs, keepers: "quarterly" }), property: "keepers" },
    apiError: { inputs: async (inputs) => inputs, actAs: "dev", status: 403, message: "403 Forbidden" },
  },
  {
    declaration: d.repositoryStorageMove,
    inputs: async (world) => {
      // Moves finish when scheduled here; the e2e suite shows a move that takes time.
      await instanceSettings(world, { storage_move_ms: 0 });
      return { kind: "project", sourceStorageName: "default", destinationStorageName: "secondary" };
    },
    replace: (inputs) => ({ ...inputs, kind: "group" }),
    optional: () => ({ waitForCompletion: false }),
    // No drift: a move has nothing the forge can change afterwards, and delete does not undo it.
    forgotten: {
      kept: async (world, outs) => {
        const left = await world.api.list("/projects", { repository_storage: outs["sourceStorageName"] });
        if (left.length > 0) throw new Error(`the move was undone: ${left.length} projects on ${String(outs["sourceStorageName"])}`);
      },
    },
    invalid: { inputs: (inputs) => ({ ...inputs, destinationStorageName: "default" }), property: "destinationStorageName" },
    apiError: {
      inputs: async (inputs) => ({ ...inputs, destinationStorageName: "nowhere" }),
      status: 400,
      message: "destination_storage_name does not have a valid value",
    },
  },
  {
    declaration: d.instanceCluster,
    inputs: async () => ({
      name: "contract-cluster",
      platformVendorAttributes: { apiUrl: "https://k8s.contract.example", token: "cluster-token" },
    }),
    update: (inputs) => ({
      ...inputs,
      name: "contract-cluster-renamed",
      enabled: false,
      platformVendorAttributes: { apiUrl: "https://k8s2.contract.example", token: "rotated-token", namespace: "apps" },
    }),
    replace: (inputs) => ({
      ...inputs,
      platformVendorAttributes: { ...(inputs["platformVendorAttributes"] as object), authorizationType: "abac" },
    }),
    // The secret attributes differ (the token, write-only, is not compared).
    importMismatch: {
      inputs: (inputs) => ({
        ...inputs,
        platformVendorAttributes: { apiUrl: "https://k8s-elsewhere.contract.example", token: "another-cluster-token" },
      }),
      fields: ["platformVendorAttributes"],
    },
    optional: (_inputs, world) => ({
      domain: "apps.contract.example",
      environmentScope: "production/*",
      managementProjectId: world.projectId("acme/api"),
      enabled: false,
      managed: false,
    }),
    drift: async (world, outs) => {
      await world.api.request("PUT", "/admin/clusters/:clusterId", { clusterId: outs["clusterId"], name: "renamed-behind-our-back" });
      return "name";
    },
    invalid: {
      inputs: (inputs) => ({ ...inputs, platformVendorAttributes: { apiUrl: "ftp://k8s", token: "t" } }),
      property: "platformVendorAttributes.apiUrl",
    },
    apiError: {
      inputs: async (inputs) => ({ ...inputs, managementProjectId: 999999 }),
      status: 400,
      message: "is invalid",
    },
  },
  {
    declaration: d.feature,
    inputs: async () => ({ name: "search_index_v2", percentageOfTime: 25 }),
    update: (inputs) => ({ ...inputs, percentageOfTime: 50, users: ["dev"], featureGroups: ["beta_testers"] }),
    replace: (inputs) => ({ ...inputs, name: "merge_request_dashboard" }),
    optional: () => ({
      enabled: false,
      percentageOfTime: 10,
      percentageOfActors: 20,
      users: ["dev", "max"],
      groups: ["acme"],
      namespaces: ["acme/platform"],
      projects: ["acme/web"],
      repositories: ["acme/api"],
      featureGroups: ["team_members", "beta_testers"],
      force: true,
    }),
    drift: async (world, outs) => {
      await world.api.request("POST", "/features/:name", { name: outs["name"], value: 75 });
      return "percentageOfTime";
    },
    invalid: { inputs: (inputs) => ({ ...inputs, percentageOfTime: 150 }), property: "percentageOfTime" },
    apiError: {
      inputs: async (inputs) => ({ ...inputs, name: "not_defined_anywhere" }),
      status: 400,
      message: "The feature flag YAML definition for 'not_defined_anywhere' does not exist",
    },
  },
  {
    declaration: d.groupSettings,
    inputs: async () => ({
      group: "acme",
      description: "Acme's platform",
      projectCreationLevel: "maintainer",
      requireTwoFactorAuthentication: true,
    }),
    update: (inputs) => ({
      ...inputs,
      projectCreationLevel: "noone",
      twoFactorGracePeriod: 12,
      defaultBranchProtectionDefaults: { allowedToPush: [{ accessLevel: 40 }], allowForcePush: false },
    }),
    replace: (inputs) => ({ ...inputs, group: "acme/platform" }),
    optional: (_inputs, world) => ({
      name: "Acme Corp",
      path: "acme",
      description: "Acme's platform",
      autoDevopsEnabled: true,
      defaultBranch: "trunk",
      defaultBranchProtection: 3,
      defaultBranchProtectionDefaults: {
        allowedToPush: [{ accessLevel: 30 }],
        allowForcePush: true,
        allowedToMerge: [{ accessLevel: 30 }],
      },
      enabledGitAccessProtocol: "ssh",
      emailsEnabled: false,
      lfsEnabled: false,
      mentionsDisabled: true,
      preventSharingGroupsOutsideHierarchy: true,
      projectCreationLevel: "noone",
      requestAccessEnabled: false,
      requireTwoFactorAuthentication: true,
      sharedRunnersSetting: "disabled_and_unoverridable",
      shareWithGroupLock: true,
      stepUpAuthRequiredOauthProvider: "corporate-sso",
      subgroupCreationLevel: "owner",
      twoFactorGracePeriod: 12,
      visibility: "internal",
      extraSharedRunnersMinutesLimit: 500,
      fileTemplateProjectId: world.projectId("acme/web"),
      membershipLock: true,
      preventForkingOutsideGroup: true,
      sharedRunnersMinutesLimit: 1000,
      uniqueProjectDownloadLimit: 50,
      uniqueProjectDownloadLimitIntervalInSeconds: 3600,
      uniqueProjectDownloadLimitAllowlist: ["max"],
      uniqueProjectDownloadLimitAlertlist: [world.user("olivia").id],
      autoBanUserOnExcessiveProjectsDownload: true,
      ipRestrictionRanges: "10.0.0.0/8,192.168.0.0/16",
      allowedEmailDomainsList: "example.com",
      wikiAccessLevel: "private",
      vendorAvailability: "never_on",
      experimentFeaturesEnabled: true,
      mathRenderingLimitsEnabled: false,
      lockMathRenderingLimitsEnabled: true,
      vendorFeaturesEnabled: false,
      lockVendorFeaturesEnabled: true,
      maxArtifactsSize: 200,
      onlyAllowMergeIfPipelineSucceeds: true,
      allowMergeOnSkippedPipeline: true,
      onlyAllowMergeIfAllDiscussionsAreResolved: true,
      allowPersonalSnippets: false,
    }),
    removalElsewhere: {
      webBasedCommitSigningEnabled:
        "group-settings.test.ts: the hosted offering only, where vendorFeaturesEnabled and extraSharedRunnersMinutesLimit do not exist",
      emailsDisabled: "group-settings.test.ts: the deprecated opposite of emailsEnabled; a program sets one of them",
    },
    drift: async (world, outs) => {
      await world.api.request("PUT", "/groups/:group", { group: outs["group"], project_creation_level: "developer" });
      return "projectCreationLevel";
    },
    setting: {
      restored: async (_world, outs) => {
        // Every value create found (and update added) is back, as the engine reads it.
        const read = await dynamicFaceOf("GroupSettings").read(String(outs["id"] ?? outs["group"]), { group: outs["group"] });
        const restore = (outs["__restore"] ?? {}) as State;
        const differing = Object.keys(restore).filter((key) => !sameValue(d.groupSettings, key, restore[key], read.props?.[key]));
        if (differing.length > 0 || Object.keys(restore).length === 0)
          throw new Error(
            `not restored: ${differing.map((key) => `${key} is ${JSON.stringify(read.props?.[key])}, was ${JSON.stringify(restore[key])}`).join("; ")}`,
          );
      },
    },
    invalid: { inputs: (inputs) => ({ ...inputs, projectCreationLevel: "everyone" }), property: "projectCreationLevel" },
    apiError: {
      // By id, the schema cannot tell a subgroup: the forge refuses and names the field.
      inputs: async (inputs, world) => ({ ...inputs, group: world.groupId("acme/platform"), preventSharingGroupsOutsideHierarchy: true }),
      status: 400,
      message: "can be set on top-level groups only",
    },
  },
  {
    declaration: d.groupAvatar,
    inputs: async () => ({ group: "acme", avatar: imageFile("logo.png", "first logo") }),
    update: (inputs) => ({ ...inputs, avatar: imageFile("logo-2.png", "second logo") }),
    replace: (inputs) => ({ ...inputs, group: "acme/platform" }),
    drift: async (world, outs) => {
      const form = new FormData();
      form.append("avatar", new Blob(["changed by hand"]), "hand.png");
      await fetch(`${world.emulator.url}/api/v4/groups/${encodeURIComponent(String(outs["group"]))}`, {
        method: "PUT",
        headers: { "PRIVATE-TOKEN": world.user("root").token },
        body: form,
      });
      return "avatarSha256";
    },
    removeOutOfBand: async (world, outs) => {
      await world.api.request("PUT", "/groups/:group", { group: outs["group"], avatar: "" });
    },
    invalid: { inputs: (inputs) => ({ ...inputs, avatar: "logo.exe" }), property: "avatar" },
    // A Developer of the group may not change its avatar. (A file over the forge's 200 KiB is
    // refused by check before any request: test/unit/file-limits.test.ts.)
    apiError: { inputs: async (inputs) => inputs, actAs: "dev", status: 403, message: "403 Forbidden" },
  },
  // The sixteen group integrations: rows derived from the API's table of group integrations.
  ...integrationFixtures,
  {
    declaration: d.projectMember,
    inputs: async () => ({ project: "acme/web", user: "nomad", accessLevel: 30, expiresAt: inDays(30) }),
    update: (inputs) => ({ ...inputs, accessLevel: 40, expiresAt: inDays(60) }),
    replace: (inputs) => ({ ...inputs, user: "gus" }),
    // The custom role, write-only, cannot be compared.
    importMismatch: { inputs: (inputs) => ({ ...inputs, accessLevel: 40, memberRoleId: 3 }), fields: ["accessLevel"] },
    optional: () => ({ expiresAt: inDays(30), memberRoleId: 3 }),
    drift: async (world, outs) => {
      await world.api.request("PUT", "/projects/:project/members/:userId", {
        project: outs["project"],
        userId: outs["userId"],
        access_level: 20,
      });
      return "accessLevel";
    },
    invalid: { inputs: (inputs) => ({ ...inputs, accessLevel: 35 }), property: "accessLevel" },
    // A user the forge does not have. (A date in the past is refused by check before any
    // request: test/unit/engine-check.test.ts.)
    apiError: { inputs: async (inputs) => ({ ...inputs, user: "nobody" }), status: 404, message: "404 User Not Found" },
  },
  {
    declaration: d.snippet,
    // No description: the life cycle sets one behind the program's back, which is no drift.
    inputs: async () => ({
      title: "Runbook",
      visibility: "internal",
      files: [
        { filePath: "deploy/README.md", content: "# Deploy\n" },
        { filePath: "deploy/steps.sh", content: "make deploy\n" },
      ],
    }),
    update: (inputs) => ({
      ...inputs,
      title: "Runbook v2",
      files: [
        // renamed (same content), edited, added; deploy/steps.sh is removed
        { filePath: "docs/README.md", content: "# Deploy\n" },
        { filePath: "deploy/rollback.sh", content: "make rollback\n" },
      ],
    }),
    optional: () => ({ description: "How we deploy", visibility: "public" }),
    drift: async (world, outs) => {
      const files = outs["files"] as { filePath: string }[];
      await world.api.request("PUT", "/snippets/:id", {
        id: outs["snippetId"],
        files: [{ action: "update", file_path: files[0]!.filePath, content: "edited on the forge\n" }],
      });
      return "files";
    },
    invalid: {
      inputs: (inputs) => ({
        ...inputs,
        files: [
          { filePath: "a.txt", content: "x" },
          { filePath: "a.txt", content: "y" },
        ],
      }),
      property: "files[1].filePath",
    },
    apiError: {
      // `internal` does not exist on the hosted multi-tenant offering; check cannot know the offering.
      inputs: async (inputs, world) => {
        await instanceSettings(world, { offering: "hosted" });
        return inputs;
      },
      status: 400,
      message: "internal is not allowed",
    },
  },
  {
    declaration: d.geoSite,
    inputs: async () => ({ name: "primary-site", url: "https://geo-primary.example.com", primary: true }),
    update: (inputs) => ({
      ...inputs,
      url: "https://geo.example.com/",
      filesMaxCapacity: 20,
      selectiveSyncType: "shards",
      selectiveSyncShards: ["default"],
    }),
    replace: (inputs) => ({ ...inputs, primary: false }),
    optional: () => ({
      internalUrl: "https://geo-internal.example.com/",
      enabled: false,
      filesMaxCapacity: 11,
      reposMaxCapacity: 26,
      verificationMaxCapacity: 101,
      containerRepositoriesMaxCapacity: 12,
      syncObjectStorage: true,
      selectiveSyncType: "shards",
      selectiveSyncShards: ["default"],
      minimumReverificationInterval: 30,
    }),
    // Check refuses the type dropped while shards are set: both go together; the shards may go alone.
    removalTogether: [["selectiveSyncType", "selectiveSyncShards"]],
    removalElsewhere: {
      selectiveSyncNamespaceIds:
        "members-snippets-geo.test.ts (selective sync by namespaces, then by shards, then everything again): check takes namespace ids only with selectiveSyncType namespaces, the other selective sync than the one set here",
    },
    drift: async (world, outs) => {
      await world.api.request("PUT", "/geo_sites/:id", { id: outs["siteId"], url: "https://elsewhere.example.com" });
      return "url";
    },
    invalid: { inputs: (inputs) => ({ ...inputs, url: "geo.example.com" }), property: "url" },
    apiError: {
      inputs: async (inputs, world) => {
        await world.api.request("POST", "/geo_sites", { name: "PRIMARY-SITE", url: "https://other.example.com" });
        return inputs;
      },
      status: 400,
      message: "has already been taken",
      conflict: true,
    },
  },
];

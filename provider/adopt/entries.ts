/**
 * What `forge-adopt` knows of each resource: where its objects are and what to call them, one
 * entry per key of `declarations` (provider/resources/index.ts), or an exemption with its reason.
 * `test/unit/adopt-coverage.test.ts` fails for a declaration that has neither.
 *
 * An entry is small because the rest comes from the declaration: each object found is read by its
 * import id through the declaration's read (as the `import` option does), its inputs are what that
 * read gives, trimmed to the input schema, without the values a dropped input resets to.
 */
import { isNotFound, type ForgeClient } from "../client";
import type { State } from "../engine/declaration";
import { runLookup, type ForgeRecord, type LookupDeclaration } from "../lookups/lookup";
import { lookupDeclarations as lookups } from "../lookups/registry";
import { groupIntegrations, integrationKindOf } from "../resources/group-integrations";
import { defineAdopt, type AdoptEntry, type AdoptExemption, type DeclarationKey } from "./entry";

/** Every record of a listing lookup. */
async function list(lookup: LookupDeclaration, args: Record<string, unknown>, client: ForgeClient): Promise<ForgeRecord[]> {
  return (await runLookup(lookup, args, client)) as ForgeRecord[];
}

/** The record of a single-object lookup, or undefined when the forge has none (404). */
async function one(lookup: LookupDeclaration, args: Record<string, unknown>, client: ForgeClient): Promise<ForgeRecord | undefined> {
  try {
    return (await runLookup(lookup, args, client)) as ForgeRecord;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

const text = (value: unknown): string => (value === undefined || value === null ? "" : String(value));

/** The agents of a project with, for each, the ids of what hangs below it. */
async function agentChildren(project: string, client: ForgeClient, lookup: LookupDeclaration, idField: string): Promise<State[]> {
  const agents = await list(lookups.listClusterAgents, { project }, client);
  const found: State[] = [];
  for (const agent of agents) {
    for (const record of await list(lookup, { project, agentId: agent["id"] }, client)) {
      found.push({ project, agentId: agent["id"], [idField]: record["id"] });
    }
  }
  return found;
}

/** Protected environments of a project or a group: the same listing and entries at both levels. */
function protectedEnvironments(scope: "group" | "project", lookup: LookupDeclaration): AdoptEntry {
  return defineAdopt({
    scope,
    find: async ({ path, client }) => (await list(lookup, { [scope]: path }, client)).map((environment) => ({ [scope]: path, name: environment["name"] })),
    name: (inputs) => `protected ${text(inputs["name"])}`,
    describe: describeGrantees,
  });
}

export const adoptEntries: { [K in DeclarationKey]?: AdoptEntry | AdoptExemption } = {
  groupLabel: defineAdopt({
    scope: "group",
    // The group's own labels: an ancestor's are adopted with the ancestor.
    find: async ({ path, client }) =>
      (await list(lookups.listGroupLabels, { group: path, includeAncestorGroups: false }, client)).map((label) => ({ group: path, labelId: label["id"] })),
    name: (inputs) => `label ${text(inputs["name"])}`,
  }),
  groupLabelSubscription: defineAdopt({
    scope: "group",
    // The token's user's own subscriptions: the resource subscribes whoever runs the program.
    find: async ({ path, client }) =>
      (await list(lookups.listGroupLabels, { group: path, includeAncestorGroups: false }, client))
        .filter((label) => label["subscribed"] === true)
        .map((label) => ({ group: path, labelId: label["id"] })),
    name: (inputs) => `label ${text(inputs["labelName"] ?? inputs["labelId"])} subscription`,
    references: { labelId: "groupLabel" },
  }),
  broadcastMessage: defineAdopt({
    scope: "instance",
    find: async ({ client }) => (await list(lookups.listBroadcastMessages, {}, client)).map((message) => ({ messageId: message["id"] })),
    // The message's first words that say something: "Planned maintenance of the clusters" → planned-maintenance-clusters.
    name: (inputs) => `broadcast ${text(inputs["message"]).split(/\s+/).filter((word) => word.replace(/\W/g, "").length > 3).slice(0, 3).join(" ")}`,
  }),
  clusterAgent: defineAdopt({
    scope: "project",
    find: async ({ path, client }) => (await list(lookups.listClusterAgents, { project: path }, client)).map((agent) => ({ project: path, agentId: agent["id"] })),
    name: (inputs) => `agent ${text(inputs["name"])}`,
  }),
  clusterAgentToken: defineAdopt({
    scope: "project",
    find: ({ path, client }) => agentChildren(path, client, lookups.listClusterAgentTokens, "tokenId"),
    name: (inputs) => `agent token ${text(inputs["name"])}`,
    references: { agentId: "clusterAgent" },
  }),
  clusterAgentUrlConfiguration: defineAdopt({
    scope: "project",
    find: ({ path, client }) => agentChildren(path, client, lookups.listClusterAgentUrlConfigurations, "urlConfigurationId"),
    name: (inputs) => `agent url ${text(inputs["url"]).replace(/^grpcs?:\/\//, "").replace(/:\d+$/, "")}`,
    references: { agentId: "clusterAgent" },
  }),
  jobTokenScope: defineAdopt({
    scope: "project",
    // Every project has one: its setting is what the project shows today.
    find: async ({ path }) => [{ project: path }],
    name: () => "job token scope",
  }),
  jobTokenScopeProjectAllowlistEntry: defineAdopt({
    scope: "project",
    find: async ({ path, client }) =>
      (await list(lookups.listJobTokenScopeProjectAllowlist, { project: path }, client)).map((target) => ({ project: path, targetProjectId: target["id"] })),
    name: (inputs) => `job token allows ${text(inputs["targetPathWithNamespace"] ?? inputs["targetProjectId"])}`,
    describe: async (_inputs, outputs) => ({ targetProjectId: text(outputs["targetPathWithNamespace"]) }),
  }),
  jobTokenScopeGroupAllowlistEntry: defineAdopt({
    scope: "project",
    find: async ({ path, client }) =>
      (await list(lookups.listJobTokenScopeGroupAllowlist, { project: path }, client)).map((target) => ({ project: path, targetGroupId: target["id"] })),
    name: (inputs) => `job token allows group ${text(inputs["targetName"] ?? inputs["targetGroupId"])}`,
    describe: async (inputs, _outputs, { client }) => ({ targetGroupId: (await field(client, "/groups/:id", Number(inputs["targetGroupId"]), "full_path")) ?? "" }),
  }),
  projectProtectedEnvironment: protectedEnvironments("project", lookups.listProjectProtectedEnvironments),
  groupProtectedEnvironment: protectedEnvironments("group", lookups.listGroupProtectedEnvironments),
  featureFlagUserList: defineAdopt({
    scope: "project",
    find: async ({ path, client }) => (await list(lookups.listFeatureFlagUserLists, { project: path }, client)).map((userList) => ({ project: path, iid: userList["iid"] })),
    name: (inputs) => `user list ${text(inputs["name"])}`,
  }),
  virtualRegistryCleanupPolicy: defineAdopt({
    scope: "group",
    // Top-level groups only; a group without one answers 404.
    find: async ({ path, client }) =>
      path.includes("/") ? [] : (await one(lookups.getVirtualRegistryCleanupPolicy, { group: path }, client)) ? [{ group: path }] : [],
    name: () => "registry cleanup",
  }),
  errorTrackingSettings: defineAdopt({
    scope: "project",
    // A project that never had error tracking has no settings (404).
    find: async ({ path, client }) => ((await one(lookups.getErrorTrackingSettings, { project: path }, client)) ? [{ project: path }] : []),
    name: () => "error tracking",
  }),
  errorTrackingClientKey: defineAdopt({
    scope: "project",
    find: async ({ path, client }) => (await list(lookups.listErrorTrackingClientKeys, { project: path }, client)).map((key) => ({ project: path, keyId: key["id"] })),
    name: (inputs) => `error tracking key ${text(inputs["keyId"])}`,
  }),
  repositoryStorageMove: {
    exempt: "an asynchronous one-off: a move that happened is history, not configuration to keep declared (and deleting one cannot undo it)",
  },
  instanceCluster: defineAdopt({
    scope: "instance",
    find: async ({ client }) => (await list(lookups.listInstanceClusters, {}, client)).map((cluster) => ({ clusterId: cluster["id"] })),
    name: (inputs) => `cluster ${text(inputs["name"])}`,
    // The platform attributes are a secret of the resource: the CA certificate is read from
    // secret config like the token, never written into the program.
    secretInputs: ["platformVendorAttributes.caCert"],
    describe: async (inputs, _outputs, { client }): Promise<Record<string, string>> =>
      inputs["managementProjectId"] === undefined ? {} : { managementProjectId: (await field(client, "/projects/:id", Number(inputs["managementProjectId"]), "path_with_namespace")) ?? "" },
  }),
  feature: defineAdopt({
    scope: "instance",
    find: async ({ client }) => (await list(lookups.listFeatures, {}, client)).map((feature) => ({ name: feature["name"] })),
    name: (inputs) => `feature ${text(inputs["name"])}`,
    present: presentFeatureActors,
  }),
  groupSettings: defineAdopt({
    scope: "group",
    // Every group has settings; the program declares those that differ from the forge's
    // defaults (the read leaves out a value equal to what dropping the input writes back).
    find: async ({ path }) => [{ group: path }],
    name: () => "settings",
    // The group's name and path are what the program already calls it by: not settings to repeat.
    present: async (inputs) => {
      const { name: _name, path: _path, ...settings } = inputs;
      return settings;
    },
    // A group whose settings are all the defaults: nothing to declare.
    keep: (inputs) => Object.keys(inputs).some((key) => key !== "group"),
    describe: async (inputs, _outputs, { client }) => {
      const comments: Record<string, string> = {};
      if (typeof inputs["fileTemplateProjectId"] === "number") comments["fileTemplateProjectId"] = (await field(client, "/projects/:id", inputs["fileTemplateProjectId"], "path_with_namespace")) ?? "";
      const alerted = inputs["uniqueProjectDownloadLimitAlertlist"];
      if (Array.isArray(alerted) && alerted.length > 0) {
        const names = await Promise.all(alerted.map((id) => username(client, Number(id))));
        comments["uniqueProjectDownloadLimitAlertlist"] = names.map((name, index) => name ?? String(alerted[index])).join(", ");
      }
      return comments;
    },
  }),
  groupAvatar: defineAdopt({
    scope: "group",
    find: async ({ path, client }) => ((await groupAvatarUrl(client, path)) ? [{ group: path }] : []),
    name: () => "avatar",
    // The image itself, beside the program: the resource compares the file by its SHA-256.
    files: async (inputs, outputs, { path, client }) => {
      const url = text(outputs["avatarUrl"]);
      const extension = /\.([A-Za-z0-9]+)$/.exec(decodeURIComponent(new URL(url, "http://forge").pathname))?.[1]?.toLowerCase() ?? "png";
      const content = (await client.request<unknown>("GET", "/groups/:group/avatar", { group: inputs["group"] })).body;
      const bytes = Buffer.isBuffer(content) ? content : Buffer.from(typeof content === "string" ? content : JSON.stringify(content));
      return [{ input: "avatar", path: `assets/${path.replace(/[^A-Za-z0-9._-]+/g, "-")}-avatar.${extension}`, content: bytes }];
    },
  }),
  ...integrationEntries(),
  projectMember: defineAdopt({
    scope: "project",
    // Direct members only: access through the project's groups is the groups' to declare. The
    // token's own user is left out, so that the program cannot take away the access it runs with.
    find: async ({ path, client }) => {
      const self = await tokenUserId(client);
      return (await list(lookups.listProjectMembers, { project: path }, client)).filter((member) => member["id"] !== self).map((member) => ({ project: path, userId: member["id"] }));
    },
    name: (inputs) => `member ${text(inputs["username"] ?? inputs["user"])}`,
  }),
  snippet: defineAdopt({
    scope: "user",
    find: async ({ client }) => (await list(lookups.listSnippets, {}, client)).map((snippet) => ({ snippetId: snippet["id"] })),
    name: (inputs) => `snippet ${text(inputs["title"])}`,
    // A private or internal snippet's text stays out of the program's text: each file goes
    // beside the program (`--out`), which reads it at run time. Public ones are written inline.
    files: async (inputs, outputs) => {
      if (outputs["visibility"] === "public" || !Array.isArray(inputs["files"])) return [];
      return (inputs["files"] as State[]).map((file, index) => ({
        input: `files.${index}.content`,
        read: true,
        path: `snippets/${String(outputs["snippetId"])}/${String(file["filePath"]).replace(/\.\.+/g, ".").replace(/^\/+/, "")}`,
        content: Buffer.from(String(file["content"] ?? ""), "utf8"),
      }));
    },
  }),
  geoSite: defineAdopt({
    scope: "instance",
    // Premium, self-managed, administrator: a forge without Geo refuses the listing, which is noted.
    find: async ({ client }) => (await list(lookups.listGeoSites, {}, client)).map((site) => ({ siteId: site["id"] })),
    name: (inputs) => `geo site ${text(inputs["name"])}`,
  }),
};

/**
 * The entries of the sixteen group integrations, one loop over the declarations built from
 * spec/integrations.ts: a group's active integrations of each slug (the listing shows only
 * active ones); their credentials, which the forge never returns, become stack config reads.
 */
function integrationEntries(): Record<keyof typeof groupIntegrations, AdoptEntry> {
  return Object.fromEntries(
    Object.entries(groupIntegrations).map(([key, declaration]) => {
      const slug = integrationKindOf(declaration.name)!.slug;
      const entry = defineAdopt({
        scope: "group",
        find: async ({ path, client }) =>
          (await list(lookups.listGroupIntegrations, { group: path }, client)).filter((record) => record["slug"] === slug && record["active"] === true).map(() => ({ group: path, slug })),
        name: () => `integration ${slug}`,
      });
      return [key, entry];
    }),
  ) as Record<keyof typeof groupIntegrations, AdoptEntry>;
}

/** Where the forge serves a group's avatar, or undefined when it has none. */
async function groupAvatarUrl(client: ForgeClient, group: string): Promise<string | undefined> {
  const url = (await client.request<Record<string, unknown>>("GET", "/groups/:group", { group })).body["avatar_url"];
  return typeof url === "string" && url !== "" ? url : undefined;
}

const tokenUsers = new WeakMap<ForgeClient, Promise<unknown>>();

/** The id of the token's own user, asked once per client. */
function tokenUserId(client: ForgeClient): Promise<unknown> {
  let id = tokenUsers.get(client);
  if (!id) {
    id = client.request<Record<string, unknown>>("GET", "/user").then((response) => response.body["id"]);
    tokenUsers.set(client, id);
  }
  return id;
}

/** Who the entries of a protected environment name: user ids as usernames, group ids as paths. */
async function describeGrantees(inputs: State, _outputs: State, { client }: { client: ForgeClient }): Promise<Record<string, string>> {
  const comments: Record<string, string> = {};
  for (const list of ["deployAccessLevels", "approvalRules"]) {
    const entries = inputs[list];
    if (!Array.isArray(entries)) continue;
    for (const [index, entry] of (entries as State[]).entries()) {
      if (typeof entry["userId"] === "number") comments[`${list}.${index}.userId`] = (await username(client, entry["userId"])) ?? "";
      if (typeof entry["groupId"] === "number") comments[`${list}.${index}.groupId`] = (await field(client, "/groups/:id", entry["groupId"], "full_path")) ?? "";
    }
  }
  return comments;
}

/** The actor kinds of a feature gate: input, the prefix of the forge's ids, and how to name one. */
const ACTORS: { input: string; prefix: string; name: (id: number, client: ForgeClient) => Promise<string | undefined> }[] = [
  { input: "users", prefix: "User", name: (id, client) => username(client, id) },
  { input: "groups", prefix: "Group", name: (id, client) => field(client, "/groups/:id", id, "full_path") },
  { input: "namespaces", prefix: "Namespace", name: async (id, client) => (await field(client, "/groups/:id", id, "full_path")) ?? (await username(client, id)) },
  { input: "projects", prefix: "Project", name: (id, client) => field(client, "/projects/:id", id, "path_with_namespace") },
  { input: "repositories", prefix: "Repository", name: (id, client) => field(client, "/projects/:id", id, "path_with_namespace") },
];

async function username(client: ForgeClient, id: number): Promise<string | undefined> {
  const users = await client.list<Record<string, unknown>>("/users", {});
  const name = users.find((user) => user["id"] === id)?.["username"];
  return typeof name === "string" ? name : undefined;
}

async function field(client: ForgeClient, path: string, id: number, key: string): Promise<string | undefined> {
  try {
    const value = (await client.request<Record<string, unknown>>("GET", path, { id })).body[key];
    return typeof value === "string" ? value : undefined;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** A feature's actor gates by name (`dev`, `acme/web`), as a program writes them; an actor that
 *  no longer resolves keeps the forge's id. A feature without a definition was set with `force`,
 *  which a change of its gates needs again. */
async function presentFeatureActors(inputs: State, outputs: State, { client }: { client: ForgeClient }): Promise<State> {
  // The read state leaves a null definition out.
  const forced = outputs["definition"] === undefined || outputs["definition"] === null;
  const presented: State = { ...inputs, ...(forced ? { force: true } : {}) };
  for (const actor of ACTORS) {
    const values = inputs[actor.input];
    if (!Array.isArray(values)) continue;
    const names: string[] = [];
    for (const value of values) {
      const match = new RegExp(`^${actor.prefix}:(\\d+)$`).exec(String(value));
      names.push((match ? await actor.name(Number(match[1]), client) : undefined) ?? String(value));
    }
    presented[actor.input] = names;
  }
  return presented;
}

/**
 * `forge-adopt --from-terraform`: the objects a state of the GitLab Terraform provider
 * (`gitlabhq/gitlab`, state format v4) manages, as the forge resources that declare them. The state
 * names each object (its import id, from the resource's attributes); the forge is then read for each
 * one by that id, as forge-adopt reads what it finds, so the program says what the forge holds now
 * and its first `up` writes nothing. Only GET requests are sent.
 *
 * The table below is the whole mapping: one row per Terraform resource type, the forge resources it
 * becomes and how their ids are formed. docs/guides/adopting-and-terraform.md shows it (`terraformMappingTable`), and
 * a unit test keeps the page equal to it.
 */
import { z } from "zod";
import { routes } from "../../api/routes";
import { isNotFound, type ForgeClient } from "../client";
import type { State } from "../engine/declaration";
import { idFormat } from "../engine/ids";
import { getPath } from "../engine/paths";
import { declarations, type DeclarationKey } from "../resources";
import { adoptEntries } from "./entries";
import type { AdoptEntry } from "../adopt-entry/entry";
import { list } from "../adopt-entry/find";
import { readTargets, type AdoptTarget, type Adoption, type Notice, type SecretValue, type Skipped } from "./read";

/** One resource instance's attributes, as the state holds them. */
type Attributes = Record<string, unknown>;

/** The state file: format version 4 (Terraform 0.12 and later, OpenTofu), only what is read here. */
const stateSchema = z.object({
  version: z.literal(4),
  resources: z
    .array(
      z.object({
        module: z.string().optional(),
        mode: z.string(),
        type: z.string(),
        name: z.string(),
        provider: z.string().optional(),
        instances: z.array(
          z.object({
            index_key: z.union([z.string(), z.number()]).optional(),
            /** Set on an object `create_before_destroy` replaced and Terraform has still to delete. */
            deposed: z.string().optional(),
            status: z.string().optional(),
            /** The version of the provider's schema for the type that wrote the attributes (0 for every type in the 3.x releases). */
            schema_version: z.number().optional(),
            attributes: z.record(z.string(), z.unknown()).optional(),
            /** Older providers' flat form: scalars under their names, lists as `name.0`. */
            attributes_flat: z.record(z.string(), z.string()).optional(),
          }),
        ),
      }),
    )
    .default([]),
});

/** A state as read (only what is read of it). */
export type TerraformState = z.output<typeof stateSchema>;
type StateResource = TerraformState["resources"][number];

/** A Terraform state as text, checked: the version, and the shape of what is read. */
export function parseTerraformState(text: string): TerraformState {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error("is not JSON: give the state file itself (terraform.tfstate, or the output of `terraform state pull`)");
  }
  const record = (typeof json === "object" && json !== null ? json : {}) as Record<string, unknown>;
  if ("format_version" in record && "values" in record) {
    throw new Error(
      "is the output of `terraform show -json`, not a state: give the state file itself (terraform.tfstate, or the output of `terraform state pull`)",
    );
  }
  if (record["version"] !== 4) {
    throw new Error(
      `is a state of format version ${JSON.stringify(record["version"])}: forge-adopt reads version 4 (Terraform 0.12 and later); \`terraform state pull\` with a current Terraform writes it`,
    );
  }
  const parsed = stateSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `is not a state forge-adopt can read: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`,
    );
  return parsed.data;
}

/** `module.net.gitlab_group_label.bug["bug"]`: a resource instance as Terraform writes its address. */
export function terraformAddress(resource: Pick<StateResource, "module" | "mode" | "type" | "name">, indexKey?: string | number): string {
  const key = indexKey === undefined ? "" : `[${typeof indexKey === "number" ? indexKey : JSON.stringify(indexKey)}]`;
  return `${resource.module ? `${resource.module}.` : ""}${resource.mode === "data" ? "data." : ""}${resource.type}.${resource.name}${key}`;
}

/** A group, project or label the state names that the forge does not have (or the token cannot see). */
class Missing extends Error {
  /** True when the instance lacks an attribute the mapping reads (a state of a provider release this one does not know). */
  constructor(
    message: string,
    readonly absent = false,
  ) {
    super(message);
  }
}

/** A group's or project's full path: segments of letters, digits, `_`, `-` and `.`, at most 255 characters each. */
const FULL_PATH = /^(?:[A-Za-z0-9_][A-Za-z0-9_.-]{0,254})(?:\/[A-Za-z0-9_][A-Za-z0-9_.-]{0,254})*$/;

/** Full paths of the groups and projects the state names by id or path, each asked once. */
class Places {
  private readonly cache = new Map<string, Promise<string>>();
  constructor(readonly client: ForgeClient) {}

  group(ref: unknown): Promise<string> {
    return this.path("group", routes.groups.get, "full_path", ref);
  }

  project(ref: unknown): Promise<string> {
    return this.path("project", routes.projects.get, "path_with_namespace", ref);
  }

  private path(
    kind: "group" | "project",
    route: typeof routes.groups.get | typeof routes.projects.get,
    field: string,
    ref: unknown,
  ): Promise<string> {
    if (typeof ref !== "string" && typeof ref !== "number") return Promise.reject(new Missing(`names no ${kind}`, true));
    // What is neither an id nor a full path is not asked for: a state another team wrote may hold anything.
    if (!/^\d+$/.test(String(ref)) && !FULL_PATH.test(String(ref)))
      return Promise.reject(new Missing(`names the ${kind} ${JSON.stringify(ref)}, which is no ${kind}'s id or full path`));
    const key = `${kind} ${ref}`;
    let path = this.cache.get(key);
    if (!path) {
      path = this.client.request<Record<string, unknown>>(route, { [kind]: /^\d+$/.test(String(ref)) ? Number(ref) : ref }).then(
        (response) => String(response.body[field]),
        (error: unknown) => {
          if (isNotFound(error)) throw new Missing(`its ${kind} ${ref} is not on the forge (or the token cannot see it)`);
          throw error;
        },
      );
      this.cache.set(key, path);
    }
    return path;
  }
}

/** One object an instance names: the forge resource and the fields of its import id. */
interface Named {
  key: DeclarationKey;
  idState: State;
}

/** How the objects of one Terraform resource type become forge resources. */
interface TerraformType {
  /** The forge resources it becomes (one or more per instance). */
  becomes: DeclarationKey[];
  /** The Terraform import id, as the provider's documentation gives it. */
  terraformId: string;
  /** The objects an instance names, from its attributes. */
  objects(attributes: Attributes, places: Places): Promise<Named[]>;
  /** What the state holds of an instance that cannot move to the program, and what to do. */
  cannotMove?(attributes: Attributes): string | undefined;
  /** Secret inputs the program reads from stack config whose value the state holds: input path → attribute. */
  secrets?: Record<string, string>;
  /** Anything else to know of one instance (an attribute no forge resource manages). */
  notes?(attributes: Attributes): string[];
  /** What differs in how the forge resource manages the object, said once per type in the program and in the docs. */
  advice?: string;
  /**
   * Attributes older releases of the provider named otherwise, by their name now: read when an
   * instance has no value under the name now. From the provider's documentation and changelog
   * of each release (docs/guides/adopting-and-terraform.md, *Older states*).
   */
  formerly?: Record<string, { name: string; releases: string }>;
}

const id = (value: unknown): number => {
  const number = Number(value);
  if (value === undefined || value === null || value === "" || !Number.isInteger(number) || number <= 0)
    throw new Missing(`has no id where one is expected (${JSON.stringify(value ?? null)})`, value === undefined);
  return number;
};
const present = (value: unknown): boolean => value !== undefined && value !== null && value !== "";

const TOKEN_VALUE =
  "the token's value. The token stays valid, and the program adopts it without its value (the forge never shows " +
  "it again): keep the value where its users read it (a secret store), or issue a new token and delete this one.";

/** The Terraform resource types that have a forge resource, by type. */
export const TERRAFORM_TYPES: Readonly<Record<string, TerraformType>> = {
  gitlab_group: {
    becomes: ["groupSettings", "groupAvatar"],
    terraformId: "`<group id or path>`",
    async objects(attributes, places) {
      const group = await places.group(present(attributes["id"]) ? attributes["id"] : attributes["full_path"]);
      // The avatar is Terraform's to manage only when its configuration named a file.
      return [
        { key: "groupSettings", idState: { group } },
        ...(present(attributes["avatar"]) ? [{ key: "groupAvatar" as const, idState: { group } }] : []),
      ];
    },
    notes(attributes) {
      const rules = attributes["push_rules"];
      return Array.isArray(rules) && rules.length > 0
        ? ["push_rules: no forge resource manages a group's push rules; they stay as they are, unmanaged."]
        : [];
    },
    advice:
      "GroupSettings manages the settings of the group, not the group itself: `pulumi destroy` writes back the " +
      "settings found when it adopted them and leaves the group (Terraform's destroy deleted it). The program " +
      "declares the settings that differ from the forge's defaults; the avatar (when the configuration set one) " +
      "becomes a GroupAvatar, its image fetched beside the program (`--out`).",
  },
  gitlab_group_label: {
    becomes: ["groupLabel"],
    terraformId:
      "`<group id>:<label id>` (provider releases 3.x to 15.x: `<label name>`, and no `label_id`: the label is found by its name)",
    async objects(attributes, places) {
      const group = await places.group(attributes["group"]);
      if (present(attributes["label_id"])) return [{ key: "groupLabel", idState: { group, labelId: id(attributes["label_id"]) } }];
      // A state of a provider release before 16.0 has no label_id (its id was the label's name): found by its name.
      const labels = await list("listGroupLabels", { group, includeAncestorGroups: false }, places.client);
      const label = labels.find((candidate) => candidate["name"] === attributes["name"]);
      if (!label) throw new Missing(`the label ${JSON.stringify(attributes["name"])} is not in group ${group} on the forge`);
      return [{ key: "groupLabel", idState: { group, labelId: label["id"] } }];
    },
  },
  gitlab_group_protected_environment: {
    becomes: ["groupProtectedEnvironment"],
    terraformId: "`<group>:<environment>`",
    objects: async (attributes, places) => [
      {
        key: "groupProtectedEnvironment",
        idState: { group: await places.group(attributes["group"]), name: String(attributes["environment"]) },
      },
    ],
  },
  gitlab_project_protected_environment: {
    becomes: ["projectProtectedEnvironment"],
    terraformId: "`<project>:<environment>`",
    objects: async (attributes, places) => [
      {
        key: "projectProtectedEnvironment",
        idState: { project: await places.project(attributes["project"]), name: String(attributes["environment"]) },
      },
    ],
  },
  gitlab_cluster_agent: {
    becomes: ["clusterAgent"],
    terraformId: "`<project>:<agent id>`",
    objects: async (attributes, places) => [
      { key: "clusterAgent", idState: { project: await places.project(attributes["project"]), agentId: id(attributes["agent_id"]) } },
    ],
  },
  gitlab_cluster_agent_token: {
    becomes: ["clusterAgentToken"],
    terraformId: "`<project>:<agent id>:<token id>`",
    objects: async (attributes, places) => [
      {
        key: "clusterAgentToken",
        idState: {
          project: await places.project(attributes["project"]),
          agentId: id(attributes["agent_id"]),
          tokenId: id(attributes["token_id"]),
        },
      },
    ],
    cannotMove: (attributes) => (present(attributes["token"]) ? TOKEN_VALUE : undefined),
    advice:
      "An adopted token's `token` output is empty (the forge shows the value once, at creation): whatever read " +
      "it from Terraform (an output, a Helm release of the agent) must take it from elsewhere. A new " +
      "ClusterAgentToken gives Pulumi a value it keeps as a secret output; an agent has at most two active tokens.",
  },
  gitlab_project_membership: {
    becomes: ["projectMember"],
    terraformId: "`<project>:<user id>`",
    formerly: { project: { name: "project_id", releases: "3.x to 15.x" } },
    objects: async (attributes, places) => [
      { key: "projectMember", idState: { project: await places.project(attributes["project"]), userId: id(attributes["user_id"]) } },
    ],
    advice: "The member is declared by username. A custom role (`member_role_id`) is not carried: the forge never shows it.",
    notes: (attributes) =>
      present(attributes["member_role_id"])
        ? [
            `member_role_id ${String(attributes["member_role_id"])}: the forge never shows a custom role, so the program leaves it out (and the role stays). ` +
              "Add `memberRoleId` after the first `up` for Pulumi to manage it: the next `up` sends it.",
          ]
        : [],
  },
  gitlab_instance_cluster: {
    becomes: ["instanceCluster"],
    terraformId: "`<cluster id>`",
    objects: async (attributes) => [{ key: "instanceCluster", idState: { clusterId: id(attributes["id"]) } }],
    secrets: { "platformVendorAttributes.token": "kubernetes_token", "platformVendorAttributes.caCert": "kubernetes_ca_cert" },
    advice:
      "Its token (which the forge never shows) and CA certificate are read from secret stack config; the program's config listing names the state attribute that holds each value.",
  },
  gitlab_project_job_token_scope: {
    becomes: ["jobTokenScopeProjectAllowlistEntry", "jobTokenScopeGroupAllowlistEntry"],
    terraformId: "`<project>:project:<target id>` or `<project>:group:<target id>`",
    async objects(attributes, places) {
      const project = await places.project(attributes["project"]);
      if (present(attributes["target_group_id"]))
        return [{ key: "jobTokenScopeGroupAllowlistEntry", idState: { project, targetGroupId: id(attributes["target_group_id"]) } }];
      return [{ key: "jobTokenScopeProjectAllowlistEntry", idState: { project, targetProjectId: id(attributes["target_project_id"]) } }];
    },
  },
  gitlab_project_job_token_scopes: {
    becomes: ["jobTokenScope", "jobTokenScopeProjectAllowlistEntry", "jobTokenScopeGroupAllowlistEntry"],
    terraformId: "`<project>`",
    formerly: { project: { name: "project_id", releases: "17.0 to 17.2; 17.3 to 18.x write both" } },
    async objects(attributes, places) {
      const project = await places.project(attributes["project"]);
      const ids = (name: string) => (Array.isArray(attributes[name]) ? (attributes[name] as unknown[]) : []).map(id).sort((a, b) => a - b);
      return [
        ...(typeof attributes["enabled"] === "boolean" ? [{ key: "jobTokenScope" as const, idState: { project } }] : []),
        ...ids("target_project_ids").map((targetProjectId) => ({
          key: "jobTokenScopeProjectAllowlistEntry" as const,
          idState: { project, targetProjectId },
        })),
        ...ids("target_group_ids").map((targetGroupId) => ({
          key: "jobTokenScopeGroupAllowlistEntry" as const,
          idState: { project, targetGroupId },
        })),
      ];
    },
    advice:
      "Terraform owned the whole allowlist (it removed entries it did not list); the program declares one " +
      "resource per entry, so an entry added by hand later is left alone. `enabled` becomes a JobTokenScope.",
  },
  gitlab_project_feature_flag_user_list: {
    becomes: ["featureFlagUserList"],
    terraformId: "`<project>:<list iid>`",
    objects: async (attributes, places) => [
      { key: "featureFlagUserList", idState: { project: await places.project(attributes["project"]), iid: id(attributes["iid"]) } },
    ],
  },
  gitlab_project_error_tracking_settings: {
    becomes: ["errorTrackingSettings"],
    // A resource new in the provider's repository, documented without an import section.
    terraformId: "none documented; the project is its `project_id`",
    objects: async (attributes, places) => [
      { key: "errorTrackingSettings", idState: { project: await places.project(attributes["project_id"]) } },
    ],
  },
};

/** Types of the GitLab provider that name something of the forge no forge resource declares, and why. */
export const TERRAFORM_UNMAPPED: Readonly<Record<string, string>> = {
  gitlab_group_membership: "no forge resource manages group members (ProjectMember is a project's direct member)",
  gitlab_label: "no forge resource manages a project's labels (GroupLabel is a group's)",
  gitlab_project_label: "no forge resource manages a project's labels (GroupLabel is a group's)",
  gitlab_group_badge: "no forge resource manages badges",
  gitlab_project_badge: "no forge resource manages badges",
  gitlab_project: "no forge resource manages a project itself",
  gitlab_group_variable: "no forge resource manages CI/CD variables",
  gitlab_project_variable: "no forge resource manages CI/CD variables",
  "gitlab_group_integration_*":
    "the forge's group integrations have slugs of their own (`/groups/:id/integrations/<slug>`), none of them one the GitLab provider's integration resources manage",
};

function unmappedReason(type: string): string {
  const known =
    (Object.hasOwn(TERRAFORM_UNMAPPED, type) ? TERRAFORM_UNMAPPED[type] : undefined) ??
    (type.startsWith("gitlab_group_integration_") ? TERRAFORM_UNMAPPED["gitlab_group_integration_*"] : undefined);
  if (known) return known;
  return type.startsWith("gitlab_")
    ? `no forge resource corresponds to ${type} (docs/guides/adopting-and-terraform.md lists those that do)`
    : "not a resource of the GitLab provider";
}

/** The attributes under the names the mapping reads: an older release's name for one the instance lacks. */
function currentNames(mapping: TerraformType, attributes: Attributes): Attributes {
  const current = { ...attributes };
  for (const [name, former] of Object.entries(mapping.formerly ?? {})) {
    if (!present(current[name]) && present(current[former.name])) current[name] = current[former.name];
  }
  return current;
}

/** An older provider's flat attributes (`name.0`, `name.#`) as lists, scalars as they are. */
function flatAttributes(flat: Record<string, string>): Attributes {
  const attributes: Attributes = {};
  for (const [name, value] of Object.entries(flat)) {
    const item = /^([^.]+)\.(\d+)$/.exec(name);
    if (item) ((attributes[item[1]!] ??= []) as unknown[]).push(value);
    else if (!name.includes(".")) attributes[name] = value;
  }
  return attributes;
}

/**
 * The adoption of the objects a Terraform state manages: each read from the forge by the import id
 * its attributes give. Data sources are skipped; a type no forge resource declares, an object the
 * forge does not have, and one the forge refuses to show are noted, with their addresses.
 */
export async function readTerraformState(client: ForgeClient, state: TerraformState, file: string): Promise<Adoption> {
  const places = new Places(client);
  const targets: AdoptTarget[] = [];
  const skipped: Skipped[] = [];
  const cannotMove: Notice[] = [];
  const notes: Notice[] = [];
  const attributesOf = new Map<string, { mapping: TerraformType; attributes: Attributes }>();
  const providers = new Set<string>();
  const typesSeen = new Set<string>();
  for (const resource of state.resources) {
    if (resource.mode !== "managed") continue; // a data source reads; nothing to adopt
    // A state's type is any string (`__proto__` too): only the table's own rows map.
    const mapping = Object.hasOwn(TERRAFORM_TYPES, resource.type) ? TERRAFORM_TYPES[resource.type] : undefined;
    for (const instance of resource.instances) {
      const address = terraformAddress(resource, instance.index_key);
      if (!mapping) {
        skipped.push({ what: address, reason: unmappedReason(resource.type), left: true });
        continue;
      }
      if (instance.deposed) {
        skipped.push({
          what: `${address} (deposed ${instance.deposed})`,
          reason: "an object Terraform replaced and was still to delete: not adopted",
          left: true,
        });
        continue;
      }
      if (resource.provider) providers.add(resource.provider);
      typesSeen.add(resource.type);
      const attributes = currentNames(mapping, instance.attributes ?? flatAttributes(instance.attributes_flat ?? {}));
      try {
        for (const object of await mapping.objects(attributes, places)) {
          const scope = (adoptEntries[object.key] as AdoptEntry).scope;
          const path = scope === "instance" ? "" : String(object.idState[scope]);
          targets.push({ key: object.key, scope: scope, path, idState: object.idState, origin: address });
        }
      } catch (error) {
        if (!(error instanceof Missing)) throw error;
        // The shape of an instance this release does not know, to tell which release wrote it: names, never values.
        const shape = `; the instance has ${Object.keys(attributes).sort().join(", ") || "no attributes"}${instance.schema_version === undefined ? "" : ` (schema_version ${instance.schema_version})`}`;
        skipped.push({ what: address, reason: `${error.message}${error.absent ? shape : ""}`, left: true });
        continue;
      }
      attributesOf.set(address, { mapping, attributes });
      const lost = mapping.cannotMove?.(attributes);
      if (lost) cannotMove.push({ what: address, text: lost });
      if (instance.status === "tainted")
        notes.push({ what: address, text: "tainted: Terraform planned to replace it; the program adopts it as it is." });
      for (const note of mapping.notes?.(attributes) ?? []) notes.push({ what: address, text: note });
    }
  }
  const advice = [...typesSeen]
    .sort()
    .flatMap((type) => (TERRAFORM_TYPES[type]!.advice ? [{ what: type, text: TERRAFORM_TYPES[type]!.advice! }] : []));
  if (providers.size > 1) {
    notes.unshift({
      what: "providers",
      text: `the state names ${providers.size} configurations of the provider (${[...providers].sort().join(", ")}); every object was read from this one forge.`,
    });
  }
  const adoption = await readTargets(client, targets);
  for (const resource of adoption.resources) {
    const origin = resource.origin && attributesOf.get(resource.origin);
    if (!origin || !origin.mapping.secrets) continue;
    for (const [path, attribute] of Object.entries(origin.mapping.secrets)) {
      const secret = getPath(resource.inputs, path) as SecretValue | undefined;
      if (secret?.kind === "secret" && present(origin.attributes[attribute])) secret.source = `${attribute} of ${resource.origin}`;
    }
  }
  return { ...adoption, skipped: [...skipped, ...adoption.skipped], terraform: { file, cannotMove, notes: [...notes, ...advice] } };
}

/** The mapping as the markdown tables of docs/guides/adopting-and-terraform.md. */
export function terraformMappingTable(): string {
  const rows = Object.entries(TERRAFORM_TYPES)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([type, mapping]) => {
      const becomes = mapping.becomes.map((key) => `\`${declarations[key].name}\` \`${idFormat(declarations[key])}\``).join("<br>");
      const secrets =
        mapping.secrets &&
        `Secret stack config whose value the state holds: ${Object.entries(mapping.secrets)
          .map(([path, attribute]) => `\`${path}\` (\`${attribute}\`)`)
          .join(", ")}.`;
      const formerly =
        mapping.formerly &&
        `Older states: ${Object.entries(mapping.formerly)
          .map(([name, former]) => `\`${former.name}\` for \`${name}\` (provider releases ${former.releases})`)
          .join(", ")}.`;
      const notes = [mapping.advice, secrets, formerly].filter(Boolean).join(" ");
      return `| \`${type}\` | ${mapping.terraformId} | ${becomes} | ${notes} |`;
    });
  const unmapped = Object.entries(TERRAFORM_UNMAPPED)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([type, reason]) => `| \`${type}\` | ${reason} |`);
  return [
    "| Terraform type | Terraform import id | Forge resource and import id | Notes |",
    "|---|---|---|---|",
    ...rows,
    "",
    "| Not adopted | Why |",
    "|---|---|",
    ...unmapped,
  ].join("\n");
}

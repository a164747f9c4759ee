/**
 * A forge and a Terraform state full of hostile text (test/support/hostile-text.ts), for the tests
 * of forge-adopt's escaping: labels of `acme/platform` named and described with each hostile
 * string, the group's description and a broadcast message too (text from the live forge); and a
 * state, as a team that does not control it might be handed one, whose module paths, resource
 * names, `for_each` keys, types, providers, deposed keys and attribute values are hostile (text
 * from the state). Used by test/cli/adopt-hostile.test.ts and test/e2e/adopt-terraform.test.ts.
 */
import type { World } from "../contract/world";
import { hostileStrings } from "../support/hostile-text";

const PROVIDER = 'provider["registry.terraform.io/gitlabhq/gitlab"]';

/** A hostile label as the forge holds it (the forge trims names). */
export interface HostileLabel {
  id: number;
  name: string;
  description: string;
}

export interface HostileForge {
  /** The hostile strings, the canary's path in them. */
  texts: Record<string, string>;
  labels: HostileLabel[];
  /** The description of `acme/platform`. */
  groupDescription: string;
  /** The state: the labels and the group under hostile addresses, and hostile entries forge-adopt does not adopt. */
  state: { version: 4; terraform_version: string; serial: number; lineage: string; resources: unknown[] };
  /** What --from-terraform declares: `<type>\t<import id>\t<address>`, sorted. */
  expected: string[];
  /** How many instances of the state forge-adopt lists as not adopted. */
  notAdopted: number;
}

/** Makes the hostile objects on the forge, and the hostile state naming them. `canary` is the file injected code would write. */
export async function seedHostileForge(world: World, canary: string): Promise<HostileForge> {
  const texts = hostileStrings(canary);
  const values = Object.values(texts);
  const labels: HostileLabel[] = [];
  for (const [index, hostile] of values.entries()) {
    // The forge refuses a NUL in any parameter: only the state holds one.
    const text = hostile.replaceAll("\u0000", "");
    const body = (
      await world.api.request<{ id: number; name: string; description: string }>("POST", "/groups/:group/labels", {
        group: "acme/platform",
        name: `h${index} ${text}`,
        color: "#336699",
        description: text,
      })
    ).body;
    labels.push({ id: body.id, name: body.name, description: body.description });
  }
  const groupDescription = texts["newline"]!;
  await world.api.request("PUT", "/groups/:group", { group: "acme/platform", description: groupDescription });
  await world.api.request("POST", "/broadcast_messages", { message: texts["lineSeparator"], broadcast_type: "banner" });

  const platform = world.groupId("acme/platform");
  const expected: string[] = [];
  const address = (resource: { module?: string; type: string; name: string }, key?: string) =>
    `${resource.module ? `${resource.module}.` : ""}${resource.type}.${resource.name}${key === undefined ? "" : `[${JSON.stringify(key)}]`}`;
  const instance = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    ...extra,
    schema_version: 0,
    attributes,
    sensitive_attributes: [],
    private: "bnVsbA==",
  });

  // Each label under its own hostile address: a module path, a resource name and a for_each key made of hostile text.
  const resources: { module?: string; mode: string; type: string; name: string; provider: string; instances: unknown[] }[] = labels.map(
    (label, index) => {
      const text = values[index]!;
      const resource = {
        ...(index % 2 === 0 ? { module: `module.m${text}` } : {}),
        mode: "managed",
        type: "gitlab_group_label",
        name: `label${text}`,
        provider: PROVIDER,
      };
      expected.push(`GroupLabel\tacme/platform:${label.id}\t${address(resource, text)}`);
      return {
        ...resource,
        instances: [
          instance(
            { id: `${platform}:${label.id}`, group: "acme/platform", label_id: label.id, name: label.name, color: "#336699" },
            { index_key: text },
          ),
        ],
      };
    },
  );
  const group = {
    mode: "managed",
    type: "gitlab_group",
    name: `platform${texts["yamlIndicators"]}`,
    provider: `${PROVIDER}${texts["newline"]}`,
  };
  expected.push(`GroupSettings\tacme/platform\t${address(group)}`);
  resources.push({
    ...group,
    instances: [
      instance({ id: String(platform), full_path: "acme/platform", description: groupDescription, push_rules: [] }, { status: "tainted" }),
    ],
  });
  // Not adopted, each saying so with hostile text: types nothing maps (one named like an object's own property),
  // a deposed object, a project and a label the forge does not have, a custom role's hostile id.
  const left = [
    {
      mode: "managed",
      type: `gitlab_${texts["interpolation"]}`,
      name: "unknown",
      provider: PROVIDER,
      instances: [instance({ id: texts["nul"] })],
    },
    { mode: "managed", type: "__proto__", name: "proto", provider: PROVIDER, instances: [instance({ id: "1" })] },
    {
      mode: "managed",
      type: `random_${texts["escape"]}`,
      name: "other",
      provider: `provider["registry.terraform.io/hashicorp/random"]${texts["bidi"]}`,
      instances: [instance({ id: "x" })],
    },
    {
      mode: "managed",
      type: "gitlab_group_label",
      name: "deposed",
      provider: PROVIDER,
      instances: [
        instance(
          { id: `${platform}:${labels[0]!.id}`, group: "acme/platform", label_id: labels[0]!.id },
          { deposed: texts["carriageReturn"] },
        ),
      ],
    },
    {
      mode: "managed",
      type: "gitlab_project_membership",
      name: `member${texts["quotes"]}`,
      provider: PROVIDER,
      instances: [instance({ id: "x", project: texts["long"], user_id: 1, member_role_id: texts["paragraphSeparator"] })],
    },
    {
      mode: "managed",
      type: "gitlab_group_label",
      name: "legacy",
      provider: PROVIDER,
      instances: [instance({ id: "legacy", group: "acme/platform", name: texts["blockComment"] })],
    },
  ];
  resources.push(...left);
  expected.sort();
  return {
    texts,
    labels,
    groupDescription,
    state: { version: 4, terraform_version: "1.9.8", serial: 7, lineage: "hostile", resources },
    expected,
    notAdopted: left.length,
  };
}

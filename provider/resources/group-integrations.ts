/**
 * The sixteen group integrations of the API, one resource per slug, all interpreted from the
 * one table in api/integrations.ts: each parameter becomes a typed input (camelCase here,
 * snake_case on the wire), credentials become write-only secrets, defaults become the resets of
 * inputs dropped from the program. Adding a slug to the table adds a resource.
 *
 * The forge's integration record (the spec shows none; this is the real service's shape, see
 * docs/architecture.md "Group integrations"): `id`, `title`, `slug`, `created_at`, `updated_at`,
 * `active`, `inherited`, the event flags (`push_events`, ...) at the top level, and the other
 * settings under `properties`, credentials left out.
 */
import { z } from "zod";
import {
  INTEGRATION_FORMATS,
  INTEGRATIONS,
  integrationTypeSuffix,
  USE_INHERITED_SETTINGS,
  type IntegrationKind,
  type IntegrationParameter,
  type IntegrationSlug,
} from "../../api/integrations";
import { toCamel } from "../engine/naming";
import { defineResource, type ResourceDeclaration } from "../engine/declaration";
import { groupRef, normalizers, show, valueRule, wordList } from "../fields";
import { defineAdopt, type AdoptEntries, type AdoptEntry } from "../adopt-entry/entry";
import { list } from "../adopt-entry/find";
import { routes } from "../../api/routes";

// ---- The types of the inputs, from the table's literal types ----

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type Pascal<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Capitalize<Head>}${Pascal<Tail>}` : Capitalize<S>;

type ValueOf<P> = P extends { type: "boolean" } ? boolean : P extends { values: readonly (infer V)[] } ? V : string;
type FieldOf<P> = P extends { required: true } ? z.ZodType<ValueOf<P>, ValueOf<P>> : z.ZodOptional<z.ZodType<ValueOf<P>, ValueOf<P>>>;

type Parameters<S extends IntegrationSlug> = (typeof INTEGRATIONS)[S]["parameters"];
/** The input shape of one slug's resource. */
export type IntegrationShape<S extends IntegrationSlug> = {
  /** The group: its numeric id or full path. */
  group: typeof groupRef;
  /** Take the settings of the instance-level integration of the same kind (default false). */
  useInheritedSettings: z.ZodOptional<z.ZodBoolean>;
} & { [K in keyof Parameters<S> as Camel<K & string>]: FieldOf<Parameters<S>[K]> };

const integrationOutputs = z.object({
  integrationId: z.number().int().describe("The integration's id on the forge."),
  slug: z.string().describe("The slug, the last segment of the integration's path."),
  title: z.string().describe("The integration's title on the forge."),
  active: z.boolean().describe("Whether the integration is on (true while the resource exists)."),
  createdAt: z.string().describe("When it was first set up."),
  updatedAt: z.string().nullable().describe("When its settings last changed."),
});

export type IntegrationDeclaration<S extends IntegrationSlug> = ResourceDeclaration<
  z.ZodObject<IntegrationShape<S>>,
  typeof integrationOutputs
>;

// ---- The schema of one parameter ----

function parameterSchema(wire: string, parameter: IntegrationParameter): z.ZodType {
  let schema: z.ZodType;
  if (parameter.type === "boolean") {
    schema = parameter.deprecated
      ? z.boolean().check(
          z.superRefine<boolean>((value, ctx) => {
            if (value !== true)
              ctx.addIssue({
                code: "invalid_value",
                values: [true],
                input: value,
                message: `Deprecated by the forge (${parameter.deprecated}): only true is accepted. Drop ${toCamel(wire)}.`,
              });
          }),
        )
      : z.boolean();
  } else if (parameter.values) {
    const values = parameter.values as readonly [string, ...string[]];
    schema = z.enum(values, {
      error: (issue) => (issue.input === undefined ? undefined : `${show(issue.input)} is not one of ${wordList(values.map(show))}.`),
    });
  } else {
    let text = z.string();
    if (parameter.required) {
      text = text.check(
        valueRule({
          format: "non-blank",
          rule: "text that is not blank",
          holds: (value) => value.trim() !== "",
          message: () => `It is blank; the forge requires ${wire}.`,
        }),
      );
    }
    const format = parameter.format && INTEGRATION_FORMATS[parameter.format];
    if (format) {
      text = text.check(
        valueRule({
          format: parameter.format!,
          rule: `${format.rule}, or blank`,
          holds: (value) => value.trim() === "" || format.holds(value),
          message: (value) => `${parameter.secret ? "The value" : show(value)} is not ${format.rule}.`,
        }),
      );
    }
    schema = text;
  }
  const documented = schema.describe(parameter.deprecated ? `${parameter.doc} Deprecated.` : parameter.doc);
  return parameter.required ? documented : documented.optional();
}

// ---- The operations that are not generic ----

function declarationOf<S extends IntegrationSlug>(slug: S): IntegrationDeclaration<S> {
  const kind: IntegrationKind = INTEGRATIONS[slug];
  const name = `GroupIntegration${integrationTypeSuffix(slug)}`;
  const parameters = Object.entries(kind.parameters);
  const shape: Record<string, z.ZodType> = {
    group: groupRef.describe("The group: its numeric id or full path."),
    useInheritedSettings: z.boolean().describe(USE_INHERITED_SETTINGS.doc).optional(),
  };
  for (const [wire, parameter] of parameters) shape[toCamel(wire)] = parameterSchema(wire, parameter);
  const resets: Record<string, unknown> = { useInheritedSettings: false };
  // Text without a default is cleared with a blank; the rest goes back to its default.
  for (const [wire, parameter] of parameters) if (!parameter.required) resets[toCamel(wire)] = parameter.default ?? "";
  const secrets = (which: IntegrationParameter["secret"]) =>
    parameters.filter(([, parameter]) => parameter.secret === which).map(([wire]) => toCamel(wire));
  const credentials = secrets("write-only");
  const them = credentials.length > 1 ? "them" : "it";
  const route = routes.groupIntegrations.bySlug[slug];
  // The record holds the settings under `properties` (the event flags at the top level).
  const readNames: Record<string, string> = { useInheritedSettings: "inherited" };
  for (const [wire] of parameters) readNames[toCamel(wire)] = `properties.${wire}`;

  const declaration = defineResource({
    name,
    summary: `Group integration \`${slug}\`: ${kind.summary}`,
    inputs: z.object(shape),
    // The slug is the declaration's: an import id naming another slug is refused.
    outputs: integrationOutputs.extend({ slug: z.literal(slug).describe("The slug, the last segment of the integration's path.") }),
    recordId: "integrationId",
    idParts: ["group", "slug"],
    // Set-up refuses to take over an integration someone else turned on: import it instead.
    identity: { fields: ["group"], describe: (state) => `the ${slug} integration of group ${show(state["group"])}` },
    create: route.set,
    // A disabled integration is what a DELETE leaves: the resource is gone.
    read: { route: route.get, exists: (record) => record["active"] === true },
    // The forge wants the required parameters, credentials included, on each PUT: an update
    // sends what the program sets, not only what changed.
    update: { route: route.set, sends: "set" },
    delete: route.disable,
    replaceOn: ["group"],
    // One integration of a slug per group: a replacement (the same group spelled another way
    // counts) disables the old one before it sets up the new one.
    deleteBeforeReplace: true,
    writeOnly: credentials,
    secretOutputs: secrets("readable"),
    readNames,
    resets,
    normalize: { group: normalizers.ref },
    notes: [
      `\`PUT ${route.set.path.replace(":group", ":id")}\` sets it up, \`GET\` reads it, \`DELETE\` disables it and resets its settings; the Maintainer role in the group is needed for all three.`,
      "Creating the resource refuses an integration that is already active: import it with the `import` option instead. Deleting it disables the integration; a disabled one reads as gone.",
      ...(credentials.length
        ? [
            `${wordList(
              credentials.map((key) => `\`${key}\``),
              "and",
            )}: write-only (the forge never returns ${them}), kept in state encrypted and compared with the last applied value; every set-up sends ${them} again. An import cannot compare ${them}: it writes nothing, and the next \`pulumi up\` shows ${them} as a change and writes the program's value.`,
          ]
        : []),
      ...(secrets("readable").length
        ? ["The per-event webhook overrides are returned by the forge and kept in state encrypted (a webhook address carries its token)."]
        : []),
      "`useInheritedSettings` is read back from the record's `inherited`.",
      ...(kind.notes ?? []),
    ],
  });
  return declaration as unknown as IntegrationDeclaration<S>;
}

/** The declarations, keyed `groupIntegration<Slug>` like every entry of the registry. */
export type GroupIntegrationDeclarations = { [S in IntegrationSlug as `groupIntegration${Pascal<S>}`]: IntegrationDeclaration<S> };

export const groupIntegrations = Object.fromEntries(
  (Object.keys(INTEGRATIONS) as IntegrationSlug[]).map((slug) => [`groupIntegration${integrationTypeSuffix(slug)}`, declarationOf(slug)]),
) as GroupIntegrationDeclarations;

/** The table's row behind an integration resource type (`GroupIntegrationChatWebhook` → chat-webhook). */
export function integrationKindOf(typeName: string): IntegrationKind | undefined {
  return Object.values(INTEGRATIONS).find((kind: IntegrationKind) => `GroupIntegration${integrationTypeSuffix(kind.slug)}` === typeName);
}

/**
 * The entries of the sixteen group integrations, one loop over the declarations built from
 * api/integrations.ts: a group's active integrations of each slug (the listing shows only
 * active ones); their credentials, which the forge never returns, become stack config reads.
 */
function integrationEntries(): Record<keyof typeof groupIntegrations, AdoptEntry> {
  return Object.fromEntries(
    Object.entries(groupIntegrations).map(([key, declaration]) => {
      const slug = integrationKindOf(declaration.name)!.slug;
      const entry = defineAdopt({
        scope: "group",
        find: async ({ path, client }) =>
          (await list("listGroupIntegrations", { group: path }, client))
            .filter((record) => record["slug"] === slug && record["active"] === true)
            .map(() => ({ group: path, slug })),
        name: () => `integration ${slug}`,
      });
      return [key, entry];
    }),
  ) as Record<keyof typeof groupIntegrations, AdoptEntry>;
}

/** What forge-adopt finds of this file's resources (provider/adopt): where their objects are, what to call them. */
export const adopt: AdoptEntries = {
  ...integrationEntries(),
};

/** This file's declarations, as the generated registry (provider/resources/index.ts) lists them. */
export const registered = { ...groupIntegrations };

/**
 * Small builders that keep each policy declarative: a name, a description, a level, a config
 * schema with defaults, and a check over plain inputs. Resources are matched by their type
 * token (`pulumi-nodejs:dynamic/forge:<Name>`): the typed helpers of @pulumi/policy
 * (`validateResourceOfType`) never match dynamic resources.
 */
import type {
  EnforcementLevel,
  Policy,
  PolicyConfigSchema,
  PolicyResource,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from "@pulumi/policy";
import type { AnyDeclaration } from "../../provider/engine/declaration";
import { pluginToken, typeToken } from "../../provider/type-tokens";
import { plain, type Bag } from "./values";

export type ForgePolicy = ResourceValidationPolicy | StackValidationPolicy;

/** The type tokens a policy looks at (for the coverage test and docs/policies.md). */
const targets = new WeakMap<Policy, string[]>();

export function policyTargets(policy: Policy): string[] {
  return targets.get(policy) ?? [];
}

/** A tunable value: its JSON schema (with the default) and the default itself. */
export type ConfigSpec = Record<string, PolicyConfigSchema["properties"][string] & { default: unknown }>;

/** The config a policy runs with: what `--policy-pack-config` gave, defaults for the rest. */
export function configWithDefaults<C>(spec: ConfigSpec | undefined, given: object): C {
  const defaults = Object.fromEntries(Object.entries(spec ?? {}).map(([key, schema]) => [key, schema.default]));
  const set = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
  return { ...defaults, ...set } as C;
}

interface Common {
  /** kebab-case, unique in the pack. */
  name: string;
  /** One line: the rule, as the CLI prints it above each violation. */
  description: string;
  enforcementLevel: EnforcementLevel;
  /** Tunables, each with its `default`; `C` is their type. */
  config?: ConfigSpec;
}

/** What a resource check gets: the resource's inputs as plain data, its name and the config. */
export interface ResourceCheck<C> {
  /** Inputs as the program passed them (camelCase); unknown values are sentinels (see values.ts). */
  inputs: Bag;
  /** `GroupLabel "bugs"`: the resource as messages name it. */
  subject: string;
  /** The declaration of the resource's type. */
  declaration: AnyDeclaration;
  config: C;
  args: ResourceValidationArgs;
  /** Reports one violation: a full sentence that names the resource and the fix. */
  report(message: string): void;
}

/** The declarations by both their type tokens: the dynamic class's (`pulumi-nodejs:dynamic/forge:X`)
 *  and the provider plugin's (`forge:index:X`), so that a policy applies to either face. */
function byEitherToken(declarations: AnyDeclaration[]): Map<string, AnyDeclaration> {
  return new Map(
    declarations.flatMap((declaration) => [
      [typeToken(declaration), declaration] as const,
      [pluginToken(declaration.name), declaration] as const,
    ]),
  );
}

export function resourcePolicy<C = Record<string, never>>(
  spec: Common & { resources: AnyDeclaration[]; check(ctx: ResourceCheck<C>): void },
): ResourceValidationPolicy {
  const tokens = spec.resources.map((declaration) => typeToken(declaration));
  const byToken = byEitherToken(spec.resources);
  const validate = (args: ResourceValidationArgs, reportViolation: (message: string) => void) => {
    const declaration = byToken.get(args.type);
    if (!declaration) return;
    spec.check({
      inputs: plain(args.props),
      subject: `${declaration.name} "${args.name}"`,
      declaration,
      config: configWithDefaults<C>(spec.config, args.getConfig<object>()),
      args,
      report: (message) => reportViolation(message),
    });
  };
  // (A single `__pulumiType` would let the analyzer skip other resources, but each declaration
  // has two tokens: the dynamic class's and the plugin's.)
  const policy: ResourceValidationPolicy = {
    name: spec.name,
    description: spec.description,
    enforcementLevel: spec.enforcementLevel,
    ...(spec.config ? { configSchema: { properties: spec.config } } : {}),
    validateResource: validate,
  };
  targets.set(policy, tokens);
  return policy;
}

/** A resource of the stack as stack checks see it: outputs (at preview, the inputs) as plain data. */
export interface StackResource {
  resource: PolicyResource;
  props: Bag;
  subject: string;
  /** The declaration of its type. */
  declaration: AnyDeclaration;
}

export interface StackCheck<C> {
  /** The resources of the policy's types, in stack order. */
  resources: StackResource[];
  /** Every resource of the stack, including the root `pulumi:pulumi:Stack` (its props are the stack outputs). */
  all: PolicyResource[];
  config: C;
  args: StackValidationArgs;
  /** Reports one violation, against a resource when `urn` is given. */
  report(message: string, urn?: string): void;
}

export function stackPolicy<C = Record<string, never>>(
  spec: Common & { resources: AnyDeclaration[]; check(ctx: StackCheck<C>): void },
): StackValidationPolicy {
  const byToken = byEitherToken(spec.resources);
  const policy: StackValidationPolicy = {
    name: spec.name,
    description: spec.description,
    enforcementLevel: spec.enforcementLevel,
    ...(spec.config ? { configSchema: { properties: spec.config } } : {}),
    validateStack: (args, reportViolation) => {
      const resources: StackResource[] = [];
      for (const resource of args.resources) {
        const declaration = byToken.get(resource.type);
        if (declaration)
          resources.push({ resource, props: plain(resource.props), subject: `${declaration.name} "${resource.name}"`, declaration });
      }
      spec.check({
        resources,
        all: args.resources,
        config: configWithDefaults<C>(spec.config, args.getConfig<object>()),
        args,
        report: (message, urn) => reportViolation(message, urn),
      });
    },
  };
  targets.set(
    policy,
    spec.resources.map((declaration) => typeToken(declaration)),
  );
  return policy;
}

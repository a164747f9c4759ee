/**
 * Hand-built analyzer arguments for unit tests of the policies (@pulumi/policy ships no test
 * helpers). Props go through the same unknown-checking proxy the analyzer wraps them in, so a
 * policy that reads an unknown value the wrong way fails here as it would under the engine.
 */
import {
  unknownCheckingProxy,
  type Policy,
  type PolicyResource,
  type ReportViolation,
  type ResourceValidationArgs,
  type ResourceValidationPolicy,
  type StackValidationArgs,
  type StackValidationPolicy,
} from "@pulumi/policy";
import { type AnyDeclaration } from "../../provider/engine/declaration";
import { typeToken } from "../../provider/type-tokens";
import { UNKNOWN } from "../../provider/engine/unknowns";

export { UNKNOWN };

const notApplicable = (reason?: string): never => {
  throw new Error(`notApplicable: ${reason}`);
};

export const urnOf = (type: string, name: string) => `urn:pulumi:test::forge::${type}::${name}`;

export interface ResourceCase {
  declaration?: AnyDeclaration;
  /** Instead of a declaration's token. */
  type?: string;
  name?: string;
  props: Record<string, unknown>;
  config?: Record<string, unknown>;
}

/** Runs a resource policy on one resource; returns the messages it reported. */
export async function validateResource(policy: Policy, input: ResourceCase): Promise<string[]> {
  const resourcePolicy = policy as ResourceValidationPolicy;
  if (!resourcePolicy.validateResource) throw new Error(`${policy.name} is not a resource policy`);
  const type = input.type ?? typeToken(input.declaration!);
  const name = input.name ?? "subject";
  const props = unknownCheckingProxy(input.props) as Record<string, unknown>;
  const args: ResourceValidationArgs = {
    type,
    props,
    urn: urnOf(type, name),
    name,
    opts: {
      protect: false,
      ignoreChanges: [],
      aliases: [],
      customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
      additionalSecretOutputs: [],
    },
    stackTags: new Map(),
    isType: () => false,
    asType: () => undefined,
    getConfig: <T extends object>() => (input.config ?? {}) as T,
    notApplicable,
  };
  const messages: string[] = [];
  const report: ReportViolation = (message) => messages.push(message);
  const validations = Array.isArray(resourcePolicy.validateResource) ? resourcePolicy.validateResource : [resourcePolicy.validateResource];
  for (const validation of validations) await validation(args, report);
  return messages;
}

export interface StackCase {
  declaration?: AnyDeclaration;
  type?: string;
  name: string;
  props: Record<string, unknown>;
  deleteBeforeReplace?: boolean;
  /** Property name → names of the resources (in this list) it was computed from. */
  dependsOn?: Record<string, string[]>;
}

export interface Violation {
  message: string;
  urn?: string | undefined;
}

/** Runs a stack policy over the given resources (their outputs; at preview, their inputs). */
export async function validateStack(policy: Policy, cases: StackCase[], config: Record<string, unknown> = {}): Promise<Violation[]> {
  const stackPolicy = policy as StackValidationPolicy;
  if (!stackPolicy.validateStack) throw new Error(`${policy.name} is not a stack policy`);
  const resources: PolicyResource[] = cases.map((input) => {
    const type = input.type ?? typeToken(input.declaration!);
    return {
      type,
      props: unknownCheckingProxy(input.props) as Record<string, unknown>,
      urn: urnOf(type, input.name),
      name: input.name,
      opts: {
        protect: false,
        ignoreChanges: [],
        aliases: [],
        customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
        additionalSecretOutputs: [],
        ...(input.deleteBeforeReplace !== undefined ? { deleteBeforeReplace: input.deleteBeforeReplace } : {}),
      },
      dependencies: [],
      propertyDependencies: {},
      isType: () => false,
      asType: () => undefined,
    };
  });
  cases.forEach((input, index) => {
    for (const [property, names] of Object.entries(input.dependsOn ?? {})) {
      resources[index]!.propertyDependencies[property] = names.map((name) => {
        const found = resources.find((resource) => resource.name === name);
        if (!found) throw new Error(`no resource named ${name}`);
        return found;
      });
    }
  });
  const args: StackValidationArgs = {
    resources,
    stackTags: new Map(),
    getConfig: <T extends object>() => config as T,
    notApplicable,
  };
  const violations: Violation[] = [];
  await stackPolicy.validateStack(args, (message, urn) => violations.push({ message, urn }));
  return violations;
}

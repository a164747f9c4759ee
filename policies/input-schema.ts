/**
 * The generic policy: every resource's inputs against its declaration's own zod schema, the same
 * check the provider runs (provider/engine/check.ts), so that the pack holds every schema rule
 * too: with `pulumi policy analyze` on a stack's state, or when an organisation enforces the pack.
 * Rules that a resource's own policies report in friendlier words (their `covers`) are left to them.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { checkInputs } from "../provider/engine/check";
import { inputKeys, type AnyDeclaration } from "../provider/engine/declaration";
import { declarations } from "../provider/resources";
import { resourcePolicy, type ResourceRules } from "./lib/define";

/** `deployAccessLevels[2].accessLevel` → `deployAccessLevels[].accessLevel`. */
export function pathPattern(property: string): string {
  return property.replace(/\[\d+\]/g, "[]");
}

export function inputSchemaPolicy(rules: ResourceRules[]): ResourceValidationPolicy {
  const all: AnyDeclaration[] = Object.values(declarations);
  const covered = new Map(rules.map((file) => [file.resource.name, new Set(file.covers)]));
  return resourcePolicy({
    name: "forge-input-schema",
    description: "Every forge resource's inputs follow its schema: the types, ranges and formats the forge accepts.",
    enforcementLevel: "mandatory",
    resources: all,
    check({ inputs, subject, declaration, report }) {
      const skip = covered.get(declaration.name) ?? new Set<string>();
      for (const failure of checkInputs(declaration, inputs)) {
        if (skip.has(pathPattern(failure.property))) continue;
        if (failure.reason.startsWith(`${declaration.name} has no input `)) {
          report(`${subject} sets ${failure.property}, which is not an input of ${declaration.name}. Remove it or correct its name (inputs: ${inputKeys(declaration).join(", ")}).`);
        } else {
          const where = failure.property === declaration.name ? "inputs" : failure.property;
          report(`${subject} has an invalid ${where}: ${sentence(failure.reason)}. Correct it in the program; the forge would refuse it.`);
        }
      }
    },
  });
}

/** A zod message inside a sentence: "Too big: …" → "too big: …", without a final period. */
function sentence(reason: string): string {
  const trimmed = reason.replace(/[.\s]+$/, "");
  return /^[A-Z][a-z]/.test(trimmed) ? trimmed[0]!.toLowerCase() + trimmed.slice(1) : trimmed;
}

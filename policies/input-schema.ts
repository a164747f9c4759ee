/**
 * The generic policy: every resource's inputs against its declaration's own zod schema, the same
 * check the provider runs (provider/engine/check.ts). The schema is the one place an input rule
 * and its wording live; this policy makes the pack hold every one of them too, for
 * `pulumi policy analyze` on a stack's state and for organisations that enforce the pack.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { checkInputs } from "../provider/engine/check";
import { engineKeys, inputKeys, type AnyDeclaration } from "../provider/engine/declaration";
import { declarations } from "../provider/resources";
import { resourcePolicy } from "./lib/define";

export const inputSchema: ResourceValidationPolicy = resourcePolicy({
  name: "forge-input-schema",
  description: "Every forge resource's inputs follow its schema: the types, values, formats and combinations the forge accepts.",
  enforcementLevel: "mandatory",
  resources: Object.values(declarations) as AnyDeclaration[],
  check({ inputs, subject, declaration, report }) {
    // The provider's check adds its own fields to the inputs (a file's digest): not the program's.
    const own = Object.fromEntries(Object.entries(inputs).filter(([key]) => !engineKeys(declaration).includes(key)));
    for (const failure of checkInputs(declaration, own)) {
      if (failure.reason.startsWith(`${declaration.name} has no input `)) {
        report(
          `${subject} sets ${failure.property}, which is not an input of ${declaration.name}. Remove it or correct its name (inputs: ${inputKeys(declaration).join(", ")}).`,
        );
      } else {
        const where = failure.property === declaration.name ? "inputs" : failure.property;
        report(`${subject} has an invalid ${where}: ${withFix(failure.reason)}`);
      }
    }
  },
});

/**
 * The schemas' own messages are full sentences ending with their fix; zod's built-in ones
 * ("Invalid input: expected boolean, received string") are clauses and get a generic fix.
 */
function withFix(reason: string): string {
  const text = /^[A-Z][a-z]/.test(reason) ? reason[0]!.toLowerCase() + reason.slice(1) : reason;
  return /[.?!]$/.test(text) ? text : `${text}. Correct it in the program; the forge would refuse it.`;
}

import type { AnyDeclaration } from "./declaration";
import { derivedOutputs, declaredSecrets } from "./declaration";

/**
 * The properties of a resource the state keeps secret: the declaration's secrets, the inputs the
 * program gave as secrets, and the outputs made from those (a label's `descriptionHtml` from a
 * secret `description`). The one rule both faces apply: the classes when a program registers a
 * resource, the plugin when it answers the engine (a YAML literal arrives in plain text).
 */
export function secretProperties(declaration: AnyDeclaration, secretInputs: Iterable<string> = []): Set<string> {
  const given = new Set(secretInputs);
  const derived = Object.entries(derivedOutputs(declaration))
    .filter(([, input]) => given.has(input))
    .map(([output]) => output);
  return new Set([...declaredSecrets(declaration), ...given, ...derived]);
}

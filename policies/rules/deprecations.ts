/**
 * Resources of areas the forge has deprecated: they still work, but they are on their way out,
 * and a program that adds one today adds a migration for later.
 */
import { routeOf, type AnyDeclaration, type Route } from "../../provider/engine/declaration";
import { declarations } from "../../provider/resources";
import { groupSettings } from "../../provider/resources/group-settings";
import { resourcePolicy } from "../lib/define";

/** The deprecated endpoints a declaration's requests use, as the route table marks them. */
function deprecatedEndpoints(declaration: AnyDeclaration): { route: Route; note: string }[] {
  const requests = [declaration.create, declaration.read, declaration.update, declaration.delete];
  const routes = requests.flatMap((request) => (request === undefined ? [] : ["list" in request ? request.list : routeOf(request)]));
  return [...new Set(routes)].flatMap((route) => (route.deprecated ? [{ route, note: route.deprecated }] : []));
}

const usingDeprecated = (Object.values(declarations) as AnyDeclaration[]).filter(
  (declaration) => deprecatedEndpoints(declaration).length > 0,
);

export const deprecatedEndpointsPolicy = resourcePolicy({
  name: "deprecated-endpoints",
  description:
    "A resource does not rest on endpoints the forge has deprecated (api/routes.ts marks them): they still work, but a program that adds one today adds a migration for later.",
  enforcementLevel: "advisory",
  resources: usingDeprecated,
  config: {},
  check({ declaration, subject, report }) {
    const found = deprecatedEndpoints(declaration);
    const notes = [...new Set(found.map((entry) => entry.note))];
    report(
      `${subject} rests on endpoints the forge has deprecated (${found.map((entry) => entry.route).join(", ")}): ${notes.join("; ")}. Move to what replaces them, then delete this resource.`,
    );
  },
});

/** Deprecated inputs of GroupSettings and what replaces each (the API's versioning rules). */
const DEPRECATED_GROUP_SETTINGS: Record<string, string> = {
  defaultBranchProtection: "defaultBranchProtectionDefaults (who may push and merge, and force pushes)",
  emailsDisabled: "emailsEnabled (its opposite)",
};

export const groupSettingsDeprecatedInputs = resourcePolicy({
  name: "group-settings-deprecated-inputs",
  description:
    "Group settings use the forge's current parameters, not the deprecated ones (default_branch_protection, emails_disabled, the disabled_with_override alias).",
  enforcementLevel: "advisory",
  resources: [groupSettings],
  config: {},
  check({ inputs, subject, report }) {
    for (const [input, replacement] of Object.entries(DEPRECATED_GROUP_SETTINGS)) {
      if (inputs[input] !== undefined) report(`${subject} sets ${input}, which the forge has deprecated. Use ${replacement} instead.`);
    }
    if (inputs["sharedRunnersSetting"] === "disabled_with_override") {
      report(
        `${subject} sets sharedRunnersSetting to "disabled_with_override", a deprecated alias. Write "disabled_and_overridable" instead.`,
      );
    }
  },
});

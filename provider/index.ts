/**
 * pulumi-forge: a forge's configuration as Pulumi resources.
 *
 * Connection: `FORGE_BASE_URL` and `FORGE_TOKEN` in the environment, or stack config
 * `forge:baseUrl` and `forge:token` (`pulumi config set --secret forge:token ...`). The token is
 * read at run time and never stored in state.
 *
 * Every resource's Pulumi id is also its import id (the `import` resource option).
 */
import { aliasFromOtherFace } from "./faces/face-aliases";

// Every resource class, its Args and Outputs types, and every lookup, derived from the registries
// by `npm run generate` (TypeScript needs each named export spelled out).
export * from "./generated/resources";
export * from "./generated/lookups";
export { lookupDeclarations } from "./lookups/registry";
export type { ForgeFile, ForgeRecord, Lookup, LookupDeclaration, LookupResult } from "./lookups/lookup";
export { repairGeoSite, revokeGroupToken, syncGroupLdap } from "./actions";
export { declarations } from "./resources";
export { typeToken, pluginToken } from "./type-tokens";
export { ForgeApiError, ForgeConfigError } from "./client";

/**
 * For a stack moving from the provider plugin (`pulumi-forge/plugin`, `forge:index:<Name>`) to
 * these classes: call it first in the program, and every forge resource declared after it takes
 * over the plugin face's resource of its name, with its id and outputs, as an alias does. The
 * move's `up` writes nothing to the forge; it updates each resource once in the state, to record
 * its serialized provider (docs/guides/moving-between-faces.md). Harmless once moved.
 */
export function aliasOtherFace(): void {
  aliasFromOtherFace("dynamic");
}

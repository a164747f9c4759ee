/**
 * pulumi-forge/plugin: the library's resources for TypeScript programs that use the provider
 * plugin (`pulumi-resource-forge`) instead of dynamic providers. The classes have the same names,
 * arguments and outputs as those of `pulumi-forge`; their type tokens are `forge:index:<Name>`.
 * The program's Pulumi.yaml names the plugin's directory:
 *
 * ```yaml
 * plugins:
 *   providers:
 *     - name: forge
 *       path: node_modules/pulumi-forge/plugin
 * ```
 *
 * Lookups run in the program, as from `pulumi-forge`.
 */
import { aliasFromOtherFace } from "../faces/face-aliases";

export * from "./resources";
export * from "../generated/lookups";
export { Provider, type ProviderArgs } from "./provider-resource";
export { ForgeApiError, ForgeConfigError } from "../client";

/**
 * For a stack moving from the dynamic classes (`pulumi-forge`,
 * `pulumi-nodejs:dynamic/forge:<Name>`) to the plugin: call it first in the program, and every
 * forge resource declared after it takes over the dynamic class's resource of its name, with its
 * id and outputs, as an alias does: the move's `up` shows every resource unchanged and writes
 * nothing to the forge (docs/guides/moving-between-faces.md). Harmless once moved.
 */
export function aliasOtherFace(): void {
  aliasFromOtherFace("plugin");
}

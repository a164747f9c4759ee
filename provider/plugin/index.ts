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
export * from "../generated/plugin-resources";
export * from "../generated/lookups";
export { Provider, type ProviderArgs } from "./provider-resource";
export { ForgeApiError, ForgeConfigError } from "../client";

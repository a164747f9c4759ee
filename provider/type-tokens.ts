/**
 * The Pulumi type tokens of a declaration on each face, and the way back from a token to the
 * declaration's name: the one place that spells them (the resource classes, the plugin's schema,
 * the policy pack and the CLIs that read a stack's state all use it).
 */

/** The package name, and the module of every plugin token: `forge:index:GroupLabel`. */
export const PACKAGE = "forge";

/** The faces a declaration is served by. */
export type Face = "dynamic" | "plugin";

const PREFIXES: Record<Face, string> = {
  /** The dynamic classes: the Node.js dynamic provider's module, our name after it. */
  dynamic: "pulumi-nodejs:dynamic/forge:",
  /** The provider plugin `pulumi-resource-forge`. */
  plugin: `${PACKAGE}:index:`,
};

/** The type token of a declaration on a face: `pulumi-nodejs:dynamic/forge:GroupLabel`, `forge:index:GroupLabel`. */
export function typeTokenOf(face: Face, name: string): string {
  return `${PREFIXES[face]}${name}`;
}

/** The declaration's name and face of a type token of either face; undefined for any other type. */
export function parseTypeToken(type: string): { name: string; face: Face } | undefined {
  for (const face of Object.keys(PREFIXES) as Face[]) {
    if (type.startsWith(PREFIXES[face]) && type.length > PREFIXES[face].length) return { name: type.slice(PREFIXES[face].length), face };
  }
  return undefined;
}

/** The type token of a declaration's dynamic class: `pulumi-nodejs:dynamic/forge:GroupLabel`. */
export function typeToken(declaration: { name: string }): string {
  return typeTokenOf("dynamic", declaration.name);
}

/** The type token of a declaration (or a lookup, as an invoke) on the plugin: `forge:index:GroupLabel`. */
export function pluginToken(name: string): string {
  return typeTokenOf("plugin", name);
}

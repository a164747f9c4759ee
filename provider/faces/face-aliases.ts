import * as pulumi from "@pulumi/pulumi";
import { parseTypeToken, typeTokenOf, type Face } from "../type-tokens";

/** The face a stack moves from, for each face it moves to. */
const OTHER: Record<Face, Face> = { dynamic: "plugin", plugin: "dynamic" };

/**
 * Gives every forge resource of `face` the program declares from here on an alias to the same
 * resource on the other face (`forge:index:GroupLabel` ⇄ `pulumi-nodejs:dynamic/forge:GroupLabel`,
 * same name and parent): the engine then takes the stack's resources over as they are, with
 * their ids and outputs (an agent token's value), instead of creating new ones and deleting the
 * old. The ids and the engine are the same on both faces, so the move reads the forge and
 * writes nothing to it.
 */
export function aliasFromOtherFace(face: Face): void {
  // Applied in the program as each resource registers (the engine-side `registerResourceTransform`
  // of SDK 3.259 fails on aliases it adds).
  pulumi.runtime.registerStackTransformation((args) => {
    const token = parseTypeToken(args.type);
    if (!(args.resource instanceof pulumi.CustomResource) || token?.face !== face) return undefined;
    const alias: pulumi.Alias = { type: typeTokenOf(OTHER[face], token.name) };
    return { props: args.props, opts: { ...args.opts, aliases: [...(args.opts.aliases ?? []), alias] } };
  });
}

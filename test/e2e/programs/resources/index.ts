/**
 * The end-to-end suite's one program: builds the resources listed in stack config with their
 * pulumi-forge classes, so that a test declares any stack without a program of its own (the
 * harness's `TestStack.declare` writes the config).
 *
 * - `resources`: `[{ type, name, inputs, options? }]`, in order; `type` is the class name
 *   (`GroupLabel`), `options` are resource options (`import`, `deleteBeforeReplace`). An input
 *   `{ "$ref": "<name>.<output>" }` is an output of a resource listed before it.
 * - `secretInputs` (secret config): `{ <name>: { <input>: value } }`, merged into the inputs.
 * - An input `{ "$secret": value }` is given as `pulumi.secret(value)`, as a program passes a
 *   secret config value.
 */
import * as pulumi from "@pulumi/pulumi";
import * as forge from "pulumi-forge";

interface Listed {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
  options?: pulumi.CustomResourceOptions;
}
type ResourceClass = new (name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) => pulumi.CustomResource;

const config = new pulumi.Config();
const listed = config.requireObject<Listed[]>("resources");
// Read as plain values on purpose: the library must keep secret inputs out of the state by itself.
const secretInputs = config.getObject<Record<string, Record<string, unknown>>>("secretInputs") ?? {};

const built: Record<string, pulumi.CustomResource> = {};

function resolve(value: unknown): unknown {
  if (typeof value === "object" && value !== null && "$secret" in value)
    return pulumi.secret(resolve((value as { $secret: unknown }).$secret));
  const ref = typeof value === "object" && value !== null ? (value as { $ref?: unknown }).$ref : undefined;
  if (typeof ref !== "string") return value;
  const [name = "", output = ""] = ref.split(".");
  const target = built[name] as unknown as Record<string, unknown> | undefined;
  if (!target) throw new Error(`$ref ${ref}: no resource ${name} listed before`);
  return target[output];
}

for (const { type, name, inputs, options } of listed) {
  const Class = (forge as unknown as Record<string, ResourceClass | undefined>)[type];
  if (typeof Class !== "function") throw new Error(`pulumi-forge has no resource class ${type}`);
  const args = Object.fromEntries(Object.entries({ ...inputs, ...secretInputs[name] }).map(([key, value]) => [key, resolve(value)]));
  built[name] = new Class(name, args, options);
}

/** Every resource with its outputs (secret outputs stay secret). */
export const resources = built;

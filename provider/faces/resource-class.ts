import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { ResourceDeclaration } from "../engine/declaration";
import { derivedOutputs, engineKeys, inputKeys, outputKeys } from "../engine/declaration";
import { secretProperties } from "../engine/secrets";
import { PACKAGE, typeTokenOf, type Face } from "../type-tokens";
import type { ResourceArgs } from "../fields";

/** The outputs of a resource: every input and every declared output field. */
export type ResourceOutputs<I extends z.ZodObject, O extends z.ZodObject> = {
  readonly [K in keyof z.output<I> | keyof z.output<O>]-?: pulumi.Output<
    K extends keyof z.output<O> ? z.output<O>[K] : K extends keyof z.output<I> ? z.output<I>[K] : never
  >;
};

/** A resource class made from a declaration, on either face. `A` restates the arguments where
 *  the generated exports give them TSDoc of their own (fields documented by their schema's
 *  description); `Base` is the face's Pulumi class. */
export interface ForgeResourceClass<I extends z.ZodObject, O extends z.ZodObject, A = ResourceArgs<I>, Base = pulumi.dynamic.Resource> {
  new (name: string, args: A, opts?: pulumi.CustomResourceOptions): Base & ResourceOutputs<I, O>;
  /** The Pulumi type token: `pulumi-nodejs:dynamic/forge:<Name>` or `forge:index:<Name>`. */
  readonly typeToken: string;
}

/** A resource class of the plugin face: the same arguments and outputs as the dynamic class. */
export type PluginResourceClass<I extends z.ZodObject, O extends z.ZodObject, A = ResourceArgs<I>> = ForgeResourceClass<
  I,
  O,
  A,
  pulumi.CustomResource
>;

/** The dynamic face of the classes: it names the provider Pulumi stores with each resource. */
export interface DynamicClassFace {
  face: "dynamic";
  providerOf: (typeName: string) => pulumi.dynamic.ResourceProvider;
}
/** The plugin face of the classes: `pulumi-resource-forge` serves the type. */
export interface PluginClassFace {
  face: "plugin";
}
/** How a face registers a resource. */
export type ClassFace = DynamicClassFace | PluginClassFace;

/** The dynamic face, with the composition root's serializable provider. */
export function dynamicFace(providerOf: (typeName: string) => pulumi.dynamic.ResourceProvider): DynamicClassFace {
  return { face: "dynamic", providerOf };
}

/** The plugin face. */
export const pluginFace: PluginClassFace = { face: "plugin" };

/**
 * Makes the resource class of a declaration on a face: one factory, one way of registering.
 * - Secret inputs are sent as secrets (a plain value would be stored in plain text among the
 *   state's inputs), and the secret outputs are named, with those made from an input the program
 *   gave as a secret ({@link secretProperties}, the rule the plugin applies on its side too).
 * - The dynamic face carries the `import` option to the provider as `importId` (engine 3.259
 *   cannot import dynamic resources itself: see faces/dynamic.ts); on the plugin face the option
 *   and `pulumi import` are the engine's own, and the state holds no serialized provider.
 */
export function resourceClass<I extends z.ZodObject, O extends z.ZodObject>(
  declaration: ResourceDeclaration<I, O>,
  face: DynamicClassFace,
): ForgeResourceClass<I, O>;
export function resourceClass<I extends z.ZodObject, O extends z.ZodObject>(
  declaration: ResourceDeclaration<I, O>,
  face: PluginClassFace,
): PluginResourceClass<I, O>;
export function resourceClass<I extends z.ZodObject, O extends z.ZodObject>(
  declaration: ResourceDeclaration<I, O>,
  face: ClassFace,
): ForgeResourceClass<I, O, ResourceArgs<I>, pulumi.CustomResource> {
  const token = typeTokenOf(face.face as Face, declaration.name);
  // The engine's own keys are outputs of the dynamic face; the plugin's schema leaves them out.
  const bookkeeping = face.face === "dynamic" ? engineKeys(declaration) : [];
  const unsetOutputs = Object.fromEntries(
    [...outputKeys(declaration), ...inputKeys(declaration), ...bookkeeping].map((key) => [key, undefined]),
  );
  const alwaysSecret = [...secretProperties(declaration)];

  /** The properties and options a resource registers with, secrets applied. */
  function registration(
    args: ResourceArgs<I>,
    opts: pulumi.CustomResourceOptions,
  ): { props: Record<string, unknown>; opts: pulumi.CustomResourceOptions } {
    const { import: importId, ...rest } = opts;
    const props: Record<string, unknown> = { ...unsetOutputs, ...args };
    for (const key of alwaysSecret) if (props[key] !== undefined) props[key] = pulumi.secret(props[key]);
    const additionalSecretOutputs = [...alwaysSecret, ...(rest.additionalSecretOutputs ?? [])];
    // Secrecy follows the data: an output made from an input is secret when that input is. The
    // SDK reads this list once the inputs have resolved, and the input resolves only after its
    // secrecy is known.
    for (const [output, input] of Object.entries(derivedOutputs(declaration))) {
      if (props[input] === undefined || additionalSecretOutputs.includes(output)) continue;
      const source = pulumi.output(props[input]);
      props[input] = source.apply(async (value) => {
        if ((await pulumi.isSecret(source)) && !additionalSecretOutputs.includes(output)) additionalSecretOutputs.push(output);
        return value;
      });
    }
    if (importId === undefined) return { props, opts: { ...rest, additionalSecretOutputs } };
    if (face.face === "dynamic") return { props: { ...props, importId }, opts: { ...rest, additionalSecretOutputs } };
    return { props, opts: { ...rest, import: importId, additionalSecretOutputs } };
  }

  let made: abstract new (...args: never[]) => pulumi.CustomResource;
  if (face.face === "dynamic") {
    const provider = face.providerOf(declaration.name);
    made = class ForgeResource extends pulumi.dynamic.Resource {
      static readonly typeToken = token;
      constructor(name: string, args: ResourceArgs<I>, opts: pulumi.CustomResourceOptions = {}) {
        const { props, opts: options } = registration(args, opts);
        const restore = plainPromiseStacks();
        try {
          super(provider, name, props, options, PACKAGE, declaration.name);
        } finally {
          restore();
        }
      }
    };
  } else {
    made = class ForgePluginResource extends pulumi.CustomResource {
      static readonly typeToken = token;
      constructor(name: string, args: ResourceArgs<I>, opts: pulumi.CustomResourceOptions = {}) {
        const { props, opts: options } = registration(args, opts);
        const restore = plainPromiseStacks();
        try {
          super(token, name, props, options);
        } finally {
          restore();
        }
      }
    };
  }
  Object.defineProperty(made, "name", { value: declaration.name });
  return made as unknown as ForgeResourceClass<I, O, ResourceArgs<I>, pulumi.CustomResource>;
}

/**
 * While a resource registers, the stack traces the SDK takes for its debugging promises are
 * formatted by V8 alone, not by the program's `Error.prepareStackTrace`; every other stack trace
 * is formatted as before. Returns the function that puts the program's formatter back.
 *
 * Why: the SDK wraps four promises per property of each resource (`transferProperties`) in
 * `debuggablePromise`, which reads `new Error().stack` at once, and the Node language host
 * installs ts-node's source-map-support, whose formatter maps every frame through source maps.
 * A group label has ten properties (inputs, outputs, `__provider`; the bench's no-op floor has
 * four): profiled, that formatting took 1.3 s of the program's 5.2 s in a preview of 300 labels
 * (bench/scale.ts, BENCH_ONLY=preview). Those stack traces are printed only in the SDK's report
 * of promises left unresolved at exit, where they now show compiled positions. The resource's
 * source position and stack trace (`Resource.callsites`, whose frame 0 is `callsites`) and the
 * errors the SDK prepares for a failed registration (formatted when first read, after this) keep
 * the program's formatter.
 */
export function plainPromiseStacks(): () => void {
  const programs = Error.prepareStackTrace;
  if (programs === undefined || programs === plainWhenDebugging) return () => {};
  programsFormatter = programs;
  Error.prepareStackTrace = plainWhenDebugging;
  return () => {
    Error.prepareStackTrace = programs;
    programsFormatter = undefined;
  };
}

let programsFormatter: ((error: Error, stack: NodeJS.CallSite[]) => unknown) | undefined;

function plainWhenDebugging(error: Error, stack: NodeJS.CallSite[]): unknown {
  if (stack[0]?.getFunctionName() === "debuggablePromise" || programsFormatter === undefined) {
    return `${String(error)}${stack.map((frame) => `\n    at ${String(frame)}`).join("")}`;
  }
  return programsFormatter(error, stack);
}

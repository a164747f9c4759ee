import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { ResourceDeclaration } from "./declaration";
import { derivedOutputs, engineKeys, inputKeys, outputKeys, secretKeys, typeToken } from "./declaration";

/**
 * A value, or an output of one, at every depth: Pulumi resolves outputs nested in objects and
 * lists before the provider sees the inputs, so a secret from config inside an object or another
 * resource's id inside a list entry type-checks where it works.
 */
export type DeepInput<T> = pulumi.Input<
  T extends readonly (infer E)[] ? DeepInput<E>[] : T extends object ? { [K in keyof T]: DeepInput<T[K]> } : T
>;

/** The arguments of a resource: its zod input type, each field (and each nested field) an `Input`. */
export type ResourceArgs<I extends z.ZodObject> = { [K in keyof z.input<I>]: DeepInput<z.input<I>[K]> };

/** The outputs of a resource: every input and every declared output field. */
export type ResourceOutputs<I extends z.ZodObject, O extends z.ZodObject> = {
  readonly [K in keyof z.output<I> | keyof z.output<O>]-?: pulumi.Output<
    K extends keyof z.output<O> ? z.output<O>[K] : K extends keyof z.output<I> ? z.output<I>[K] : never
  >;
};

/** A resource class made from a declaration. `A` restates the arguments where the generated
 *  exports give them TSDoc of their own (fields documented by their schema's description). */
export interface ForgeResourceClass<I extends z.ZodObject, O extends z.ZodObject, A = ResourceArgs<I>> {
  new (name: string, args: A, opts?: pulumi.CustomResourceOptions): pulumi.dynamic.Resource & ResourceOutputs<I, O>;
  /** The Pulumi type token, `pulumi-nodejs:dynamic/forge:<Name>`. */
  readonly typeToken: string;
}

/**
 * Makes the resource class of a declaration. The `import` option is carried to the provider
 * as `importId` (engine 3.259 cannot import dynamic resources itself: its import step reads
 * with the id alone, and the provider's code travels in the inputs).
 */
export function resourceClass<I extends z.ZodObject, O extends z.ZodObject>(
  declaration: ResourceDeclaration<I, O>,
  /** The provider Pulumi stores with each resource (the composition root's serializable one). */
  providerOf: (typeName: string) => pulumi.dynamic.ResourceProvider,
): ForgeResourceClass<I, O> {
  const provider = providerOf(declaration.name);
  const unsetOutputs = Object.fromEntries([...outputKeys(declaration), ...inputKeys(declaration), ...engineKeys(declaration)].map((key) => [key, undefined]));
  const secrets = secretKeys(declaration);

  class ForgeResource extends pulumi.dynamic.Resource {
    static readonly typeToken = typeToken(declaration);

    constructor(name: string, args: ResourceArgs<I>, opts: pulumi.CustomResourceOptions = {}) {
      const { import: importId, ...rest } = opts;
      const props: Record<string, unknown> = { ...unsetOutputs, ...args };
      // additionalSecretOutputs protects outputs only: a secret input given as a plain value
      // would be stored in plain text among the state's inputs.
      for (const key of secrets) if (props[key] !== undefined) props[key] = pulumi.secret(props[key]);
      if (importId !== undefined) props["importId"] = importId;
      const additionalSecretOutputs = [...secrets, ...(rest.additionalSecretOutputs ?? [])];
      // Secrecy follows the data: an output made from an input (a label's descriptionHtml from
      // its description) is secret when that input is. The SDK reads this list once the inputs
      // have resolved, and the input resolves only after its secrecy is known.
      for (const [output, input] of Object.entries(derivedOutputs(declaration))) {
        if (props[input] === undefined || additionalSecretOutputs.includes(output)) continue;
        const source = pulumi.output(props[input]);
        props[input] = source.apply(async (value) => {
          if ((await pulumi.isSecret(source)) && !additionalSecretOutputs.includes(output)) additionalSecretOutputs.push(output);
          return value;
        });
      }
      const restore = plainPromiseStacks();
      try {
        super(provider, name, props, { ...rest, additionalSecretOutputs }, "forge", declaration.name);
      } finally {
        restore();
      }
    }
  }
  Object.defineProperty(ForgeResource, "name", { value: declaration.name });
  return ForgeResource as unknown as ForgeResourceClass<I, O>;
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

import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import type { ResourceDeclaration } from "../engine/declaration";
import { inputKeys, outputKeys, secretKeys } from "../engine/declaration";
import { plainPromiseStacks, type ResourceArgs, type ResourceOutputs } from "../engine/resource-class";
import { PACKAGE } from "../type-tokens";
import { pluginToken } from "./schema";

/** A resource class of the plugin face: the same arguments and outputs as the dynamic class. */
export interface PluginResourceClass<I extends z.ZodObject, O extends z.ZodObject, A = ResourceArgs<I>> {
  new (name: string, args: A, opts?: pulumi.CustomResourceOptions): pulumi.CustomResource & ResourceOutputs<I, O>;
  /** The Pulumi type token, `forge:index:<Name>`. */
  readonly typeToken: string;
}

/**
 * Makes the class of a declaration for the provider plugin (`pulumi-resource-forge`): a plain
 * `CustomResource` of type `forge:index:<Name>`, so the state holds no serialized provider and
 * `pulumi import` and the `import` option are the engine's own. Secret inputs are sent as
 * secrets; the plugin marks the secret outputs (and those derived from secret inputs) itself.
 */
export function pluginResourceClass<I extends z.ZodObject, O extends z.ZodObject>(declaration: ResourceDeclaration<I, O>): PluginResourceClass<I, O> {
  const token = pluginToken(declaration.name);
  const unsetOutputs = Object.fromEntries([...outputKeys(declaration), ...inputKeys(declaration)].map((key) => [key, undefined]));
  const secrets = secretKeys(declaration);

  class ForgePluginResource extends pulumi.CustomResource {
    static readonly typeToken = token;

    constructor(name: string, args: ResourceArgs<I>, opts: pulumi.CustomResourceOptions = {}) {
      const props: Record<string, unknown> = { ...unsetOutputs, ...args };
      for (const key of secrets) if (props[key] !== undefined) props[key] = pulumi.secret(props[key]);
      const restore = plainPromiseStacks();
      try {
        super(token, name, props, { ...opts, additionalSecretOutputs: [...secrets, ...(opts.additionalSecretOutputs ?? [])] });
      } finally {
        restore();
      }
    }
  }
  Object.defineProperty(ForgePluginResource, "name", { value: declaration.name });
  return ForgePluginResource as unknown as PluginResourceClass<I, O>;
}

/** The connection of a forge provider resource: the `forge:*` configuration, as arguments. */
export interface ProviderArgs {
  /** The forge's address, without /api/v4 (else `forge:baseUrl`, then FORGE_BASE_URL). */
  baseUrl?: pulumi.Input<string>;
  /** The access token (else `forge:token`, then FORGE_TOKEN); sent as a secret, never stored in plain text. */
  token?: pulumi.Input<string>;
  /** Any other connection setting of the README's table, by its config name without `forge:`. */
  [setting: string]: pulumi.Input<string | number | boolean> | undefined;
}

/**
 * An explicit forge provider for the plugin face (the `provider` resource option), for a
 * program that talks to two forges or takes the connection from elsewhere than stack config.
 */
export class Provider extends pulumi.ProviderResource {
  constructor(name: string, args: ProviderArgs = {}, opts: pulumi.ResourceOptions = {}) {
    const props = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
    if (props["token"] !== undefined) props["token"] = pulumi.secret(props["token"]);
    if (props["clientKey"] !== undefined) props["clientKey"] = pulumi.secret(props["clientKey"]);
    super(PACKAGE, name, props, opts);
  }
}

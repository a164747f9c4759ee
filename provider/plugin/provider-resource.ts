import * as pulumi from "@pulumi/pulumi";
import { PACKAGE } from "../type-tokens";

/** The connection of a forge provider resource: the `forge:*` configuration, as arguments. */
export interface ProviderArgs {
  /** The forge's address, without /api/v4 (else `forge:baseUrl`, then FORGE_BASE_URL). */
  baseUrl?: pulumi.Input<string>;
  /** The access token (else `forge:token`, then FORGE_TOKEN); sent as a secret, never stored in plain text. */
  token?: pulumi.Input<string>;
  /** Any other connection setting of docs/installation-configuration.md's table, by its config name without `forge:`. */
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

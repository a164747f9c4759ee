/**
 * The connection a tool reads a stack's resource with, as a refresh of the stack would: the
 * settings the resource's own provider recorded in the state (an explicit `pulumi:providers:forge`
 * names its forge; the default provider recorded the stack's config at its last run), then the
 * environment's FORGE_* settings, relative file paths from the project's directory. Never the
 * stack's config file as it is today, and never one connection for the whole stack: a stack may
 * talk to two forges. forge-drift (one stack's secrets, a fleet from exports, rotation due) and
 * forge-recover use it.
 */
import { clientFor, resolveConnection, type Connection, type ForgeClient } from "../client";
import type { ConfigSource } from "../client/connection";
import { compareForges } from "./forge-address";
import type { Holding } from "./holdings";
import { plainState } from "./state-values";

/** A provider resource's recorded settings as the provider reads stack config: `get("forge:baseUrl")` finds the plugin's `baseUrl` and the dynamic provider's `forge:baseUrl`. */
export function recordedConfig(config: Record<string, unknown>): ConfigSource {
  const plain = plainState(config) as Record<string, unknown>;
  return {
    get(key) {
      const value = plain[key] ?? plain[key.slice(key.indexOf(":") + 1)];
      return value === undefined || value === null ? undefined : typeof value === "string" ? value : JSON.stringify(value);
    },
  };
}

/** A resource recorded one forge, and the connection a tool would read it with reaches another. */
export class ForgeMismatchError extends Error {
  constructor(resource: string, recorded: string, reached: string, how: "another" | "possibly another") {
    super(
      `${resource} was made on ${recorded} (its state records it), but the connection it would be read with reaches ${reached}, ` +
        `${how === "another" ? "another forge" : "possibly another forge under the same address"}: not read there. ` +
        `Give the check the settings the stack's runs have (FORGE_BASE_URL, or forge:baseUrl in its config).`,
    );
    this.name = "ForgeMismatchError";
  }
}

/**
 * The connection `holding` is read with (see the module's comment); `secrets` of the state must be
 * decoded (an export with `--show-secrets`) for its token.
 *
 * @throws ForgeConfigError when the settings are unusable, as a refresh would fail.
 * @throws ForgeMismatchError when they reach another forge than the one the resource recorded.
 */
export async function connectionOf(
  holding: Pick<Holding, "name" | "forge" | "provider">,
  env: NodeJS.ProcessEnv,
  workDir?: string,
): Promise<Connection> {
  const connection = resolveConnection(
    recordedConfig(holding.provider?.config ?? {}),
    env,
    workDir === undefined ? {} : { relativeTo: workDir },
  );
  if (holding.forge.url !== undefined) {
    const match = await compareForges(holding.forge.url, connection.baseUrl);
    if (match !== "same")
      throw new ForgeMismatchError(
        holding.name,
        holding.forge.url,
        connection.baseUrl,
        match === "different" ? "another" : "possibly another",
      );
  }
  return connection;
}

/** What a resource of a state is read with: its provider's settings and its recorded forge. */
type Subject = Pick<Holding, "name" | "forge" | "provider">;

/**
 * One client per provider and forge of a state, made at its first use ({@link connectionOf}):
 * the resources of one provider share it, and their settings' files are read once. A connection
 * that fails says so for each resource asked for, by its own name.
 */
export function clientsOf(env: NodeJS.ProcessEnv, workDir?: string): (subject: Subject) => Promise<ForgeClient> {
  const clients = new Map<string, Promise<ForgeClient>>();
  return (subject) => {
    const key = `${subject.provider?.urn ?? ""}\0${subject.forge.url ?? ""}`;
    let client = clients.get(key);
    if (!client) {
      client = connectionOf(subject, env, workDir).then((connection) => clientFor(connection));
      clients.set(key, client);
    }
    // The first resource's failure is re-made for this one, so that its message names it.
    return client.catch(() => connectionOf(subject, env, workDir).then((connection) => clientFor(connection)));
  };
}

/** The forge the read-only tools (forge-adopt, forge-drift --unmanaged) talk to: FORGE_BASE_URL and FORGE_TOKEN, never a flag. */
import { clientFor, resolveConnection, type ForgeClient } from "../provider/client";

/**
 * The forge's base URL and a client, from FORGE_BASE_URL and FORGE_TOKEN (a token on the command
 * line would stay in shell history) and the transport settings (FORGE_CA_BUNDLE, HTTPS_PROXY, ...).
 */
export function forgeFromEnv(env: NodeJS.ProcessEnv): { forge: string; client: ForgeClient } {
  for (const name of ["FORGE_BASE_URL", "FORGE_TOKEN"]) {
    if (!env[name])
      throw new Error(
        `${name} is not set: export FORGE_BASE_URL (the forge's address) and FORGE_TOKEN (a token that can read the scope; an administrator's for --instance)`,
      );
  }
  const connection = resolveConnection(undefined, env);
  return { forge: connection.baseUrl, client: clientFor(connection) };
}

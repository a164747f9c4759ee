import { BASE_URL_HINT, ForgeConfigError, TOKEN_HINT } from "./errors";

/** Where the forge is and how to authenticate. */
export interface Connection {
  /** The forge's address without `/api/v4` and without a trailing slash, e.g. `https://forge.example.com`. */
  baseUrl: string;
  /** Personal, group or project access token, sent in the `PRIVATE-TOKEN` header. */
  token: string;
}

/** The part of a Pulumi config object that {@link resolveConnection} uses; `get` receives full keys such as `forge:token`. */
export interface ConfigSource {
  /** Value of a full config key (`forge:baseUrl`, `forge:token`), or undefined when unset. */
  get(key: string): string | undefined;
}

/** Stack config key for the base URL. */
export const BASE_URL_CONFIG_KEY = "forge:baseUrl";
/** Stack config key for the token. */
export const TOKEN_CONFIG_KEY = "forge:token";
/** Environment variable for the base URL. */
export const BASE_URL_ENV = "FORGE_BASE_URL";
/** Environment variable for the token. */
export const TOKEN_ENV = "FORGE_TOKEN";

/**
 * The connection to use. Stack config (`forge:baseUrl`, `forge:token`) wins over the
 * `FORGE_BASE_URL` / `FORGE_TOKEN` environment variables; empty values count as unset.
 *
 * @param config - Pulumi config, called with full keys.
 * @param env - Environment to read (defaults to `process.env`).
 * @throws ForgeConfigError when the base URL or the token is missing, or the URL is not http(s).
 */
export function resolveConnection(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env): Connection {
  const rawBaseUrl = nonEmpty(config?.get(BASE_URL_CONFIG_KEY)) ?? nonEmpty(env[BASE_URL_ENV]);
  if (rawBaseUrl === undefined) {
    throw new ForgeConfigError(`No forge base URL is configured: ${BASE_URL_HINT}.`);
  }
  const token = nonEmpty(config?.get(TOKEN_CONFIG_KEY)) ?? nonEmpty(env[TOKEN_ENV]);
  if (token === undefined) {
    throw new ForgeConfigError(`No forge token is configured: ${TOKEN_HINT}.`);
  }
  return { baseUrl: normalizeBaseUrl(rawBaseUrl), token };
}

/**
 * Validates a base URL and puts it in canonical form: http(s) only, no credentials, query or
 * fragment, no trailing slashes, and no `/api/v4` suffix (people often paste the API root).
 *
 * @throws ForgeConfigError when the URL is unusable.
 */
export function normalizeBaseUrl(raw: string): string {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ForgeConfigError(`The forge base URL "${text}" is not a valid URL: ${BASE_URL_HINT}.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ForgeConfigError(
      `The forge base URL must start with http:// or https://, got "${url.protocol}//...": ${BASE_URL_HINT}.`,
    );
  }
  if (url.username || url.password) {
    // Do not echo the URL: it holds credentials.
    throw new ForgeConfigError("The forge base URL must not contain a user name or password; use the token instead.");
  }
  if (url.search || url.hash) {
    throw new ForgeConfigError(`The forge base URL "${text}" must not have a query string or fragment.`);
  }
  const path = url.pathname.replace(/\/+$/, "").replace(/\/api\/v4$/, "");
  return `${url.origin}${path}`;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

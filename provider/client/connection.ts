import { rootCertificates } from "node:tls";
import { readFileSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import type { EnvHttpProxyAgent } from "undici";
import { rememberSecrets } from "../redaction";
import { BASE_URL_HINT, ForgeConfigError, TOKEN_HINT } from "./errors";

/** Where the forge is and how to authenticate. */
export interface Connection {
  /** The forge's address without `/api/v4` and without a trailing slash, e.g. `https://forge.example.com`. */
  baseUrl: string;
  /** Personal, group or project access token, sent in the `PRIVATE-TOKEN` header. */
  token: string;
  /** How to reach it: TLS, proxies, timeout (each optional). */
  transport?: Transport;
}

/**
 * How the client reaches the forge, for instances behind a private CA, mutual TLS or a proxy.
 * Set by stack config (`forge:caBundle`, ...) or the environment (`FORGE_CA_BUNDLE`, ...): see
 * {@link TRANSPORT_SETTINGS}.
 */
export interface Transport {
  /** PEM certificates trusted in addition to Node's own roots (a private CA). */
  ca?: string;
  /** PEM client certificate (chain) for forges that ask for one (mutual TLS). */
  cert?: string;
  /** PEM private key of {@link cert}. */
  key?: string;
  /** Skip certificate verification. Insecure: anyone on the path can read the token; a warning is printed. */
  insecure?: boolean;
  /** Proxy for http:// forges; default `HTTP_PROXY` / `http_proxy`. */
  httpProxy?: string;
  /** Proxy for https:// forges; default `HTTPS_PROXY` / `https_proxy`, then the HTTP proxy. */
  httpsProxy?: string;
  /** Hosts reached directly (`NO_PROXY` syntax: `forge.internal,.corp.example,10.0.0.1:8443`); default `NO_PROXY` / `no_proxy`. */
  noProxy?: string;
  /** Per-request timeout in milliseconds (response headers, then each stall of the body). */
  timeoutMs?: number;
  /** How long one request may keep retrying (backoff with jitter) before it fails, in ms (default 60 000). */
  retryBudgetMs?: number;
  /** Most requests in flight to the forge at once, per host (default 16); more wait in line. */
  maxConnections?: number;
}

/**
 * Each transport setting: its stack config key and environment variable, what it does (the
 * plugin schema's configuration docs, in every language's `Config`, read `description`), and
 * whether its value is a secret (masked in every message once read, and a secret in the schema).
 * File settings take a path or the PEM text itself (a CI variable); proxies also honour the
 * standard `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` variables.
 */
export const TRANSPORT_SETTINGS = {
  ca: {
    config: "forge:caBundle",
    env: "FORGE_CA_BUNDLE",
    kind: "pem",
    description: "PEM certificates trusted besides the system's roots (a private CA): a file path, or the PEM text itself.",
  },
  cert: {
    config: "forge:clientCert",
    env: "FORGE_CLIENT_CERT",
    kind: "pem",
    description: "The client certificate (PEM, a path or the text) for forges that ask for one (mutual TLS).",
  },
  key: {
    config: "forge:clientKey",
    env: "FORGE_CLIENT_KEY",
    kind: "pem",
    description: "The private key (PEM, a path or the text) of the client certificate.",
    secret: true,
  },
  insecure: {
    config: "forge:insecure",
    env: "FORGE_INSECURE",
    kind: "boolean",
    description: "Skip certificate verification. Insecure: anyone on the path can read the token; the provider warns.",
  },
  httpProxy: {
    config: "forge:httpProxy",
    env: "FORGE_HTTP_PROXY",
    kind: "text",
    description: "The proxy for http:// forges; by default HTTP_PROXY.",
  },
  httpsProxy: {
    config: "forge:httpsProxy",
    env: "FORGE_HTTPS_PROXY",
    kind: "text",
    description: "The proxy for https:// forges; by default HTTPS_PROXY, then the HTTP proxy.",
  },
  noProxy: {
    config: "forge:noProxy",
    env: "FORGE_NO_PROXY",
    kind: "text",
    description:
      "Hosts reached without the proxy, in NO_PROXY's syntax (`forge.internal,.corp.example,10.0.0.1:8443`); by default NO_PROXY.",
  },
  timeoutMs: {
    config: "forge:timeoutMs",
    env: "FORGE_TIMEOUT_MS",
    kind: "milliseconds",
    description: "How long one request may wait for the response's headers, then for each part of its body, in milliseconds.",
  },
  retryBudgetMs: {
    config: "forge:retryBudgetMs",
    env: "FORGE_RETRY_BUDGET_MS",
    kind: "milliseconds",
    description: "How long one request may keep retrying (backoff with jitter) before it fails, in milliseconds (default 60000).",
  },
  maxConnections: {
    config: "forge:maxConnections",
    env: "FORGE_MAX_CONNECTIONS",
    kind: "count",
    description: "The most requests in flight to the forge at once, per host (default 16); more wait in line.",
  },
} as const satisfies Record<keyof Transport, TransportSetting>;

/** A row of {@link TRANSPORT_SETTINGS}. */
interface TransportSetting {
  config: string;
  env: string;
  kind: "pem" | "boolean" | "text" | "milliseconds" | "count";
  /** One or two sentences for the schema's configuration docs; the environment variable is added after. */
  description: string;
  /** The value is a credential: masked in every message once read, `secret` in the schema. */
  secret?: true;
}

/** The settings whose values are credentials ({@link TransportSetting.secret}). */
const SECRET_SETTINGS = (Object.keys(TRANSPORT_SETTINGS) as (keyof Transport)[]).filter(
  (name) => (TRANSPORT_SETTINGS[name] as TransportSetting).secret === true,
);

/**
 * Where a relative file path of a setting (`forge:caBundle: certs/ca.pem`) starts: the Pulumi
 * project's directory, where a run's provider works; default this process's directory. A tool
 * that reads a stack from elsewhere (forge-drift's fleet) names the project's.
 */
export interface FileBase {
  relativeTo?: string;
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
export function resolveConnection(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env, files: FileBase = {}): Connection {
  const rawBaseUrl = nonEmpty(config?.get(BASE_URL_CONFIG_KEY)) ?? nonEmpty(env[BASE_URL_ENV]);
  if (rawBaseUrl === undefined) {
    throw new ForgeConfigError(`No forge base URL is configured: ${BASE_URL_HINT}.`);
  }
  const token = nonEmpty(config?.get(TOKEN_CONFIG_KEY)) ?? nonEmpty(env[TOKEN_ENV]);
  if (token === undefined) {
    throw new ForgeConfigError(`No forge token is configured: ${TOKEN_HINT}.`);
  }
  const transport = resolveTransport(config, env, files);
  // The credentials are masked in whatever this process prints from now on, in every form (redaction.ts).
  rememberSecrets([token, ...SECRET_SETTINGS.map((name) => transport[name])]);
  return { baseUrl: normalizeBaseUrl(rawBaseUrl), token, ...(Object.keys(transport).length > 0 ? { transport } : {}) };
}

/**
 * The transport settings that are set, config winning over the environment. PEM settings are
 * read here (a path, or the PEM text itself), so a wrong path fails before any request.
 *
 * @throws ForgeConfigError naming the setting when a file cannot be read or a value is malformed.
 */
export function resolveTransport(config?: ConfigSource, env: NodeJS.ProcessEnv = process.env, files: FileBase = {}): Transport {
  const transport: Transport = {};
  for (const [name, setting] of Object.entries(TRANSPORT_SETTINGS) as [keyof Transport, (typeof TRANSPORT_SETTINGS)[keyof Transport]][]) {
    const fromConfig = nonEmpty(config?.get(setting.config));
    const raw = fromConfig ?? nonEmpty(env[setting.env]);
    if (raw === undefined) continue;
    const source = fromConfig !== undefined ? `stack config ${setting.config}` : `${setting.env}`;
    switch (setting.kind) {
      case "pem":
        (transport as Record<string, unknown>)[name] = readPem(raw, source, files.relativeTo);
        break;
      case "boolean":
        if (!/^(true|false|1|0)$/i.test(raw)) throw new ForgeConfigError(`${source} must be true or false (${described(raw)}).`);
        (transport as Record<string, unknown>)[name] = /^(true|1)$/i.test(raw);
        break;
      case "milliseconds":
      case "count": {
        const value = Number(raw);
        const unit = setting.kind === "count" ? "a whole number above 0" : "a whole number of milliseconds";
        if (!Number.isInteger(value) || value <= 0) throw new ForgeConfigError(`${source} must be ${unit} (${described(raw)}).`);
        (transport as Record<string, unknown>)[name] = value;
        break;
      }
      case "text":
        (transport as Record<string, unknown>)[name] = raw;
        break;
    }
  }
  return transport;
}

/** Where PEM text starts: a `-----BEGIN ...-----` line anywhere (a key file `openssl pkcs12 -nodes`
 *  writes starts with `Bag Attributes` lines, which OpenSSL skips). */
const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]+-----/;

/**
 * PEM text given inline (a CI variable) or as a file path: text holding a PEM block is the PEM
 * itself; anything else must be the path of a readable file. An error names the setting and the
 * reason, never the value: a key pasted without its armour would otherwise be printed whole.
 */
function readPem(value: string, source: string, relativeTo: string | undefined): string {
  if (PEM_BEGIN.test(value)) return value;
  if (/[\r\n]/.test(value)) {
    throw new ForgeConfigError(
      `${source} holds no PEM block (no -----BEGIN line) and is no file path (${described(value)}): give a PEM file's path or its text.`,
    );
  }
  try {
    return readFileSync(relativeTo === undefined ? value : resolvePath(relativeTo, value), "utf8");
  } catch (error) {
    throw new ForgeConfigError(
      `${source} holds no PEM block and names no readable file (${(error as NodeJS.ErrnoException).code ?? "unreadable"}; ${described(value)}): give a PEM file's path or its text.`,
    );
  }
}

/** A setting's value as an error may describe it: its size, never its text (it may be a key or a token). */
function described(value: string): string {
  const lines = value.split(/\r?\n/).length;
  return `the value given is ${value.length} character${value.length === 1 ? "" : "s"}${lines > 1 ? ` on ${lines} lines` : ""}, not shown`;
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
    throw new ForgeConfigError(`The forge base URL is not a valid URL (${described(text)}): ${BASE_URL_HINT}.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ForgeConfigError(`The forge base URL must start with http:// or https:// (${described(text)}): ${BASE_URL_HINT}.`);
  }
  if (url.username || url.password) {
    // Do not echo the URL: it holds credentials.
    throw new ForgeConfigError("The forge base URL must not contain a user name or password; use the token instead.");
  }
  if (url.search || url.hash) {
    throw new ForgeConfigError(
      "The forge base URL must not have a query string or fragment (they may carry credentials; the value is not shown).",
    );
  }
  const path = url.pathname.replace(/\/+$/, "").replace(/\/api\/v4$/, "");
  return `${url.origin}${path}`;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** Requests in flight to one forge at once unless the transport sets `maxConnections`. */
export const DEFAULT_MAX_CONNECTIONS = 16;

/** How to trust a private CA, for messages. */
export const PEM_HINT = `set ${TRANSPORT_SETTINGS.ca.env} or \`pulumi config set ${TRANSPORT_SETTINGS.ca.config} <file>\` to your CA's PEM bundle`;

/**
 * The one keep-alive dispatcher to a forge that every layer of the client goes through.
 * EnvHttpProxyAgent is a plain Agent unless a proxy is set (the transport, or HTTP_PROXY /
 * HTTPS_PROXY), and honours NO_PROXY. The TLS options go to the forge, directly or through the
 * tunnel, and to an https:// proxy (often behind the same private CA). Timeouts are set per
 * request by the client.
 */
export function openAgent(baseUrl: string, transport: Transport): EnvHttpProxyAgent {
  if (transport.insecure && baseUrl.startsWith("https:")) warnInsecure(baseUrl);
  const tls = tlsOptions(transport);
  const Agent = envHttpProxyAgentClass(transport);
  return new Agent({
    ...pick(transport, ["httpProxy", "httpsProxy", "noProxy"]),
    connect: tls,
    requestTls: tls,
    proxyTls: tls,
    // Reuse connections across the many small calls of a deployment. The server's own
    // keep-alive hint wins when shorter; idle sockets are unref'd and do not hold the process.
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    // The per-host concurrency cap: Pulumi runs many operations at once, and more sockets would
    // only draw rate limits; requests beyond it wait in undici's queue.
    connections: transport.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
  });
}

/** The environment's proxy settings, as undici's EnvHttpProxyAgent reads them. */
const PROXY_VARIABLES = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY"];

/**
 * undici's EnvHttpProxyAgent, loaded with the first connection (a plugin that only previews never
 * opens one). With no proxy set, its module alone ({@link undiciAgentModule}): the package's index
 * also loads fetch, WebSocket, its cache and its mocks, about twice the time at a provider's first
 * request (25 against 50 to 65 ms, node:http2 already loaded), and the client needs only the
 * agent's own `compose`, `dispatch` and `close`. Through a proxy, the whole package: its proxy
 * agent tunnels with the `connect` that the index adds to every dispatcher. A later undici that
 * moves the module gets the whole package too.
 */
function envHttpProxyAgentClass(transport: Transport): typeof EnvHttpProxyAgent {
  const proxied = transport.httpProxy || transport.httpsProxy || PROXY_VARIABLES.some((name) => process.env[name]);
  return (!proxied && undiciAgentModule()) || undiciPackage().EnvHttpProxyAgent;
}

/**
 * undici's EnvHttpProxyAgent from its own module (undici has no exports map), or undefined when a
 * later undici has moved it. The `require` names the module literally, so that a bundler (the
 * plugin's executable) sees it; test/unit/client-connection.test.ts checks that it is the class
 * undici's index exports.
 */
export function undiciAgentModule(): typeof EnvHttpProxyAgent | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require("undici/lib/dispatcher/env-http-proxy-agent.js") as typeof EnvHttpProxyAgent;
  } catch {
    return undefined;
  }
}

/**
 * undici's whole package, by its index's path: a bare `require("undici")` in the plugin's
 * executable (Bun) is the runtime's own undici, whose agents lack `compose`.
 */
export function undiciPackage(): typeof import("undici") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("undici/index.js") as typeof import("undici");
}

/** TLS options for undici's connector: extra trusted CAs on top of Node's roots, a client certificate, the insecure switch. */
function tlsOptions(transport: Transport): Record<string, unknown> {
  return {
    ...(transport.ca ? { ca: [...rootCertificates, transport.ca] } : {}),
    ...(transport.cert ? { cert: transport.cert } : {}),
    ...(transport.key ? { key: transport.key } : {}),
    ...(transport.insecure ? { rejectUnauthorized: false } : {}),
  };
}

const warnedInsecure = new Set<string>();

/** Once per forge and process, on stderr (a diagnostic under Pulumi): the switch must never go unnoticed. */
function warnInsecure(baseUrl: string): void {
  if (warnedInsecure.has(baseUrl)) return;
  warnedInsecure.add(baseUrl);
  console.warn(
    `WARNING: TLS certificate verification is OFF for ${baseUrl} (${TRANSPORT_SETTINGS.insecure.env} / ${TRANSPORT_SETTINGS.insecure.config}). ` +
      `Anyone between this machine and the forge can read the token and change answers. Trust the forge's CA instead: ${PEM_HINT}.`,
  );
}

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Partial<Pick<T, K>> {
  return Object.fromEntries(keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]])) as Partial<Pick<T, K>>;
}

import { readFileSync } from "node:fs";
import { isIPv4 } from "node:net";
import { parseArgs } from "node:util";
import { roleName } from "../api";
import { OFFERINGS, TIERS } from "../api/editions";
import { editionLabel } from "./core/editions";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "./index";

export const USAGE = `usage: forge-emulator [--port <n>] [--host <address>] [--state <file>] [--tier ${TIERS.join("|")}] [--offering ${OFFERINGS.join("|")}] [--storage-move-ms <n>] [--forge-version <x.y.z>] [--rate-limit <requests>/<seconds>] [--request-log-size <n>] [--tls-cert <pem file> --tls-key <pem file>]`;

/** A release number as `GET /version` reports it, without the edition's suffix. */
const RELEASE = /^\d+\.\d+\.\d+$/;

/** Turns command-line arguments into emulator options; throws with the usage on bad input. */
export function parseCliArgs(argv: readonly string[]): EmulatorOptions {
  let values: {
    port?: string;
    host?: string;
    state?: string;
    tier?: string;
    offering?: string;
    "storage-move-ms"?: string;
    "forge-version"?: string;
    "rate-limit"?: string;
    "request-log-size"?: string;
    "tls-cert"?: string;
    "tls-key"?: string;
  };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: "string", short: "p" },
        host: { type: "string" },
        state: { type: "string" },
        tier: { type: "string" },
        offering: { type: "string" },
        "storage-move-ms": { type: "string" },
        "forge-version": { type: "string" },
        "rate-limit": { type: "string" },
        "request-log-size": { type: "string" },
        "tls-cert": { type: "string" },
        "tls-key": { type: "string" },
      },
      strict: true,
    }));
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const options: EmulatorOptions = {};
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535) throw new Error(`invalid --port ${values.port}\n${USAGE}`);
    options.port = port;
  }
  if (values.host !== undefined) options.host = values.host;
  if (values.state !== undefined) options.statePath = values.state;
  if (values.tier !== undefined) options.tier = oneOf(TIERS, values.tier, "--tier");
  if (values.offering !== undefined) options.offering = oneOf(OFFERINGS, values.offering, "--offering");
  const moveMs = values["storage-move-ms"];
  if (moveMs !== undefined) {
    if (!/^\d+$/.test(moveMs)) throw new Error(`invalid --storage-move-ms ${moveMs}: a number of milliseconds\n${USAGE}`);
    options.storageMoveMs = Number(moveMs);
  }
  const version = values["forge-version"];
  if (version !== undefined) {
    if (!RELEASE.test(version)) throw new Error(`invalid --forge-version ${version}: a release such as 17.11.0\n${USAGE}`);
    options.version = version;
  }
  const rateLimit = values["rate-limit"];
  if (rateLimit !== undefined) {
    const match = /^(\d+)\/(\d+)$/.exec(rateLimit);
    if (!match || Number(match[2]) === 0) throw new Error(`invalid --rate-limit ${rateLimit}: <requests>/<seconds>, e.g. 600/60\n${USAGE}`);
    options.rateLimit = { limit: Number(match[1]), windowSeconds: Number(match[2]) };
  }
  const logSize = values["request-log-size"];
  if (logSize !== undefined) {
    if (!/^[1-9]\d*$/.test(logSize)) throw new Error(`invalid --request-log-size ${logSize}: a positive number of requests\n${USAGE}`);
    options.requestLogSize = Number(logSize);
  }
  const certFile = values["tls-cert"];
  const keyFile = values["tls-key"];
  if ((certFile === undefined) !== (keyFile === undefined)) throw new Error(`--tls-cert and --tls-key go together\n${USAGE}`);
  if (certFile !== undefined && keyFile !== undefined)
    options.tls = { cert: readPemFile(certFile, "--tls-cert"), key: readPemFile(keyFile, "--tls-key") };
  return options;
}

function readPemFile(path: string, flag: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(`${flag} ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}\n${USAGE}`);
  }
}

function oneOf<T extends string>(allowed: readonly T[], value: string, flag: string): T {
  if (!(allowed as readonly string[]).includes(value)) throw new Error(`invalid ${flag} ${value}: one of ${allowed.join(", ")}\n${USAGE}`);
  return value as T;
}

/** The banner: base URL, then each seeded user's username, role and token. */
function describeEmulator(emulator: RunningEmulator): string {
  const acme = emulator.seed.groups.find((g) => g.full_path === "acme");
  const lines = [
    `Forge emulator listening on ${emulator.url} (API at ${emulator.url}/api/v4)`,
    `Edition: ${editionLabel(emulator.edition())} (--tier, --offering, or PUT /__emulator/settings)`,
    "Admin endpoints: /__emulator/... with an administrator's token (PRIVATE-TOKEN header), same origin only",
    "",
    "Seeded users:",
  ];
  for (const user of emulator.seed.users) {
    const level = acme?.members.find((m) => m.user_id === user.id)?.access_level;
    const role = user.admin ? "administrator" : level !== undefined ? `${roleName(level)} of acme` : "no membership";
    lines.push(`  ${user.username.padEnd(8)} ${role.padEnd(20)} ${user.token}`);
  }
  return lines.join("\n");
}

/** Whether an address to listen on is reachable from this machine only. */
function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost" || bare === "::1") return true;
  const v4 = bare.startsWith("::ffff:") ? bare.slice("::ffff:".length) : bare;
  return isIPv4(v4) && v4.startsWith("127.");
}

/**
 * Boots the emulator from command-line arguments, prints the banner and stops cleanly on
 * SIGINT/SIGTERM. Returns the running emulator (tests close it themselves). A `--host` other
 * machines can reach gets a warning (on stderr unless `io.warn` says otherwise): the seeded
 * tokens are well known, so whoever reaches the port is an administrator of the emulator.
 */
export async function runCli(
  argv: readonly string[],
  io: { log(text: string): void; warn?(text: string): void; signals?: NodeJS.EventEmitter } = { log: (text) => console.log(text) },
): Promise<RunningEmulator> {
  const options = parseCliArgs(argv);
  const emulator = await startEmulator(options);
  if (options.host !== undefined && !isLoopback(options.host)) {
    (io.warn ?? ((text: string) => console.error(text)))(
      `Warning: listening on ${options.host}, an address other machines may reach. Anyone who reaches ${emulator.url} ` +
        "can use the seeded, well-known tokens (forge-root-token is an administrator) and the admin endpoints " +
        "under /__emulator. Use it on a trusted network only, or keep the default --host 127.0.0.1.",
    );
  }
  io.log(describeEmulator(emulator));
  const signals = io.signals ?? process;
  const stop = () => {
    emulator.close().then(
      () => io.log("Forge emulator stopped."),
      (error: unknown) => io.log(`Forge emulator failed to stop: ${String(error)}`),
    );
  };
  signals.once("SIGINT", stop);
  signals.once("SIGTERM", stop);
  return emulator;
}

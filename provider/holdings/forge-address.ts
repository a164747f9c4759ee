/**
 * Whether two base URLs name one forge, for the tools that match a stack's resources with the
 * forge they list or read (provider/holdings). A plain string comparison took
 * `http://localhost:8080` and `http://127.0.0.1:8080` for two forges, and a stack whose
 * resources were on the forge for another's: what it held was then reported unmanaged.
 *
 * - `same`: one canonical form (scheme, host without case or trailing dot, the loopback names
 *   as one, the port without its default, the path without trailing slashes or `/api/v4`).
 * - `different`: another scheme, port or path, or two hosts whose addresses (DNS) share none.
 * - `unsure`: two host names that share an address (one ingress may serve two forges, or one
 *   forge under two names), or whose addresses cannot be looked up: a tool then says "possibly".
 */
import { lookup } from "node:dns/promises";

/** How two base URLs stand: one forge, two, or not known. */
export type ForgeMatch = "same" | "different" | "unsure";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** A base URL's parts as compared; undefined for text that is no http(s) URL. */
function parts(url: string): { scheme: string; host: string; port: string; path: string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return undefined;
  const host = parsed.hostname.toLowerCase().replace(/\.$/, "");
  return {
    scheme: parsed.protocol,
    host: LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host) ? "localhost" : host,
    port: parsed.port || (parsed.protocol === "https:" ? "443" : "80"),
    path: parsed.pathname.replace(/\/+$/, "").replace(/\/api\/v4$/i, ""),
  };
}

/** The canonical form of a forge's base URL (`http://localhost:8080` for `http://127.0.0.1:8080/api/v4/`); the text itself when it is no URL. */
function canonicalForge(url: string): string {
  const found = parts(url);
  return found ? `${found.scheme}//${found.host}:${found.port}${found.path}` : url.trim();
}

/** Addresses of host names, looked up once per process (a fleet names a few forges). */
const addresses = new Map<string, Promise<string[] | undefined>>();

function addressesOf(host: string): Promise<string[] | undefined> {
  let found = addresses.get(host);
  if (!found) {
    const timeout = new Promise<undefined>((done) => setTimeout(() => done(undefined), 5_000).unref());
    found = Promise.race([
      lookup(host.replace(/^\[|\]$/g, ""), { all: true, verbatim: true }).then(
        (entries) => entries.map((entry) => entry.address),
        () => undefined,
      ),
      timeout,
    ]);
    addresses.set(host, found);
  }
  return found;
}

/** Whether `a` and `b` name one forge (see the module's comment). */
export async function compareForges(a: string, b: string): Promise<ForgeMatch> {
  if (canonicalForge(a) === canonicalForge(b)) return "same";
  const [left, right] = [parts(a), parts(b)];
  if (!left || !right) return "unsure";
  if (left.scheme !== right.scheme || left.port !== right.port || left.path !== right.path) return "different";
  const [one, two] = await Promise.all([addressesOf(left.host), addressesOf(right.host)]);
  if (!one || !two) return "unsure";
  return one.some((address) => two.includes(address)) ? "unsure" : "different";
}

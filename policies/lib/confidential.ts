/**
 * Heuristics for text that should not be public: credentials, private keys, passwords and
 * internal addresses. Findings describe what was found without repeating a secret value, since
 * violation messages end up in CI logs.
 */

export interface ConfidentialOptions {
  /** Extra regular expressions (case-insensitive) whose matches count as confidential. */
  extraPatterns: string[];
  /** Regular expressions (case-insensitive) for text that is known to be fine; matches are ignored. */
  allowPatterns: string[];
  /** Host name suffixes that only resolve inside the organisation (`internal` for `db.internal`). */
  internalDomains: string[];
  /** Shortest run of token characters judged by its randomness. */
  minTokenLength: number;
  /** Shannon entropy (bits per character) from which such a run looks random. */
  minTokenEntropy: number;
}

export interface Finding {
  kind: "token" | "private-key" | "password" | "internal-address" | "pattern";
  /** What was found, for a message: "what looks like an access token (prefix \"glpat-\")". */
  description: string;
}

/** Prefixes of well-known credentials: forge and code-host tokens, chat tokens, cloud keys. */
const TOKEN_PREFIXES: { pattern: RegExp; label: string }[] = [
  { pattern: /\b(glpat|gldt|glrt|glptt|glcbt|gloas|glsoat|glffct|glimt|glagent|glwt)-[A-Za-z0-9_-]{8,}/, label: "a forge access token" },
  { pattern: /\b(ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/, label: "a code-host access token" },
  { pattern: /\bgithub_pat_[A-Za-z0-9_]{20,}/, label: "a code-host access token" },
  { pattern: /\bxox[abposr]-[A-Za-z0-9-]{8,}/, label: "a chat (Slack-style) token" },
  { pattern: /\b(AKIA|ASIA)[0-9A-Z]{16}\b/, label: "a cloud access key id" },
  { pattern: /\b(sk|rk)_(live|test)_[A-Za-z0-9]{16,}/, label: "a payment API key" },
  { pattern: /\bAIza[0-9A-Za-z_-]{35}\b/, label: "a cloud API key" },
];

const PRIVATE_KEY = /-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----/;

/** `password=…`, `pwd: …`, `passwd = …`, `client_secret: …`, `api_key=…` followed by a value. */
const PASSWORD =
  /\b(password|passwd|passphrase|pwd|client[_-]?secret|secret[_-]?key|api[_-]?key|access[_-]?key|(?:private|access)[_-]?token)\s*[=:]\s*\S+/i;

/** Credentials inside a URL: `https://user:pass@host`. */
const URL_CREDENTIALS = /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]+@/i;

/** Private IPv4 ranges of RFC 1918. */
const RFC1918 =
  /\b(10\.(?:25[0-5]|2[0-4]\d|1?\d?\d)\.(?:25[0-5]|2[0-4]\d|1?\d?\d)\.(?:25[0-5]|2[0-4]\d|1?\d?\d)|172\.(?:1[6-9]|2\d|3[01])\.(?:25[0-5]|2[0-4]\d|1?\d?\d)\.(?:25[0-5]|2[0-4]\d|1?\d?\d)|192\.168\.(?:25[0-5]|2[0-4]\d|1?\d?\d)\.(?:25[0-5]|2[0-4]\d|1?\d?\d))\b/;

/** Runs of characters tokens are made of (base64, base64url, hex). */
const TOKEN_RUN = /[A-Za-z0-9+/=_-]+/g;

export function findConfidential(text: string, options: ConfidentialOptions): Finding[] {
  const allow = options.allowPatterns.map((source) => compile(source, "allowPatterns"));
  // Blank out allowed text first, so that nothing inside it is reported.
  let scanned = text;
  for (const pattern of allow) scanned = scanned.replace(new RegExp(pattern.source, "gi"), (match) => " ".repeat(match.length));

  const findings: Finding[] = [];
  const add = (kind: Finding["kind"], description: string) => {
    if (!findings.some((finding) => finding.description === description)) findings.push({ kind, description });
  };

  const key = PRIVATE_KEY.exec(scanned);
  if (key) add("private-key", `a private key (${JSON.stringify(key[0])})`);

  // What is recognised by its shape is blanked out before the search for random-looking runs.
  let rest = scanned.replace(/-----BEGIN [^-]*-----[\s\S]*?(-----END [^-]*-----|$)/g, " ");
  for (const { pattern, label } of TOKEN_PREFIXES) {
    const match = pattern.exec(scanned);
    if (match) add("token", `what looks like ${label} (it starts with ${JSON.stringify(prefixOf(match[0]))})`);
    rest = rest.replace(new RegExp(pattern.source, "g"), " ");
  }
  for (const run of rest.match(TOKEN_RUN) ?? []) {
    if (looksRandom(run, options)) {
      add("token", `what looks like a token or key (a random-looking string of ${run.length} characters)`);
      break;
    }
  }

  const password = PASSWORD.exec(scanned);
  if (password)
    add(
      "password",
      `what looks like a password or secret (${JSON.stringify(password[1] + (/=/.test(password[0]) ? "=" : ":"))} followed by a value)`,
    );
  if (URL_CREDENTIALS.test(scanned)) add("password", "a URL with a user name and password in it");

  const ip = RFC1918.exec(scanned);
  if (ip) add("internal-address", `an internal address (${ip[0]}, a private RFC 1918 IP)`);
  const domains = options.internalDomains.map((domain) => domain.replace(/^\.+/, "")).filter((domain) => domain !== "");
  if (domains.length > 0) {
    const host = new RegExp(
      `\\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+(?:${domains.map(escapeRegExp).join("|")})\\b(?![.-][a-z0-9])`,
      "i",
    ).exec(scanned);
    if (host) add("internal-address", `an internal host name (${host[0]})`);
  }

  for (const source of options.extraPatterns) {
    if (compile(source, "extraPatterns").test(scanned)) add("pattern", `text matching the configured pattern /${source}/`);
  }
  return findings;
}

/** Long, mixed-case, with digits, and as varied as random text: a token, not a word or a hash. */
function looksRandom(run: string, options: ConfidentialOptions): boolean {
  const core = run.replace(/^[-_=/+]+|[-_=/+]+$/g, "");
  if (core.length < options.minTokenLength) return false;
  if (!/[a-z]/.test(core) || !/[A-Z]/.test(core) || !/[0-9]/.test(core)) return false;
  // Mostly words (`ReleaseCandidateBuildName2024`): an identifier, not a token.
  const wordy = (core.match(/[A-Z]?[a-z]{3,}/g) ?? []).join("").length;
  if (wordy / core.length >= 0.6) return false;
  return entropy(core) >= options.minTokenEntropy;
}

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** How much of a prefixed token a message may show: the prefix, not the secret. */
function prefixOf(token: string): string {
  return /^(AKIA|ASIA|AIza|github_pat_|[a-z]+[-_](?:live_|test_)?)/i.exec(token)?.[0] ?? token.slice(0, 4);
}

function compile(source: string, setting: string): RegExp {
  try {
    return new RegExp(source, "i");
  } catch (error) {
    throw new Error(`policy config ${setting}: ${JSON.stringify(source)} is not a valid regular expression (${(error as Error).message})`);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

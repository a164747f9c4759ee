/**
 * The one mask of every output: what the provider's errors, the engine's messages and the CLIs'
 * reports (forge-drift, its fleet, forge-recover, forge-adopt) print goes through here before
 * anyone reads it. Three things are masked, each as {@link SECRET_MASK}:
 *
 * - values known to be secret (a token, a secret field's value on either side of a comparison,
 *   every secret this process has seen: {@link rememberSecrets}), wherever they appear and in
 *   every form a message may hold them: trimmed, line by line, JSON-escaped ({@link secretForms});
 * - the password of a URL's userinfo (`postgres://team:<password>@db/pulumi`);
 * - the value of a URL's query parameter named like a credential (`?password=`, `sslpassword=`,
 *   `private_token=`, `sslkey=`: any name holding pass, pwd, secret, token, key, credential or
 *   signature), as a PostgreSQL backend URL may carry its password.
 *
 * Imported by the client, the engine and the CLIs alike (it imports only api/credentials.ts, whose
 * rule the emulator's request log applies too), so that there is one rule to read and one to test
 * (test/unit/redaction.test.ts).
 */
import { CREDENTIAL_PARAMETER, SECRET_MASK } from "../api/credentials";

export { SECRET_MASK };

/** A URL in free text: a scheme, `//`, and everything up to white space, a quote or an angle bracket. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'`<>]+/gi;

/** Punctuation that ends a sentence around a URL rather than belonging to it. */
const TRAILING_PUNCTUATION = /[).,;:!?\]]+$/;

/** Secrets shorter than this are left alone: masking `abc` everywhere would mangle the text. */
const SHORTEST_SECRET = 4;

/** The secret values this process has seen: a provider's secret inputs and outputs, the secrets
 *  of a state a CLI decrypted. Masked in everything {@link redact} returns from then on. */
const remembered = new Set<string>();

/** Lines of a multi-line secret shorter than this are not masked on their own (a `true`, a blank). */
const SHORTEST_SECRET_LINE = 8;

/** Makes every string in `values` a known secret of this process (masked wherever it appears later, in each of its {@link secretForms}). */
export function rememberSecrets(values: Iterable<unknown>): void {
  for (const value of values) for (const text of secretStrings(value)) for (const form of secretForms(text)) remembered.add(form);
}

/**
 * The forms a secret takes in messages besides its own text: trimmed, each of its lines (a
 * message cut to one line, a report quoting a few), and JSON-escaped (a JSON report, a value
 * quoted with JSON.stringify), each line escaped too. A PEM block's armour lines
 * (`-----BEGIN ...-----`) say nothing secret and are left alone.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  const trimmed = secret.trim();
  if (trimmed.length >= SHORTEST_SECRET) forms.add(trimmed);
  const lines = secret.split(/\r?\n/).map((line) => line.trim());
  if (lines.length > 1)
    for (const line of lines) if (line.length >= SHORTEST_SECRET_LINE && !/^-----[A-Z0-9 ]+-----$/.test(line)) forms.add(line);
  for (const form of [...forms]) {
    const escaped = JSON.stringify(form).slice(1, -1);
    if (escaped !== form) forms.add(escaped);
  }
  return [...forms];
}

/**
 * `text` with every known secret and every credential in a URL masked. `secrets` are values
 * (strings, or values holding strings: each string of at least four characters is masked),
 * besides those this process remembers.
 */
export function redact(text: string, secrets: Iterable<unknown> = []): string {
  let result = text;
  // Longest first: a secret that contains another is masked whole.
  const known = [...new Set([...remembered, ...[...secrets].flatMap(secretStrings).flatMap(secretForms)])].sort(
    (a, b) => b.length - a.length,
  );
  for (const secret of known) result = result.split(secret).join(SECRET_MASK);
  return maskUrls(result);
}

/** Every URL in `text` with its userinfo password and credential query parameters masked. */
export function maskUrls(text: string): string {
  return text.replace(URL_IN_TEXT, (found) => {
    let trailing = TRAILING_PUNCTUATION.exec(found)?.[0] ?? "";
    let url = found.slice(0, found.length - trailing.length);
    // The bracket that closes a mask already there is the URL's: masking twice changes nothing.
    if (trailing.startsWith("]") && `${url}]`.endsWith(SECRET_MASK)) [url, trailing] = [`${url}]`, trailing.slice(1)];
    return `${maskUrl(url)}${trailing}`;
  });
}

function maskUrl(url: string): string {
  const schemeEnd = url.indexOf("://") + 3;
  const authorityEnd = firstOf(url, ["/", "?", "#"], schemeEnd);
  const authority = url.slice(schemeEnd, authorityEnd);
  const at = authority.lastIndexOf("@");
  const userinfo = at >= 0 ? authority.slice(0, at) : "";
  const colon = userinfo.indexOf(":");
  const maskedAuthority = colon >= 0 ? `${userinfo.slice(0, colon)}:${SECRET_MASK}${authority.slice(at)}` : authority;
  let rest = url.slice(authorityEnd);
  const queryStart = rest.indexOf("?");
  if (queryStart >= 0) {
    const fragmentStart = rest.indexOf("#", queryStart);
    const queryEnd = fragmentStart >= 0 ? fragmentStart : rest.length;
    const query = rest
      .slice(queryStart + 1, queryEnd)
      .split("&")
      .map((pair) => {
        const equals = pair.indexOf("=");
        if (equals < 0) return pair;
        return CREDENTIAL_PARAMETER.test(decoded(pair.slice(0, equals))) ? `${pair.slice(0, equals)}=${SECRET_MASK}` : pair;
      })
      .join("&");
    rest = `${rest.slice(0, queryStart + 1)}${query}${rest.slice(queryEnd)}`;
  }
  return `${url.slice(0, schemeEnd)}${maskedAuthority}${rest}`;
}

/** A URL for messages without its query string at all (next-page links carry cursors and, from some proxies, tokens). */
export function withoutQuery(url: string): string {
  return maskUrls(url.split("?")[0] ?? url);
}

/** The strings inside a value (an object's, a list's, at any depth) long enough to mask. Numbers
 *  and booleans are not masked in text: `1234` everywhere would mangle ids, paths and times. */
export function secretStrings(value: unknown): string[] {
  if (typeof value === "string") return value.length >= SHORTEST_SECRET ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(secretStrings);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(secretStrings);
  return [];
}

/** A pair of text sinks (a CLI's stdout and stderr) that mask what they are given. */
export interface TextIo {
  out(text: string): void;
  err(text: string): void;
}

/** `io` with everything written to it masked. */
export function maskedIo(io: TextIo): TextIo {
  return { out: (text) => io.out(redact(text)), err: (text) => io.err(redact(text)) };
}

/** An error whose message is masked: the same object (its type and fields kept), for rethrowing. */
export function redactedError<E>(error: E, secrets: Iterable<unknown> = []): E {
  if (error instanceof Error) {
    const masked = redact(error.message, secrets);
    if (masked !== error.message) {
      error.message = masked;
      if (error.stack) error.stack = redact(error.stack, secrets);
    }
  }
  return error;
}

function firstOf(text: string, characters: string[], from: number): number {
  const found = characters.map((character) => text.indexOf(character, from)).filter((index) => index >= 0);
  return found.length > 0 ? Math.min(...found) : text.length;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

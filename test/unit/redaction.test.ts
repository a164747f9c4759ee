/**
 * The one mask (provider/redaction.ts): URL shapes that carry credentials, known secrets on
 * either side of a comparison, the secrets a process remembers, and the text sinks of the CLIs.
 */
import { describe, expect, it } from "vitest";
import { maskedIo, maskUrls, redact, redactedError, rememberSecrets, SECRET_MASK, withoutQuery } from "../../provider/redaction";

describe("URLs", () => {
  it("mask the password of the userinfo, whatever it holds", () => {
    expect(maskUrls("could not connect to postgres://team:s3cr%40t@db.example:5432/pulumi?sslmode=require")).toBe(
      "could not connect to postgres://team:[secret]@db.example:5432/pulumi?sslmode=require",
    );
    expect(maskUrls("https://oauth2:glpat-abc@forge.example/api/v4")).toBe("https://oauth2:[secret]@forge.example/api/v4");
    // An @ in the password (unencoded): everything before the last @ of the authority is userinfo.
    expect(maskUrls("postgres://team:p@ss@db/pulumi")).toBe("postgres://team:[secret]@db/pulumi");
  });

  it("mask query parameters named like credentials, any case, encoded or not", () => {
    const url =
      "postgres://team@db:5432/pulumi?sslmode=disable&password=hunter2&sslpassword=k3y&table=state&PGPASSWORD=x1&private_token=t0k&api%5Fkey=k&client_secret=s&X-Amz-Signature=sig&pwd=p";
    expect(maskUrls(url)).toBe(
      "postgres://team@db:5432/pulumi?sslmode=disable&password=[secret]&sslpassword=[secret]&table=state&PGPASSWORD=[secret]&private_token=[secret]&api%5Fkey=[secret]&client_secret=[secret]&X-Amz-Signature=[secret]&pwd=[secret]",
    );
  });

  it("leave what is not a credential alone: a user, a host, ordinary parameters, a fragment, the sentence around", () => {
    expect(maskUrls("postgres://team@db.example/pulumi and file:///srv/state")).toBe(
      "postgres://team@db.example/pulumi and file:///srv/state",
    );
    expect(maskUrls("see https://forge.example/groups?page=2&per_page=100#top.")).toBe(
      "see https://forge.example/groups?page=2&per_page=100#top.",
    );
    expect(maskUrls("(from postgres://db/p?password=abc).")).toBe("(from postgres://db/p?password=[secret]).");
    expect(maskUrls('"url": "postgres://u:pw@h/db?password=pw2"')).toBe('"url": "postgres://u:[secret]@h/db?password=[secret]"');
    expect(maskUrls("no URL here: password=plain")).toBe("no URL here: password=plain");
  });

  it("mask once: text already masked is left as it is", () => {
    for (const text of [
      "postgres://u:pw@h/db?password=pw2",
      "(at postgres://h/db?sslmode=disable&password=pw).",
      "postgres://u@[::1]:5432/db?password=x]",
    ]) {
      expect(maskUrls(maskUrls(text))).toBe(maskUrls(text));
    }
    expect(maskUrls("lock: postgres://h/db?password=x (table t)")).toBe("lock: postgres://h/db?password=[secret] (table t)");
  });

  it("can drop the query whole (next-page links), still masking the userinfo", () => {
    expect(withoutQuery("https://u:p@forge.example/api/v4/groups?cursor=abc&private_token=t")).toBe(
      "https://u:[secret]@forge.example/api/v4/groups",
    );
  });
});

describe("known secrets", () => {
  it("mask every occurrence, the longest first, strings inside objects too; short ones and numbers stay", () => {
    const text = "program has https://hooks.example/T0/B0/abc, server has https://hooks.example/T0/B0/abcdef; id 12345, key abc";
    expect(redact(text, ["https://hooks.example/T0/B0/abc", { nested: ["https://hooks.example/T0/B0/abcdef"] }, "abc", 12345])).toBe(
      `program has ${SECRET_MASK}, server has ${SECRET_MASK}; id 12345, key abc`,
    );
  });

  it("remembered by the process are masked in everything redacted later, errors and sinks included", () => {
    const secret = `remembered-${Math.random().toString(36).slice(2)}`;
    rememberSecrets([{ value: secret }]);
    expect(redact(`a message with ${secret}`)).toBe(`a message with ${SECRET_MASK}`);
    const error = redactedError(new TypeError(`failed: ${secret}`));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(`failed: ${SECRET_MASK}`);
    expect(String(error.stack)).not.toContain(secret);
    const written: string[] = [];
    const io = maskedIo({ out: (text) => written.push(text), err: (text) => written.push(text) });
    io.out(`report ${secret} postgres://u@h/db?password=pw`);
    io.err(`error ${secret}`);
    expect(written).toEqual([`report ${SECRET_MASK} postgres://u@h/db?password=${SECRET_MASK}`, `error ${SECRET_MASK}`]);
  });
});

describe("the forms a secret takes", () => {
  it("are masked too: trimmed, each line of a multi-line secret, JSON-escaped, a line JSON-escaped", () => {
    const key =
      'Bag Attributes\n    localKeyID: 01 00 00 00\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nzW8q7y2Xr0c1m4Jm3f"Nc9tA0e5aR1b\n-----END PRIVATE KEY-----\n';
    rememberSecrets([key]);
    const messages = [
      `ENOENT: ${key.trim()}`,
      `first line only: ${key.split("\n")[3]}`,
      JSON.stringify({ message: `cannot read ${key}` }),
      JSON.stringify({ line: key.split("\n")[4] }),
    ];
    for (const message of messages) {
      const masked = redact(message);
      for (const part of ["MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "zW8q7y2Xr0c1m4Jm3f", "Nc9tA0e5aR1b", "localKeyID: 01"])
        expect(masked).not.toContain(part);
      expect(masked).toContain(SECRET_MASK);
    }
    // The armour says nothing secret: it stays readable in a hint.
    expect(redact("give text starting with -----BEGIN PRIVATE KEY-----")).toContain("-----BEGIN PRIVATE KEY-----");
  });
});

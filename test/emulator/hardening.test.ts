/*
 * The emulator is a server people run: what a hostile or careless client must not be able to do
 * to it. Parameters never reach a prototype, admin endpoints need the administrator and refuse
 * other sites, fault patterns match in linear time, bodies have limits and errors no stack
 * traces, and the state file is private, locked, and written all or nothing.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../emulator";
import { runCli } from "../../emulator/cli-main";
import { compilePathPattern } from "../../emulator/admin/path-pattern";
import { call, decode, TOKEN, useEmulator } from "./helpers";

const { api, admin, emulator } = useEmulator();

afterEach(() => {
  // Before the fix a polluted prototype outlived the request; keep one failure from causing others.
  delete (Object.prototype as Record<string, unknown>)["private_token"];
});

/** The caller `GET /user` sees without credentials: 401 while anonymous stays anonymous. */
async function anonymousUser(): Promise<number> {
  return (await api("GET", "/user")).status;
}

function noStackTrace(text: string): void {
  expect(text).not.toMatch(/\n\s+at /);
  expect(text).not.toMatch(/\.ts:\d+|\.js:\d+/);
}

describe("parameters never write to a prototype", () => {
  it("refuses __proto__, constructor and prototype in the query", async () => {
    for (const query of [
      `__proto__[private_token]=${TOKEN.root}`,
      `constructor[prototype][private_token]=${TOKEN.root}`,
      `a[__proto__][private_token]=${TOKEN.root}`,
      `a[][prototype]=1`,
    ]) {
      const res = await api("GET", `/broadcast_messages?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toMatch(/is not allowed as a parameter name/);
      expect(await anonymousUser(), query).toBe(401);
    }
  });

  it("refuses them in form-urlencoded bodies", async () => {
    const res = await api("POST", "/groups/acme/labels", { as: "max", form: `name=x&color=red&__proto__[private_token]=${TOKEN.root}` });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/__proto__ is not allowed as a parameter name/);
    expect(await anonymousUser()).toBe(401);
  });

  it("refuses them in multipart bodies", async () => {
    const form = new FormData();
    form.append("name", "x");
    form.append("__proto__[private_token]", TOKEN.root);
    const res = await decode(
      await fetch(`${emulator().url}/api/v4/groups/acme/labels`, { method: "POST", body: form, headers: { "PRIVATE-TOKEN": TOKEN.max } }),
    );
    expect(res.status).toBe(400);
    expect(await anonymousUser()).toBe(401);
  });

  it("refuses them in JSON bodies, at any depth, and on the admin endpoints", async () => {
    const bodies = [
      `{"name":"x","color":"red","__proto__":{"private_token":"${TOKEN.root}"}}`,
      `{"name":"x","color":"red","a":[{"constructor":{"prototype":{"private_token":"${TOKEN.root}"}}}]}`,
    ];
    for (const body of bodies) {
      const res = await decode(
        await fetch(`${emulator().url}/api/v4/groups/acme/labels`, {
          method: "POST",
          body,
          headers: { "content-type": "application/json", "PRIVATE-TOKEN": TOKEN.max },
        }),
      );
      expect(res.status, body).toBe(400);
      expect(res.body.error, body).toMatch(/is not allowed as a parameter name/);
    }
    const viaAdmin = await decode(
      await fetch(`${emulator().url}/__emulator/settings?__proto__[private_token]=${TOKEN.root}`, {
        headers: { "PRIVATE-TOKEN": TOKEN.root },
      }),
    );
    expect(viaAdmin.status).toBe(400);
    expect(await anonymousUser()).toBe(401);
  });

  it("still reads ordinary bracket parameters", async () => {
    expect((await api("GET", "/broadcast_messages?a[b][]=1&c[0][d]=2&toString=x")).status).toBe(200);
  });
});

describe("admin endpoints", () => {
  const url = (path: string) => `${emulator().url}/__emulator${path}`;

  it("need the administrator's token: 401 without one or with an unknown one, 403 for other users", async () => {
    expect((await fetch(url("/seed"))).status).toBe(401);
    expect((await fetch(url("/reset"), { method: "POST" })).status).toBe(401);
    expect((await fetch(url("/requests"), { headers: { "PRIVATE-TOKEN": "nope" } })).status).toBe(401);
    const asMax = await decode(await fetch(url("/settings"), { headers: { "PRIVATE-TOKEN": TOKEN.max } }));
    expect(asMax.status).toBe(403);
    expect(asMax.body.message).toMatch(/administrator/);
    expect((await fetch(url("/seed"), { headers: { "PRIVATE-TOKEN": TOKEN.root } })).status).toBe(200);
    expect((await fetch(url("/seed"), { headers: { Authorization: `Bearer ${TOKEN.root}` } })).status).toBe(200);
    expect((await admin("GET", "/seed")).status).toBe(200);
    // A token in the query would leak into logs and could ride on a cross-site link.
    expect((await fetch(url(`/seed?private_token=${TOKEN.root}`))).status).toBe(401);
  });

  it("refuse cross-site requests, so a web page cannot wipe the state", async () => {
    await api("POST", "/groups/acme/labels", { as: "max", json: { name: "kept", color: "red" } });
    const crossSite = await decode(
      await fetch(url("/reset"), {
        method: "POST",
        headers: { "content-type": "text/plain", Origin: "http://evil.example", "PRIVATE-TOKEN": TOKEN.root },
        body: "x",
      }),
    );
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.message).toMatch(/cross-site/);
    const fetchMetadata = await fetch(url("/reset"), {
      method: "POST",
      headers: { "Sec-Fetch-Site": "cross-site", "PRIVATE-TOKEN": TOKEN.root },
    });
    expect(fetchMetadata.status).toBe(403);
    const anonymousCrossSite = await fetch(url("/reset"), {
      method: "POST",
      headers: { "content-type": "text/plain", Origin: "http://evil.example" },
      body: "x",
    });
    expect(anonymousCrossSite.status).toBe(403);
    expect((await api("GET", "/groups/acme/labels/kept", { as: "max" })).status).toBe(200);

    const sameOrigin = await fetch(url("/seed"), {
      headers: { Origin: emulator().url, "Sec-Fetch-Site": "same-origin", "PRIVATE-TOKEN": TOKEN.root },
    });
    expect(sameOrigin.status).toBe(200);
  });

  it("forge-emulator warns when it listens on an address other machines can reach", async () => {
    const warnings: string[] = [];
    const logs: string[] = [];
    const running = await runCli(["--port", "0", "--host", "0.0.0.0"], {
      log: (text) => logs.push(text),
      warn: (text) => warnings.push(text),
    });
    await running.close();
    expect(warnings.join("\n")).toMatch(/0\.0\.0\.0.*(reach|network)/s);
    expect(warnings.join("\n")).toMatch(/forge-root-token|well-known tokens/);

    const quiet: string[] = [];
    const local = await runCli(["--port", "0", "--host", "127.0.0.1"], { log: () => {}, warn: (text) => quiet.push(text) });
    await local.close();
    expect(quiet).toEqual([]);
  });
});

describe("fault patterns match in linear time", () => {
  it("answers quickly with a pattern that backtracks catastrophically in a regex engine", async () => {
    const posted = await admin("POST", "/faults", { path: "^/(a|aa)+$", status: 503 });
    if (posted.status === 201) {
      const started = Date.now();
      const res = await api("GET", `/${"a".repeat(38)}!`);
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(res.status).toBe(404);
      expect((await api("GET", `/${"a".repeat(38)}`)).status).toBe(503);
    } else {
      expect(posted.status).toBe(400);
    }
  }, 60_000);

  it("matches the patterns tests and benchmarks post exactly as a regular expression would", async () => {
    const cases: [string, string][] = [
      ["^/user$", "/user"],
      ["^/user$", "/users"],
      ["labels", "/groups/acme/labels"],
      ["/labels/", "/groups/acme/labels"],
      ["/labels/", "/groups/acme/labels/7"],
      ["^/groups/[^/]+/labels$", "/groups/acme%2Fplatform/labels"],
      ["^/groups/[^/]+/labels$", "/groups/acme/platform/labels"],
      ["/cluster_agents/\\d+/tokens$", "/projects/1/cluster_agents/12/tokens"],
      ["/cluster_agents/\\d+/tokens$", "/projects/1/cluster_agents/x/tokens"],
      [".*", "/anything"],
      ["^/(broadcast_messages|admin/clusters/add)$", "/admin/clusters/add"],
      ["^/a{2,3}$", "/aaaa"],
      ["^/a{2,3}$", "/aaa"],
      ["^/[a-c\\-]+?x?$", "/ab-c"],
      ["(?:group|project)s/\\w+\\.?", "/projects/web"],
      // `(?=` inside a class is no lookaround.
      ["^/[(?=]+$", "/(?="],
    ];
    for (const [pattern, path] of cases) {
      await admin("DELETE", "/faults");
      expect((await admin("POST", "/faults", { method: "GET", path: pattern, status: 418 })).status, pattern).toBe(201);
      const hit = (await api("GET", path)).status === 418;
      expect(hit, `${pattern} on ${path}`).toBe(new RegExp(pattern).test(path));
    }
  });

  it("refuses what it cannot match in linear time, naming the reason", async () => {
    const backReference = await admin("POST", "/faults", { path: "^/(a+)\\1$", status: 503 });
    expect(backReference.status).toBe(400);
    expect(backReference.body.error).toMatch(/back-reference/);
    const lookahead = await admin("POST", "/faults", { path: "^/(?=a)", status: 503 });
    expect(lookahead.status).toBe(400);
    expect(lookahead.body.error).toMatch(/lookaround/);
    expect((await admin("POST", "/faults", { path: "(", status: 503 })).status).toBe(400);
    // An escaped backslash before a digit is no back-reference (a URL cannot carry the backslash: matched in process).
    expect(compilePathPattern("^/a\\\\1$").test("/a\\1")).toBe(true);
  });
});

describe("bodies", () => {
  it("answers 413 to a body over the limit, without a stack trace", async () => {
    const res = await decode(
      await fetch(`${emulator().url}/api/v4/groups/acme/labels`, {
        method: "POST",
        headers: { "content-type": "application/json", "PRIVATE-TOKEN": TOKEN.max },
        body: `{"name":"big","color":"red","description":"${"x".repeat(21 * 1024 * 1024)}"}`,
      }),
    );
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/413/);
    noStackTrace(res.text);
  }, 30_000);

  it("answers 400 to JSON nested deeper than 32 levels", async () => {
    const depth = 5_000;
    const body = `{"name":"deep","color":"red","description":${"[".repeat(depth)}${"]".repeat(depth)}}`;
    const res = await decode(
      await fetch(`${emulator().url}/api/v4/groups/acme/labels`, {
        method: "POST",
        headers: { "content-type": "application/json", "PRIVATE-TOKEN": TOKEN.max },
        body,
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/nested too deeply/);
    noStackTrace(res.text);
    const shallow = `{"name":"ok","color":"red","x":${"[".repeat(30)}${"]".repeat(30)}}`;
    expect(
      (
        await decode(
          await fetch(`${emulator().url}/api/v4/groups/acme/labels`, {
            method: "POST",
            headers: { "content-type": "application/json", "PRIVATE-TOKEN": TOKEN.max },
            body: shallow,
          }),
        )
      ).status,
    ).toBe(201);
  });

  it("answers 400 to bracket parameters nested deeper than 32 levels", async () => {
    const key = `a${"[b]".repeat(5_000)}`;
    const res = await api("POST", "/groups/acme/labels", { as: "max", form: `name=deep&color=red&${key}=1` });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/nested too deeply/);
    const query = await api("GET", `/broadcast_messages?${`a${"[]".repeat(100)}`}=1`);
    expect(query.status).toBe(400);
  });

  it("refuses a string field over 1 MiB, naming the field", async () => {
    const description = "x".repeat(2 * 1024 * 1024);
    const res = await api("POST", "/groups/acme/labels", { as: "max", json: { name: "long", color: "red", description } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^description is too long/);
    const nested = await api("POST", "/groups/acme/labels", { as: "max", form: `name=n&color=red&x[0][y]=${"é".repeat(600 * 1024)}` });
    expect(nested.status).toBe(400);
    expect(nested.body.error).toMatch(/^x\[0\]\[y\] is too long/);
    expect((await api("GET", "/groups/acme/labels/long", { as: "max" })).status).toBe(404);
    const fits = await api("POST", "/groups/acme/labels", {
      as: "max",
      json: { name: "fits", color: "red", description: "x".repeat(1024 * 1024 - 100) },
    });
    expect(fits.status).toBe(201);
  });
});

describe("state file", () => {
  const directories: string[] = [];
  afterEach(() => {
    for (const dir of directories.splice(0)) {
      chmodSync(dir, 0o700);
      rmSync(dir, { recursive: true, force: true });
    }
  });
  const stateFile = () => {
    const dir = mkdtempSync(join(tmpdir(), "forge-hardening-"));
    directories.push(dir);
    return { dir, path: join(dir, "state.json") };
  };

  it("is readable by its owner only, and stays so after each write", async () => {
    const { path } = stateFile();
    writeFileSync(path, "", { mode: 0o644 });
    rmSync(path);
    const running = await startEmulator({ statePath: path });
    try {
      expect(statSync(path).mode & 0o777).toBe(0o600);
      await call(running.url, "POST", "/groups/acme/labels", { as: "max", json: { name: "a", color: "red" } });
      expect(statSync(path).mode & 0o777).toBe(0o600);
    } finally {
      await running.close();
    }
    chmodSync(path, 0o644);
    const again = await startEmulator({ statePath: path });
    await again.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("refuses a second emulator on the same file, and releases the lock on close", async () => {
    const { path } = stateFile();
    const first = await startEmulator({ statePath: path });
    try {
      await expect(startEmulator({ statePath: path })).rejects.toThrow(
        new RegExp(`${path.replace(/[.\\]/g, "\\$&")}.*in use by another emulator \\(pid ${process.pid}\\)`),
      );
    } finally {
      await first.close();
    }
    expect(existsSync(`${path}.lock`)).toBe(false);
    const second = await startEmulator({ statePath: path });
    await second.close();
  });

  it("takes over a lock left by a process that is gone", async () => {
    const { path } = stateFile();
    writeFileSync(`${path}.lock`, "999999999\n");
    const running = await startEmulator({ statePath: path });
    expect(readFileSync(`${path}.lock`, "utf8").trim()).toBe(String(process.pid));
    await running.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("leaves memory as it was and answers an error naming the file when a write fails", async () => {
    const { path } = stateFile();
    const running = await startEmulator({ statePath: path });
    try {
      await call(running.url, "POST", "/groups/acme/labels", { as: "max", json: { name: "before", color: "red" } });
      const saved = readFileSync(path, "utf8");
      // The rename over the state file fails while a directory stands in its place.
      rmSync(path);
      mkdirSync(path);
      const failed = await call(running.url, "POST", "/groups/acme/labels", { as: "max", json: { name: "lost", color: "red" } });
      expect(failed.status).toBe(500);
      expect(failed.text).toContain(path);
      noStackTrace(failed.text);
      expect((await call(running.url, "GET", "/groups/acme/labels/lost", { as: "max" })).status).toBe(404);
      expect((await call(running.url, "GET", "/groups/acme/labels/before", { as: "max" })).status).toBe(200);
      const reset = await fetch(`${running.url}/__emulator/reset`, { method: "POST", headers: { "PRIVATE-TOKEN": TOKEN.root } });
      expect(reset.status).toBe(500);
      expect((await call(running.url, "GET", "/groups/acme/labels/before", { as: "max" })).status).toBe(200);

      rmSync(path, { recursive: true });
      writeFileSync(path, saved);
      const next = await call(running.url, "POST", "/groups/acme/labels", { as: "max", json: { name: "after", color: "red" } });
      expect(next.status).toBe(201);
      const names = JSON.parse(readFileSync(path, "utf8")).labels.map((l: { title: string }) => l.title);
      expect(names).toEqual(["before", "after"]);
    } finally {
      await running.close();
    }
  });

  it("refuses at start a file of the wrong shape, naming it, and writes nothing", async () => {
    const { path } = stateFile();
    const shapes = [
      "not json",
      "[]",
      "null",
      JSON.stringify({ format: "forge-emulator-state/1", users: "nobody" }),
      JSON.stringify({ format: "forge-emulator-state/1", sequences: {}, users: [], groups: [], projects: [], labels: {} }),
      JSON.stringify({ format: "forge-emulator-state/1", sequences: { label: "one" } }),
      JSON.stringify({ format: "something else" }),
    ];
    for (const text of shapes) {
      writeFileSync(path, text);
      await expect(startEmulator({ statePath: path }), text).rejects.toThrow(path);
      expect(readFileSync(path, "utf8"), text).toBe(text);
      expect(existsSync(`${path}.lock`), text).toBe(false);
    }
  });
});

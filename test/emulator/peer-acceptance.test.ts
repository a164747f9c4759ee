import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { firstRefused, runPeerTests, selectTests, table, verdict } from "../../scripts/peer-acceptance";

/*
 * The peer harness (scripts/peer-acceptance.ts) against a stand-in for a compiled Go test binary:
 * a script that answers `-test.list` and `-test.run` as `go test -c` binaries do and talks to the
 * forge at GITLAB_BASE_URL as a provider's acceptance tests would. No peer code is involved.
 */

const FAKE = `#!${process.execPath}
const args = process.argv.slice(2);
if (args[0] === "-test.list") {
  process.stdout.write("TestAccOne\\nTestAccTwo\\nTestAccSkip\\nTestHelper\\n");
  process.exit(0);
}
const name = args[args.indexOf("-test.run") + 1].replace(/^\\^|\\$$/g, "");
const base = process.env.GITLAB_BASE_URL;
const headers = { "PRIVATE-TOKEN": process.env.GITLAB_TOKEN, "Content-Type": "application/json" };
const call = (method, path, body) => fetch(base + path, { method, headers, body: body && JSON.stringify(body) });
(async () => {
  console.log("=== RUN   " + name);
  if (name === "TestAccOne") {
    const env = [process.env.TF_ACC, process.env.TF_ACC_TERRAFORM_PATH, base.endsWith("/api/v4/")].join(",");
    await call("GET", "");
    const version = await (await call("GET", "version")).json();
    const project = await (await call("POST", "projects", { name: "p", not_a_parameter: 1 })).json();
    console.log("    one_test.go:9: env " + env + " version " + version.version + " project " + project.path_with_namespace);
    console.log("--- PASS: TestAccOne (0.01s)\\nPASS");
    process.exit(0);
  }
  if (name === "TestAccTwo") {
    const answer = await call("PUT", "projects/1/services/jira", { url: "x" });
    console.log("    two_test.go:21: Step 1/6 error: Error running apply: exit status 1\\n");
    console.log("        Error: couldn't create service: PUT " + base + "projects/1/services/jira: " + answer.status + " {error: 404 Not Found}");
    console.log("--- FAIL: TestAccTwo (0.01s)\\nFAIL");
    process.exit(1);
  }
  console.log("    helper_test.go:76: Test is skipped for non-Enterprise version of GitLab");
  console.log("--- SKIP: " + name + " (0.00s)\\nPASS");
})();
`;

function fakeBinary(): { binary: string; logs: string; terraform: string } {
  const dir = mkdtempSync(join(tmpdir(), "peer-fake-"));
  const binary = join(dir, "provider.test");
  writeFileSync(binary, FAKE);
  chmodSync(binary, 0o755);
  const terraform = join(dir, "terraform");
  writeFileSync(terraform, "#!/bin/sh\nexit 0\n");
  chmodSync(terraform, 0o755);
  return { binary, logs: dir, terraform };
}

describe("the peer acceptance harness", () => {
  it("runs each test alone against a fresh emulator with a provider's environment, and tabulates what failed and why", async () => {
    const { binary, logs, terraform } = fakeBinary();
    const options = { binary, tests: ["TestAcc(One|Two)", "TestAccSkip"], terraform, timeout: "1m", logs };
    const tests = await selectTests(options);
    expect(tests).toEqual(["TestAccOne", "TestAccTwo", "TestAccSkip"]);
    await expect(selectTests({ ...options, tests: ["TestAccNone"] })).rejects.toThrow("no test of");
    const results = await runPeerTests(options, tests);
    expect(results.map((row) => [row.test, row.result])).toEqual([
      ["TestAccOne", "pass"],
      ["TestAccTwo", "fail"],
      ["TestAccSkip", "skip"],
    ]);
    // Each test had the environment, a fresh emulator (its first project is the seed's fourth), and the ignored parameter is named.
    expect(readFileSync(results[0]!.log, "utf8")).toContain(`env 1,${terraform},true version 17.11.0-ee project root/p`);
    expect(results[0]!.ignored).toEqual(["POST projects.create: not_a_parameter"]);
    expect(results[1]!.firstRefused).toEqual({
      method: "PUT",
      path: "/api/v4/projects/1/services/jira",
      status: 404,
      route: null,
      inSpec: "no",
    });
    expect(results[1]!.reason).toContain("Error: couldn't create service");
    expect(results[2]!.reason).toBe("helper_test.go:76: Test is skipped for non-Enterprise version of GitLab");
    const printed = table(results);
    expect(printed).toContain("TestAccTwo   fail    PUT /api/v4/projects/1/services/jira  404     no (not served)");
    expect(printed).toContain("3 tests: 1 pass, 1 fail, 1 skip");
  }, 60_000);

  it("takes a failing request from the log when the test's error names none, leaving out reads of what is not there", () => {
    const log = [
      { method: "GET", path: "/api/v4/", status: 404, route: null },
      { method: "GET", path: "/api/v4/projects/9", status: 404, route: "projects.get" },
      { method: "POST", path: "/api/v4/projects/4/environments", status: 404, route: null },
      { method: "POST", path: "/api/v4/groups", status: 400, route: "groups.create" },
    ];
    expect(firstRefused(log)).toEqual({ method: "POST", path: "/api/v4/projects/4/environments", status: 404, route: null, inSpec: "no" });
    expect(firstRefused(log.slice(3))?.inSpec).toBe("outside");
    expect(firstRefused([{ method: "POST", path: "/api/v4/groups/1/labels", status: 409, route: "groupLabels.create" }])?.inSpec).toBe(
      "yes",
    );
  });

  it("reads go test's verdict: a panic or a timeout without a --- line is a failure", () => {
    expect(verdict("TestX", 2, "panic: boom\n\ngoroutine 1 [running]:")).toEqual({ result: "fail", reason: "panic: boom" });
    expect(verdict("TestX", 0, "=== RUN   TestX\n--- PASS: TestX (1.00s)\nPASS")).toEqual({ result: "pass" });
  });
});

import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { parseCliArgs, runCli } from "../../emulator/cli-main";

describe("emulator CLI", () => {
  it("parses --port, --host and --state", () => {
    expect(parseCliArgs(["--port", "8080", "--state", "s.json"])).toEqual({ port: 8080, statePath: "s.json" });
    expect(parseCliArgs(["--host", "0.0.0.0"])).toEqual({ host: "0.0.0.0" });
    expect(parseCliArgs([])).toEqual({});
  });

  it("parses --rate-limit and --request-log-size", () => {
    expect(parseCliArgs(["--rate-limit", "600/60", "--request-log-size", "500"])).toEqual({
      rateLimit: { limit: 600, windowSeconds: 60 },
      requestLogSize: 500,
    });
    expect(() => parseCliArgs(["--rate-limit", "600"])).toThrow(/invalid --rate-limit 600: <requests>\/<seconds>/);
    expect(() => parseCliArgs(["--rate-limit", "5/0"])).toThrow(/invalid --rate-limit/);
    expect(() => parseCliArgs(["--request-log-size", "0"])).toThrow(/invalid --request-log-size 0/);
  });

  it("refuses bad arguments with the usage", () => {
    expect(() => parseCliArgs(["--port", "eighty"])).toThrow(/invalid --port eighty\nusage:/);
    expect(() => parseCliArgs(["--bogus"])).toThrow(/usage:/);
  });

  it("boots, prints the URL and every seeded user with role and token, and stops on SIGTERM", async () => {
    const output: string[] = [];
    const signals = new EventEmitter();
    const emulator = await runCli(["--port", "0"], { log: (text) => output.push(text), signals });
    const banner = output.join("\n");
    expect(banner).toContain(`listening on ${emulator.url}`);
    expect(banner).toMatch(/root\s+administrator\s+forge-root-token/);
    expect(banner).toMatch(/olivia\s+Owner of acme\s+forge-olivia-token/);
    expect(banner).toMatch(/gus\s+Guest of acme\s+forge-gus-token/);
    expect(banner).toMatch(/nomad\s+no membership\s+forge-nomad-token/);
    expect((await fetch(`${emulator.url}/api/v4/broadcast_messages`)).status).toBe(200);

    signals.emit("SIGTERM");
    await expect.poll(() => output.at(-1)).toBe("Forge emulator stopped.");
    await expect(fetch(`${emulator.url}/api/v4/broadcast_messages`)).rejects.toThrow();
  });
});

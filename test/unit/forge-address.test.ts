/**
 * Whether two base URLs name one forge (provider/holdings/forge-address.ts): the tools match a
 * stack's resources with the forge they list by it, so a wrong "different" would report what a
 * stack holds as unmanaged. One canonical form is "same"; another scheme, port or path is
 * "different"; two host names are "different" only when their addresses share none.
 */
import { expect, it } from "vitest";
import { compareForges } from "../../provider/holdings/forge-address";

it("takes one forge written several ways as the same: loopback names, case, default ports, trailing slashes, /api/v4", async () => {
  for (const [a, b] of [
    ["http://localhost:8080", "http://127.0.0.1:8080"],
    ["http://[::1]:8080/", "http://localhost:8080"],
    ["https://Forge.Example.com", "https://forge.example.com:443/"],
    ["https://forge.example.com/gitlab/api/v4/", "https://forge.example.com/gitlab"],
    ["http://forge.example.com.:80", "http://forge.example.com"],
  ])
    expect(await compareForges(a!, b!), `${a} ${b}`).toBe("same");
});

it("takes another scheme, port or path for another forge", async () => {
  expect(await compareForges("http://localhost:8080", "http://localhost:8081")).toBe("different");
  expect(await compareForges("http://forge.example.com", "https://forge.example.com")).toBe("different");
  expect(await compareForges("https://forge.example.com/a", "https://forge.example.com/b")).toBe("different");
});

it("is unsure of a host name it cannot look up, or of text that is no URL; sure of two addresses that differ", async () => {
  // A name that cannot be looked up (`.invalid` never resolves) may be the other's.
  expect(await compareForges("http://forge.invalid:8080", "http://127.0.0.1:8080")).toBe("unsure");
  expect(await compareForges("not a url", "http://127.0.0.1:8080")).toBe("unsure");
  expect(await compareForges("http://10.1.2.3:8080", "http://127.0.0.1:8080")).toBe("different");
});

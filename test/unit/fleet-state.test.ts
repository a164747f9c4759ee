/**
 * One stack's reading for the fleet tools (cli/fleet-state.ts): its lock first, then its state.
 * A lock that cannot be read (a PostgreSQL backend that does not answer, the optional `pg`
 * package missing) is no proof that no run is under way: the stack is partial, and what it may
 * hold gets no verdict. The CLI's export and the lock's reading are stood in for here; the real
 * ones run in test/cli (unmanaged.test.ts, locks.test.ts).
 */
import { afterEach, expect, it, vi } from "vitest";
import { readStackState } from "../../cli/fleet-state";
import { readStackLock } from "../../cli/stack-lock";

vi.mock("../../cli/stack-export", () => ({
  exportDeployment: vi.fn(async () => ({
    resources: [
      {
        urn: "urn:pulumi:prod::p::forge:index:GroupLabel::bug",
        type: "forge:index:GroupLabel",
        custom: true,
        id: "acme:1",
        outputs: { __forge: "https://forge.example" },
      },
    ],
  })),
}));
vi.mock("../../cli/stack-lock", async (original) => ({
  ...(await original<typeof import("../../cli/stack-lock")>()),
  readStackLock: vi.fn(),
}));

afterEach(() => vi.clearAllMocks());

const target = { stack: "prod", workDir: "/srv/p" };
const env = { PULUMI_BACKEND_URL: "postgres://db.example/pulumi" };

it("is partial when its lock cannot be read, naming why; read when the lock is free", async () => {
  vi.mocked(readStackLock).mockRejectedValueOnce(new Error("pulumi-forge needs the package pg"));
  const unsure = await readStackState({ ...target, stack: "org/p/prod" }, { env });
  expect(unsure.status).toBe("partial");
  expect(unsure.message).toMatch(/^its lock could not be read \(pulumi-forge needs the package pg\): a run may be making objects/);
  expect(unsure.holdings?.resources.map((holding) => holding.id)).toEqual(["acme:1"]);

  vi.mocked(readStackLock).mockResolvedValueOnce({ state: "free" });
  expect((await readStackState({ ...target, stack: "org/p/prod" }, { env })).status).toBe("read");
});

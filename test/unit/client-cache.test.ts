/** The process-wide client cache keys every setting that changes a client's behaviour. */
import { afterEach, expect, it } from "vitest";
import { clientFor, closeClients } from "../../provider/client";

afterEach(() => closeClients());

it("gives callers with different retry-wait listeners their own clients, and one listener one client", () => {
  const connection = { baseUrl: "http://127.0.0.1:9", token: "t" };
  const first = () => undefined;
  const second = () => undefined;
  expect(clientFor(connection, first)).toBe(clientFor(connection, first));
  expect(clientFor(connection, first)).not.toBe(clientFor(connection, second));
  expect(clientFor(connection)).not.toBe(clientFor(connection, first));
  expect(clientFor(connection, first)).not.toBe(clientFor({ ...connection, transport: { timeoutMs: 5 } }, first));
});

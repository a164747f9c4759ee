/** A file input's size is known where the program runs: check refuses a file the forge would, before any request. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { dynamicFaceOf } from "../../provider/runtime";

const dir = mkdtempSync(join(tmpdir(), "forge-file-limits-"));
const file = (name: string, bytes: number) => {
  const path = join(dir, name);
  writeFileSync(path, Buffer.alloc(bytes, 1));
  return path;
};

it("a GroupAvatar larger than 200 KiB fails in check with the limit and the file's size", async () => {
  process.env["FORGE_BASE_URL"] = "http://127.0.0.1:9"; // nothing listens: check must not send
  const result = await dynamicFaceOf("GroupAvatar").check({}, { group: "acme", avatar: file("big.png", 300 * 1024) });
  expect(result.failures).toEqual([
    { property: "", reason: expect.stringMatching(/^avatar: the file .*big\.png is 300 KiB; the forge takes at most 200 KiB/) },
  ]);
  const fits = await dynamicFaceOf("GroupAvatar").check({}, { group: "acme", avatar: file("fits.png", 200 * 1024) });
  expect(fits.failures ?? []).toEqual([]);
});

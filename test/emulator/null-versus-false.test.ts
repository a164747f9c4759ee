import { describe, expect, it } from "vitest";
import { z } from "zod";
import { paramBoolean, validate } from "../../emulator/core/validation";
import { useEmulator } from "./helpers";

const { api } = useEmulator();

/** The API's rule "null versus false": the service treats null as false; only true or false are to be sent. */
describe("boolean request arguments", () => {
  const schema = z.object({ flag: paramBoolean().optional() });

  it("read null as false, not as not given", () => {
    expect(validate(schema, { flag: null })).toEqual({ flag: false });
    expect(validate(z.object({ flag: paramBoolean() }), { flag: null })).toEqual({ flag: false });
  });

  it("take JSON booleans and the words true and false (query strings and forms)", () => {
    expect(validate(schema, { flag: true })).toEqual({ flag: true });
    expect(validate(schema, { flag: "false" })).toEqual({ flag: false });
    expect(validate(schema, { flag: " TRUE " })).toEqual({ flag: true });
    expect(validate(schema, {})).toEqual({});
  });

  it("refuse the other words the service's framework would take: only true or false are to be sent", () => {
    for (const word of ["1", "0", "yes", "no", "on", "off", "t", "f", "y", "n"]) {
      expect(() => validate(schema, { flag: word }), word).toThrow('{"error":"flag is invalid"}');
    }
  });

  it("clear a label's archived flag when sent as null", async () => {
    await api("POST", "/groups/acme/labels", { as: "max", json: { name: "old", color: "red", archived: true } });
    const res = await api("PUT", "/groups/acme/labels/old", { as: "max", json: { archived: null } });
    expect(res.status).toBe(200);
    expect(res.body.archived).toBe(false);
  });

  it("answer a form-encoded `yes` with 400", async () => {
    const res = await api("POST", "/groups/acme/labels", { as: "max", form: "name=x&color=red&archived=yes" });
    expect(res.status).toBe(400);
    expect(res.text).toBe('{"error":"archived is invalid"}');
  });
});

/**
 * forge-adopt's YAML scalars read back as the values they stand for: a YAML parser gives the same
 * string (with Pulumi YAML's `$${` for a literal `${`), and words YAML would take for booleans,
 * nulls or numbers stay strings.
 */
import { expect, it } from "vitest";
import { parse } from "yaml";
import { scalar } from "../../provider/adopt/render-yaml";

it.each(["acme/web", "/opt/forge/plugin", "type::bug", "yes", "No", "null", "~", "123", "1e3", "0x1F", "", " padded ", "#FF0000", "a: b", "- item", "line\nbreak", "quote \" and \\ back", "ünïcode", "[list]", "{map}", "*alias", "&anchor", "!tag", "%directive", "@at"])(
  "%j reads back as itself",
  (text) => {
    expect(parse(`value: ${scalar(text)}`)).toEqual({ value: text });
  },
);

it("doubles a literal ${, which Pulumi YAML would interpolate", () => {
  expect(parse(`value: ${scalar("cost ${x}")}`)).toEqual({ value: "cost $${x}" });
});

it("writes plain words plainly, and numbers, booleans and null as themselves", () => {
  expect(scalar("acme/platform/deployer")).toBe("acme/platform/deployer");
  expect([scalar(40), scalar(true), scalar(null)]).toEqual(["40", "true", "null"]);
});

import { describe, expect, it } from "vitest";
import { reconcile, sameValue } from "../../provider/engine/compare";
import { declarations } from "../../provider/resources";

/** The API's rule "null versus false": a server null boolean means false. */
describe("comparing booleans with the server's null", () => {
  it("takes null as false for a boolean input or output", () => {
    expect(sameValue(declarations.broadcastMessage, "dismissable", false, null)).toBe(true);
    expect(sameValue(declarations.broadcastMessage, "dismissable", null, false)).toBe(true);
    expect(sameValue(declarations.jobTokenScope, "enabled", false, null)).toBe(true);
    expect(sameValue(declarations.groupLabelSubscription, "subscribed", false, null)).toBe(true);
  });

  it("still tells true from null, and keeps the user's false in state", () => {
    expect(sameValue(declarations.broadcastMessage, "dismissable", true, null)).toBe(false);
    expect(reconcile(declarations.broadcastMessage, "dismissable", false, null)).toBe(false);
  });

  it("leaves other fields alone: null is not an empty string or zero", () => {
    expect(sameValue(declarations.groupLabel, "description", "", null)).toBe(false);
    expect(sameValue(declarations.groupLabel, "description", undefined, null)).toBe(true);
    expect(sameValue(declarations.broadcastMessage, "message", "false", null)).toBe(false);
  });
});

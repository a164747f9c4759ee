import { describe, expect, it } from "vitest";
import { deprecatedEndpointsPolicy } from "../../policies/rules/deprecations";
import { declarations } from "../../provider/resources";
import { validateResource } from "./harness";
import { policyTargets } from "../../policies/lib/define";
import { typeToken } from "../../provider/type-tokens";

describe("deprecated-endpoints", () => {
  it("points every instance cluster to cluster agents", async () => {
    const messages = await validateResource(deprecatedEndpointsPolicy, {
      declaration: declarations.instanceCluster,
      name: "production",
      props: { name: "production", platformVendorAttributes: { apiUrl: "https://k8s.example.com", token: "t" } },
    });
    expect(messages).toEqual([
      expect.stringMatching(
        /^InstanceCluster "production" rests on endpoints the forge has deprecated \(POST \/admin\/clusters\/add, .*\): certificate-based clusters are deprecated by the forge: connect clusters with cluster agents instead\./,
      ),
    ]);
  });

  it("reads deprecation from the route table: only resources on deprecated endpoints are looked at", () => {
    expect(policyTargets(deprecatedEndpointsPolicy)).toEqual([typeToken(declarations.instanceCluster)]);
  });
});

import { describe, expect, it } from "vitest";
import { instanceClusterDeprecated } from "../../policies/rules/deprecations";
import { declarations } from "../../provider/resources";
import { validateResource } from "./harness";

describe("instance-cluster-deprecated", () => {
  it("points every instance cluster to cluster agents", async () => {
    const messages = await validateResource(instanceClusterDeprecated, {
      declaration: declarations.instanceCluster,
      name: "production",
      props: { name: "production", platformVendorAttributes: { apiUrl: "https://k8s.example.com", token: "t" } },
    });
    expect(messages).toEqual([expect.stringMatching(/^InstanceCluster "production" is a certificate-based cluster, .* cluster agent/)]);
  });
});

/**
 * The policy pack's entry point: `pulumi preview --policy-pack policies`. Constructing the
 * PolicyPack starts the analyzer server, so nothing else lives here; the policies are in all.ts.
 */
import { PolicyPack } from "@pulumi/policy";
import { policies } from "./all";

new PolicyPack("forge", {
  description: "The forge API's limits (mandatory) and good practice (advisory) for pulumi-forge resources.",
  policies,
});

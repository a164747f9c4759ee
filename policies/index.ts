/**
 * The policy pack's entry point: `pulumi preview --policy-pack policies`. Constructing the
 * PolicyPack starts the analyzer server, so nothing else lives here; the policies are in all.ts.
 */
import type * as policy from "@pulumi/policy";
import { requireOptional } from "../provider/optional-package";
import { policies } from "./all";

// An optional peer dependency of pulumi-forge: without it, the pack fails saying what to install.
const { PolicyPack } = requireOptional<typeof policy>("@pulumi/policy");

new PolicyPack("forge", {
  description: "The forge API's limits (mandatory) and good practice (advisory) for pulumi-forge resources.",
  policies,
});

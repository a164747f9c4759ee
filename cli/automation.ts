/**
 * Pulumi's Automation API, loaded when a command first drives the CLI: it brings the whole SDK
 * (about half a second), which `--help` and a usage error do not need. The fleet loads it once
 * for all its stacks.
 */
export function automation(): typeof import("@pulumi/pulumi/automation") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("@pulumi/pulumi/automation") as typeof import("@pulumi/pulumi/automation");
}

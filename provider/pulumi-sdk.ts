/**
 * The Pulumi SDK's main module, loaded on first use. Loading `@pulumi/pulumi` takes about a second
 * (its whole runtime, gRPC and protobuf types); the provider plugin needs only
 * `@pulumi/pulumi/provider` to start, and reaches the SDK's log, config and outputs only when a
 * request uses them. Code that runs in a program (classes, lookups) may import it directly.
 */
export function pulumiSdk(): typeof import("@pulumi/pulumi") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
}

/**
 * Packages that one feature needs and most users do not: optional peer dependencies of
 * pulumi-forge (`pg` for the locks of a PostgreSQL backend, `@pulumi/policy` for the policy
 * pack). npm does not install them; a feature loads its package at first use, and without it
 * fails with the command that installs it.
 */

/** The optional peer dependencies, by name, with what needs each. */
export const OPTIONAL_PACKAGES = {
  pg: "reading the stack lock of a PostgreSQL backend (forge-drift, forge-recover, forge-adopt --stacks-file)",
  "@pulumi/policy": "the policy pack (pulumi preview --policy-pack node_modules/pulumi-forge/policies)",
} as const;

/** Requires `name`, or throws an error naming the feature and the package to install. */
export function requireOptional<T>(name: keyof typeof OPTIONAL_PACKAGES): T {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(name) as T;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND" && (error as Error).message.includes(`'${name}'`);
    if (!missing) throw error;
    throw new Error(
      `${OPTIONAL_PACKAGES[name]} needs the package ${name}, an optional peer dependency of pulumi-forge that is not installed: ` +
        `run \`npm install ${name}\` in the project`,
    );
  }
}

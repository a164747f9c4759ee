import type * as dynamic from "@pulumi/pulumi/dynamic";

/**
 * A dynamic provider that captures nothing but the resource's type name. Each method loads the
 * engine by package name inside its body: Pulumi serializes these functions by value, and a
 * `require` of a package is the one reference that survives serialization intact.
 */
export function serializableProvider(typeName: string): dynamic.ResourceProvider {
  return {
    async configure(req) {
      require("pulumi-forge/runtime").configure(req.config);
    },
    async check(olds, news) {
      return require("pulumi-forge/runtime").implementation(typeName).check(olds, news);
    },
    async diff(id, olds, news) {
      return require("pulumi-forge/runtime").implementation(typeName).diff(id, olds, news);
    },
    async create(inputs) {
      return require("pulumi-forge/runtime").implementation(typeName).create(inputs);
    },
    async read(id, props) {
      return require("pulumi-forge/runtime").implementation(typeName).read(id, props ?? {});
    },
    async update(id, olds, news) {
      return require("pulumi-forge/runtime").implementation(typeName).update(id, olds, news);
    },
    async delete(id, props) {
      return require("pulumi-forge/runtime").implementation(typeName).delete(id, props);
    },
  };
}

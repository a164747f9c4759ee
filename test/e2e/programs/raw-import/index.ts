/**
 * A plain `pulumi.dynamic.Resource` (not a pulumi-forge class) imported with the `import`
 * resource option: the engine's own import path, which pulumi-forge's classes avoid. The
 * test asserts how it fails.
 */
import * as pulumi from "@pulumi/pulumi";

const provider: pulumi.dynamic.ResourceProvider = {
  async create() {
    return { id: "created", outs: { value: "created" } };
  },
  async read(id, props) {
    return { id, props: { ...props, value: "read" } };
  },
};

class RawResource extends pulumi.dynamic.Resource {
  constructor(name: string, props: { value: string }, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, props, opts);
  }
}

const resource = new RawResource("raw", { value: "wanted" }, { import: "existing-object-id" });

export const rawId = resource.id;

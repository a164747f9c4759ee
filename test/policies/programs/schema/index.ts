// A label colour the forge refuses: the provider's check and the group-label-color policy both say so.
import * as forge from "pulumi-forge";

new forge.GroupLabel("bug", { group: "acme", name: "bug", color: "reddish" });

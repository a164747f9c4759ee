// An input the schemas refuse: the provider's check and forge-input-schema both report the
// schema's message. (The engine stops a preview at the first resource its check refuses: more
// cases would each be a program of their own; their messages are tested in process.)
import * as forge from "pulumi-forge";

// A label colour the forge refuses.
new forge.GroupLabel("bug", { group: "acme", name: "bug", color: "reddish" });

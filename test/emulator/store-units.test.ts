import { describe, expect, it } from "vitest";
import { seedState } from "../../emulator/admin/seed";
import { buildParams, parseUrlEncoded, splitKey } from "../../emulator/http/bracket-params";
import { normaliseColor, textColorFor } from "../../emulator/core/colors";
import { ApiError } from "../../emulator/core/errors";
import { projectSetting } from "../../emulator/core/project-settings";
import { createStore, type Store } from "../../emulator/registry";

describe("bracket notation", () => {
  it("splits keys", () => {
    expect(splitKey("a")).toEqual(["a"]);
    expect(splitKey("a[b][]")).toEqual(["a", "b", ""]);
  });

  it("builds arrays, hashes and arrays of hashes", () => {
    expect(parseUrlEncoded("a=1&b[]=x&b[]=y&c[k]=v&d[1][k]=second&d[0][k]=first")).toEqual({
      a: "1",
      b: ["x", "y"],
      c: { k: "v" },
      d: [{ k: "first" }, { k: "second" }],
    });
    expect(
      buildParams([
        ["e[][k]", "1"],
        ["e[][j]", "2"],
        ["e[][k]", "3"],
      ]),
    ).toEqual({ e: [{ k: "1", j: "2" }, { k: "3" }] });
  });
});

describe("colors", () => {
  it("keeps hex, converts CSS names, refuses the rest", () => {
    expect(normaliseColor("#abcDEF")).toBe("#abcDEF");
    expect(normaliseColor("rebeccapurple")).toBe("#663399");
    expect(normaliseColor("#abc")).toBeUndefined();
    expect(normaliseColor("notacolor")).toBeUndefined();
  });

  it("picks white text on dark colors and dark text on light ones", () => {
    expect(textColorFor("#000000")).toBe("#FFFFFF");
    expect(textColorFor("#FFFFFF")).toBe("#1F1E24");
    expect(textColorFor("#FF0000")).toBe("#FFFFFF");
    expect(textColorFor("#FFFF00")).toBe("#1F1E24");
  });
});

describe("effective access", () => {
  function storeWithPlanner(): Store {
    const store = createStore(seedState());
    store.state.groups[0]!.members.push({ user_id: 7, access_level: 15 }); // nomad as Planner of acme
    return store;
  }

  it("inherits group roles into subgroups and projects, maximum wins", () => {
    const store = createStore(seedState());
    const platform = store.groups.byRef("acme/platform")!;
    store.state.groups[1]!.members.push({ user_id: 6, access_level: 40 }); // gus: Guest in acme, Maintainer below
    expect(store.permissions.groupMemberLevel(6, platform)).toBe(40);
    expect(store.permissions.groupMemberLevel(6, store.groups.byRef("acme")!)).toBe(10);
    expect(store.permissions.projectMemberLevel(4, store.projects.byRef("acme/platform/deployer")!)).toBe(30);
  });

  it("lets a Planner manage labels (the lowest role with label administration)", () => {
    const store = storeWithPlanner();
    const nomad = store.users.byUsername("nomad")!;
    expect(store.labels.create(nomad, "acme", { name: "plan", color: "red" })).toMatchObject({ name: "plan" });
    const gus = store.users.byUsername("gus")!;
    expect(() => store.labels.create(gus, "acme", { name: "g", color: "red" })).toThrow(ApiError);
  });
});

describe("project settings", () => {
  it("reads an older state file's switch fields until a write replaces them, then only settings", () => {
    const state = seedState();
    Object.assign(state.projects[0]!, { issues_enabled: false, settings: { issues_enabled: true, wiki_enabled: false } });
    const store = createStore(state);
    const web = store.projects.byRef("acme/web")!;
    expect(store.projects.serialize(web)).toMatchObject({ issues_enabled: false, wiki_enabled: false, merge_requests_enabled: true });
    expect(projectSetting(web, "issues_enabled")).toBe(false);
    store.outsideSpec.projects.update(store.users.byUsername("root")!, "acme/web", { issues_enabled: true });
    expect(web).not.toHaveProperty("issues_enabled");
    expect(store.projects.serialize(web)).toMatchObject({ issues_enabled: true, wiki_enabled: false });
  });
});

/** GroupLabel: the colour rule of POST /groups/:id/labels (spec document 3, "Group labels"). */
import { isLabelColor } from "../../spec";
import { groupLabel } from "../../provider/resources/group-label";
import { resourcePolicy, resourceRules } from "../lib/define";
import { isKnown, show } from "../lib/values";

export const groupLabelColor = resourcePolicy({
  name: "group-label-color",
  description: "A group label's color is a 6-digit hex colour with a leading # or a CSS colour name the forge knows.",
  enforcementLevel: "mandatory",
  resources: [groupLabel],
  check({ inputs, subject, report }) {
    const color = inputs["color"];
    if (!isKnown(color)) return;
    if (typeof color !== "string") {
      report(`${subject} has color ${show(color)}, which is not a string. Give a hex colour such as "#FF0000" or a CSS colour name such as "red".`);
      return;
    }
    if (isLabelColor(color)) return;
    report(`${subject} has color ${show(color)}, which the forge does not accept. ${hint(color)}`);
  },
});

/** The likely fix of a colour the forge refuses. */
function hint(color: string): string {
  if (/^[0-9A-Fa-f]{6}$/.test(color)) return `Add the leading #: "#${color}".`;
  const short = /^#?([0-9A-Fa-f])([0-9A-Fa-f])([0-9A-Fa-f])$/.exec(color);
  if (short) {
    const [, r, g, b] = short;
    return `Write it with 6 hex digits: "#${r}${r}${g}${g}${b}${b}".`;
  }
  return 'Use a 6-digit hex colour with a leading # (such as "#FF0000") or a CSS colour name (such as "red").';
}

export const rules = resourceRules(groupLabel, {
  covers: ["color"],
  policies: [groupLabelColor],
});

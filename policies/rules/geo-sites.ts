/**
 * One primary Geo site per installation: the forge refuses a second one (`primary: node already
 * exists`), after the first site of the program exists.
 */
import { geoSite } from "../../provider/resources/geo-site";
import { stackPolicy } from "../lib/define";

export const geoSiteOnePrimary = stackPolicy({
  name: "geo-site-one-primary",
  description: "A program declares at most one primary Geo site: an installation has one.",
  enforcementLevel: "mandatory",
  resources: [geoSite],
  check({ resources, report }) {
    // Ordered by name: the engine hands resources over in no fixed order, messages must not vary.
    const primaries = resources.filter((site) => site.props["primary"] === true).sort((a, b) => a.resource.name.localeCompare(b.resource.name));
    const [first, ...extra] = primaries;
    for (const site of extra) {
      report(`${site.subject} is a primary site, and so is ${first!.subject}; an installation has one primary, and the forge refuses a second. Make one of them a secondary (primary: false).`, site.resource.urn);
    }
  },
});

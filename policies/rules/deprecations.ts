/**
 * Resources of areas the forge has deprecated: they still work, but they are on their way out,
 * and a program that adds one today adds a migration for later.
 */
import { instanceCluster } from "../../provider/resources/instance-cluster";
import { resourcePolicy } from "../lib/define";

export const instanceClusterDeprecated = resourcePolicy({
  name: "instance-cluster-deprecated",
  description: "Certificate-based instance clusters are deprecated by the forge: connect clusters with cluster agents instead.",
  enforcementLevel: "advisory",
  resources: [instanceCluster],
  config: {},
  check({ subject, report }) {
    report(
      `${subject} is a certificate-based cluster, which the forge has deprecated and will remove. Connect the cluster with a cluster agent instead (ClusterAgent and ClusterAgentToken), then delete this resource.`,
    );
  },
});

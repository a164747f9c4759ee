// The acme platform team's label, cluster agent and token, and a project member, in Go on the
// generated SDK: test/e2e/sdks.test.ts vets and builds it, and test/languages/programs.test.ts runs
// it through the Go language host against the emulator.
package main

import (
	"github.com/pulumi-forge/pulumi-forge/sdk/go/forge"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
)

const project = "acme/platform/deployer"

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		bug, err := forge.NewGroupLabel(ctx, "bug", &forge.GroupLabelArgs{
			Group:       pulumi.String("acme"),
			Name:        pulumi.String("type::bug"),
			Color:       pulumi.String("#D9534F"),
			Description: pulumi.String("Something does not work as documented"),
		})
		if err != nil {
			return err
		}
		agent, err := forge.NewClusterAgent(ctx, "prod", &forge.ClusterAgentArgs{
			Project: pulumi.String(project),
			Name:    pulumi.String("production"),
		})
		if err != nil {
			return err
		}
		token, err := forge.NewClusterAgentToken(ctx, "prod-token", &forge.ClusterAgentTokenArgs{
			Project: pulumi.String(project),
			AgentId: agent.AgentId,
			Name:    pulumi.String("primary"),
		})
		if err != nil {
			return err
		}
		// An enum of the schema; a plain value converts: forge.ProjectMemberAccessLevel(30).
		member, err := forge.NewProjectMember(ctx, "nomad", &forge.ProjectMemberArgs{
			Project:     pulumi.String(project),
			User:        pulumi.String("nomad"),
			AccessLevel: forge.ProjectMemberAccessLevelDeveloper,
		})
		if err != nil {
			return err
		}
		acme := forge.GetGroupOutput(ctx, forge.GetGroupOutputArgs{Group: pulumi.String("acme")})

		ctx.Export("labelId", bug.LabelId)
		ctx.Export("agentToken", token.Token) // a secret output
		// A lookup answers the forge's record as a map (camelCase keys, numbers as float64).
		ctx.Export("acmeId", acme.Result().ApplyT(func(record map[string]interface{}) int {
			return int(record["id"].(float64))
		}))
		ctx.Export("memberLevel", member.GrantedAccessLevel)
		return nil
	})
}

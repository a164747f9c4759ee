"""The acme platform team's label, cluster agent and token, and a project member, in Python on the
generated SDK (pulumi_forge): test/e2e/sdks.test.ts type-checks it with mypy, and
test/languages/programs.test.ts runs it through the Python language host against the emulator."""
import pulumi
import pulumi_forge as forge

PROJECT = "acme/platform/deployer"

bug = forge.GroupLabel("bug", group="acme", name="type::bug", color="#D9534F", description="Something does not work as documented")
agent = forge.ClusterAgent("prod", project=PROJECT, name="production")
token = forge.ClusterAgentToken("prod-token", project=PROJECT, agent_id=agent.agent_id, name="primary")
# An enum of the schema; a plain value converts with the enum's constructor: ProjectMemberAccessLevel(30).
member = forge.ProjectMember("nomad", project=PROJECT, user="nomad", access_level=forge.ProjectMemberAccessLevel.DEVELOPER)
acme = forge.get_group_output(group="acme")

pulumi.export("labelId", bug.label_id)
pulumi.export("agentToken", token.token)  # a secret output
# A lookup answers the forge's record as a dict (camelCase keys, numbers as floats).
pulumi.export("acmeId", acme.result.apply(lambda record: int(record["id"])))
# Pulumi's Python SDK exports an integer enum as {}: export its number.
pulumi.export("memberLevel", member.granted_access_level.apply(lambda level: None if level is None else int(level)))

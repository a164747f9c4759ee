# The generated Python SDK under the pulumi package from PyPI, with its mocks (no engine):
# test/e2e/sdks.test.ts runs it and reads what it prints. The mocks answer outputs as the engine
# does, numbers as floats on the wire: the SDK's types make them ints and enums again.
import json
import pulumi

seen = []
calls = []

# What the forge answers beyond the inputs, per type.
OUTPUTS = {
    "forge:index:GroupLabel": {"labelId": 7.0},
    "forge:index:ClusterAgent": {"agentId": 3.0, "createdByUserId": 5.0},
    "forge:index:GroupSettings": {"groupId": 12.0, "parentId": None},
    "forge:index:ProjectMember": {"grantedAccessLevel": 30.0},
}


class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        seen.append({"type": args.typ, "name": args.name, "inputs": dict(args.inputs)})
        return [args.name + "-id", {**args.inputs, **OUTPUTS.get(args.typ, {})}]

    def call(self, args):
        calls.append({"token": args.token, "args": dict(args.args)})
        return {"result": {"id": 1, "fullPath": "acme"}}


pulumi.runtime.set_mocks(Mocks(), preview=False)
import pulumi_forge as forge  # noqa: E402


def typed(value):
    return f"{type(value).__name__} {value}"


@pulumi.runtime.test
def program():
    label = forge.GroupLabel("bug", group="acme", name="type::bug", color="red")
    agent = forge.ClusterAgent("prod", project="acme/web", name="production")
    token = forge.ClusterAgentToken("token", project="acme/web", agent_id=3, name="primary")
    settings = forge.GroupSettings("settings", group="acme")
    # An enum of the schema: the SDK's named value goes to the engine as the API's number.
    member = forge.ProjectMember("jane", project="acme/web", user="jane", access_level=forge.ProjectMemberAccessLevel.MAINTAINER)
    group = forge.get_group(group="acme")

    def report(values):
        label_id, created_by, group_id, parent_id, granted = values[:5]
        print(
            json.dumps(
                {
                    "seen": seen,
                    "calls": calls,
                    "labelId": label_id,
                    "group": group.result,
                    "typed": {
                        "createdByUserId": typed(created_by),
                        "groupId": typed(group_id),
                        "parentId": typed(parent_id),
                        "grantedAccessLevel": typed(granted),
                    },
                },
                sort_keys=True,
            )
        )

    # Every resource's outputs: the report waits until the mocks have seen each registration.
    return pulumi.Output.all(
        label.label_id, agent.created_by_user_id, settings.group_id, settings.parent_id, member.granted_access_level, token.id
    ).apply(report)


program()

# The generated Python SDK under the pulumi package from PyPI, with its mocks (no engine: the
# Python language host is not served here): test/e2e/sdks.test.ts runs it and reads what it prints.
import json
import pulumi

seen = []
calls = []


class Mocks(pulumi.runtime.Mocks):
    def new_resource(self, args):
        seen.append({"type": args.typ, "name": args.name, "inputs": dict(args.inputs)})
        return [args.name + "-id", {**args.inputs, "labelId": 7}]

    def call(self, args):
        calls.append({"token": args.token, "args": dict(args.args)})
        return {"result": {"id": 1, "fullPath": "acme"}}


pulumi.runtime.set_mocks(Mocks(), preview=False)
import pulumi_forge as forge  # noqa: E402


@pulumi.runtime.test
def program():
    label = forge.GroupLabel("bug", group="acme", name="type::bug", color="red")
    token = forge.ClusterAgentToken("token", project="acme/web", agent_id=3, name="primary")
    # An enum of the schema: the SDK's named value goes to the engine as the API's number.
    member = forge.ProjectMember("jane", project="acme/web", user="jane", access_level=forge.ProjectMemberAccessLevel.MAINTAINER)
    group = forge.get_group(group="acme")

    def report(values):
        print(json.dumps({"seen": seen, "calls": calls, "labelId": values[0], "group": group.result}, sort_keys=True))

    # Every resource's id: the report waits until the mocks have seen each registration (the
    # label's output alone could resolve before the others were registered).
    return pulumi.Output.all(label.label_id, token.id, member.id).apply(report)


program()

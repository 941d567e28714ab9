/**
 * What a resource kind's frame shares across every resource of that kind in the provider host:
 * its input schema is built once, on first use, and each later check and each reading of state
 * uses that one schema instead of building its own.
 */
import { resourceFrame } from "../../provider/resources/common/pulumi/frame";
import { RESOURCES } from "../../provider/resources/registry";

it("builds each resource kind's input schema once and hands the same one to every call", () => {
  const rebuilt = RESOURCES.filter((definition) => {
    const frame = resourceFrame()(definition);
    return frame.rules.schema() !== frame.rules.schema();
  }).map((definition) => definition.type);
  expect(rebuilt).toEqual([]);
});

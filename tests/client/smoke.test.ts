import { CLIENT_LAYER } from "../../provider/client";

describe("client layer", () => {
  it("runs on a supported Node", () => {
    expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(22);
    expect(CLIENT_LAYER).toBe("arcgis-rest");
  });
});

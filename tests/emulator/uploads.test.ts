/**
 * uploads/upload refuses a file name it cannot store (a control character, NUL above all, or a
 * name too long for a file system) with code 400 naming the field, as any other bad parameter,
 * instead of failing inside the emulator.
 */
import { MAX_ITEM_NAME_BYTES } from "../../emulator/admin/site-import";
import { Harness, send, type Answer } from "../../tools/harness/emulator-http";

/** A multipart body written by hand: a client's FormData might clean the file name first. */
function multipart(fileName: string, token: string): { body: Buffer; contentType: string } {
  const boundary = "----emulator-test-boundary";
  const part = (headers: string, content: string): string =>
    `--${boundary}\r\n${headers}\r\n\r\n${content}\r\n`;
  const body =
    part('Content-Disposition: form-data; name="f"', "json") +
    part('Content-Disposition: form-data; name="token"', token) +
    part(
      `Content-Disposition: form-data; name="itemFile"; filename="${fileName}"\r\nContent-Type: application/octet-stream`,
      "not an archive",
    ) +
    `--${boundary}--\r\n`;
  return {
    body: Buffer.from(body, "utf8"),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

describe("uploads/upload and the item's file name", () => {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await Harness.start();
    await h.createSite();
    token = await h.adminToken();
  });
  afterAll(async () => {
    await h.close();
  });

  async function upload(fileName: string): Promise<Answer> {
    const { body, contentType } = multipart(fileName, token);
    return send(h.agent, "POST", `${h.emu.adminUrl}/uploads/upload`, {
      body,
      headers: { "content-type": contentType },
    });
  }

  it("answers code 400 naming the field for a NUL in the file name, and stores nothing", async () => {
    const answer = await upload("site\u0000.agssite");
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ status: "error", code: 400 });
    expect(answer.json.messages.join(" ")).toContain("'itemFile'");
    expect(answer.json.messages.join(" ")).not.toContain("\u0000");
    const items = await h.adminGet(`/uploads?f=json&token=${token}`);
    expect(items.json).toEqual({ items: [] });
  });

  it("answers code 400 for other control characters and for a name too long to store", async () => {
    for (const name of [
      "a\u0001b.agssite",
      "tab\there.agssite",
      "x".repeat(MAX_ITEM_NAME_BYTES + 1),
    ]) {
      const answer = await upload(name);
      expect(answer.json).toMatchObject({ status: "error", code: 400 });
      expect(answer.json.messages.join(" ")).toContain("'itemFile'");
    }
  });

  it("still stores an ordinary name", async () => {
    const answer = await upload("20250101-120000-UTC.agssite");
    expect(answer.json).toMatchObject({
      status: "success",
      item: { itemName: "20250101-120000-UTC.agssite" },
    });
  });
});

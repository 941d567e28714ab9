/**
 * Sending a multipart form (a file upload) to an ArcGIS REST operation with a session's token:
 * what `uploads/upload`, the keystore imports and the portal's root certificate import share.
 */
import { newFormData } from "./undici";
import { baseHeaders, sendForAnswer } from "./request";
import type { AnswerContext } from "./response";
import type { ArcGISSession } from "./session";

/**
 * One file part of a multipart form.
 *
 * @internal
 */
export interface FilePart {
  /** The content (a Blob is streamed as is, e.g. `openAsBlob(path)`). */
  content: Blob | Uint8Array | string;
  /** The file name the part carries. */
  fileName: string;
  /** Its content type; default `application/octet-stream`. */
  type?: string | undefined;
}

/**
 * POSTs a multipart form with `f=json` and the session's token as form fields (tokens go in the
 * body: URLs end up in proxy and server logs), renewing a rejected token once, and reads the
 * answer in either ArcGIS error format. Never retried otherwise: an upload or an import is not
 * sent twice. Field values are secrets when the caller lists them in `ctx.secrets`: they are
 * redacted from every error, and never put in a URL.
 *
 * @param session - the session whose token and transport are used.
 * @param url - the operation's full URL.
 * @param parts - `fields` (absent values left out) and `files`, in that order.
 * @param ctx - operation name, URL and the extra secrets for messages (the session's are added).
 * @returns the answer's JSON object.
 * @example
 * ```ts
 * await postMultipart(session, session.url("uploads/upload"), { fields: {}, files: { itemFile: { content: blob, fileName: "a.zip" } } }, ctx);
 * ```
 * Maps to: any multipart POST of the admin or portal administrative API.
 *
 * @internal
 */
export async function postMultipart(
  session: ArcGISSession,
  url: string,
  parts: {
    fields: Record<string, string | undefined>;
    files: Record<string, FilePart | (() => Promise<FilePart>)>;
  },
  ctx: AnswerContext,
): Promise<Record<string, unknown>> {
  const context = { ...ctx, secrets: [...(ctx.secrets ?? []), ...session.secrets()] };
  return session.withToken(async (token) => {
    const form = newFormData();
    for (const [name, value] of Object.entries(parts.fields)) {
      if (value !== undefined) form.set(name, value);
    }
    for (const [name, given] of Object.entries(parts.files)) {
      const file = typeof given === "function" ? await given() : given;
      const type = file.type ?? "application/octet-stream";
      const blob = file.content instanceof Blob ? file.content : new Blob([file.content], { type });
      form.set(name, blob, file.fileName);
    }
    form.set("f", "json");
    form.set("token", token);
    return sendForAnswer(
      { url, method: "POST", headers: baseHeaders(session.referer), body: form },
      session.transport,
      { ...context, secrets: [...context.secrets, token] },
    );
  });
}

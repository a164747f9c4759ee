import { utf8Text } from "./param-limits";

/** An uploaded file of a multipart body. */
interface UploadedFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

/**
 * Parses a `multipart/form-data` body into `[name, value]` pairs (text fields as strings,
 * files as {@link UploadedFile}), ready for bracket-notation assembly.
 */
export function parseMultipart(body: Buffer, contentType: string): [string, string | UploadedFile][] {
  const boundaryMatch = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const boundary = boundaryMatch?.[1] ?? boundaryMatch?.[2];
  if (!boundary) return [];
  const delimiter = Buffer.from(`--${boundary}`);
  const pairs: [string, string | UploadedFile][] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const partStart = start + delimiter.length;
    if (body.subarray(partStart, partStart + 2).toString() === "--") break;
    const end = body.indexOf(delimiter, partStart);
    if (end === -1) break;
    const part = body.subarray(partStart + 2, end - 2); // skip CRLF after delimiter and before next
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd !== -1) {
      const headers = part.subarray(0, headerEnd).toString("utf8");
      const data = part.subarray(headerEnd + 4);
      const name = /name="([^"]*)"/i.exec(headers)?.[1];
      const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
      const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1] ?? "application/octet-stream";
      if (name !== undefined) {
        pairs.push([name, filename === undefined ? utf8Text(data, name) : { filename, contentType: type, data }]);
      }
    }
    start = end;
  }
  return pairs;
}

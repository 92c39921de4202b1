import { ApiError, apiUrl, errorFrom, type QueryValue } from "./api";

/** Saves `blob` as a file the browser downloads. */
export function saveFile(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Downloads GET /v1/contacts/export for the list's query, reporting the rows received as they
 * stream (lines, less the header: a cell with a line break counts twice, which the bar can bear).
 */
export async function downloadContactsCsv(query: Record<string, QueryValue>, onRows: (rows: number) => void, signal: AbortSignal) {
  let response: Response;
  try {
    response = await fetch(apiUrl("/v1/contacts/export", query), { credentials: "same-origin", signal });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw new ApiError(0, "NETWORK_ERROR", "Could not reach the server. Check your connection and try again.");
  }
  if (!response.ok || !response.body) throw await errorFrom(response);
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let lines = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    parts.push(chunk.value);
    for (const byte of chunk.value) if (byte === 10) lines++;
    onRows(Math.max(0, lines - 1));
  }
  const filename = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? "contacts.csv";
  saveFile(new Blob(parts as BlobPart[], { type: "text/csv" }), filename);
}

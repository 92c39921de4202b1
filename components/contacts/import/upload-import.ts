import { ApiError } from "@/lib/client/api";
import type { AddressFlag, ColumnMapping, ImportContactsResult } from "@/lib/schemas/contacts";

// A multiple of 3 bytes, so the base64 pieces join into one valid string; small enough that
// String.fromCharCode never hits the engine's argument limit.
const PIECE_BYTES = 3 * 8192;

/** Base64 of the file's bytes, as pieces, yielding to the page now and then to keep it responsive. */
async function base64Pieces(file: File, onProgress: (share: number) => void): Promise<string[]> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const pieces: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += PIECE_BYTES) {
    const slice = bytes.subarray(offset, offset + PIECE_BYTES);
    pieces.push(btoa(String.fromCharCode(...slice)));
    if (pieces.length % 64 === 0) {
      onProgress(offset / bytes.length);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  onProgress(1);
  return pieces;
}

export type ImportPhase = { phase: "encoding" | "uploading"; share: number } | { phase: "processing" };

export type ImportRequest = {
  file: File;
  column_mappings: ColumnMapping[];
  handle_missing: "create" | "skip";
  segment_id?: string;
  skip_flagged: AddressFlag[];
};

function apiErrorFrom(status: number, text: string): ApiError {
  try {
    const body = JSON.parse(text) as { error?: string; code?: string; details?: { path: string; message: string }[]; message?: string; name?: string };
    if (typeof body.error === "string") return new ApiError(status, body.code ?? "ERROR", body.error, body.details ?? []);
    if (typeof body.message === "string") return new ApiError(status, body.name ?? "ERROR", body.message);
  } catch {
    // Not JSON: fall through to the status line.
  }
  return new ApiError(status, "ERROR", status === 413 ? "The file is too large to import (at most 50 MB)." : `Import failed with status ${status}`);
}

/**
 * POST /v1/contacts/import with the original file bytes as base64. The body is assembled as a
 * Blob from pieces (never one giant string) and sent with XMLHttpRequest, whose upload progress
 * fetch does not report.
 */
export async function uploadImport(request: ImportRequest, onPhase: (phase: ImportPhase) => void): Promise<ImportContactsResult> {
  const pieces = await base64Pieces(request.file, (share) => onPhase({ phase: "encoding", share }));
  const rest = JSON.stringify({
    column_mappings: request.column_mappings,
    handle_missing: request.handle_missing,
    ...(request.segment_id ? { segment_id: request.segment_id } : {}),
    ...(request.skip_flagged.length ? { skip_flagged: request.skip_flagged } : {}),
  });
  const body = new Blob(['{"file_content":"', ...pieces, '",', rest.slice(1)], { type: "application/json" });

  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/v1/contacts/import");
    xhr.setRequestHeader("Content-Type", "application/json");
    xhr.setRequestHeader("Accept", "application/json");
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onPhase({ phase: "uploading", share: event.loaded / event.total });
    };
    xhr.upload.onload = () => onPhase({ phase: "processing" });
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as ImportContactsResult);
        } catch {
          reject(new ApiError(xhr.status, "ERROR", "The server answered with something unreadable."));
        }
      } else {
        reject(apiErrorFrom(xhr.status, xhr.responseText));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, "NETWORK_ERROR", "Could not reach the server. Check your connection and try again."));
    xhr.send(body);
  });
}

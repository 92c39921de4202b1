"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiCall } from "@/lib/client/api";
import { queryKeys } from "@/lib/client/query-keys";
import type { MediaRecord } from "@/lib/schemas/media";
import { imageFileProblem } from "@/lib/schemas/media-limits";

export type Media = MediaRecord;

/** The most recent images of the media library (a picker shows the last 100). */
export function useMediaLibrary(enabled = true) {
  return useQuery({
    queryKey: queryKeys.media.options(),
    queryFn: async () => (await apiCall("GET /v1/media", { query: { limit: 100 } })).data,
    enabled,
  });
}

/** The file as base64, for the JSON form of POST /v1/media (apiCall speaks JSON). */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read"));
    reader.readAsDataURL(file);
  });
}

/** Uploads one image into the library (a file too large or of another type is refused here first); the server checks its type and size again and answers its URL. */
export function useUploadMedia() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      const problem = imageFileProblem(file);
      if (problem) throw new Error(problem);
      return apiCall("POST /v1/media", { body: { filename: file.name, content: await base64Of(file) } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.media.all() }),
  });
}

export function useDeleteMedia() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiCall("DELETE /v1/media/{id}", { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.media.all() }),
  });
}

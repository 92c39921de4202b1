"use client";

import { useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { useCallback } from "react";

/**
 * After the organization cookie changed: drop every cached answer of the old organization, leave
 * detail pages (their ids belong to the old one) for their list, and re-render the server layout.
 */
export function useAfterOrganizationChange() {
  const queryClient = useQueryClient();
  const router = useRouter();
  const pathname = usePathname();
  return useCallback(async () => {
    const section = pathname.split("/").filter(Boolean)[0];
    const list = section ? `/${section}` : "/";
    if (pathname !== list) router.push(list);
    router.refresh();
    await queryClient.resetQueries();
  }, [pathname, queryClient, router]);
}

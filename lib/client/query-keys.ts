/**
 * Every react-query key of the dashboard's report screens, from one factory: a key names one
 * resource in one shape (the API's), so two screens can never cache different shapes under it.
 * Keys nest, so invalidating `broadcasts.detail(id)` also refreshes its report and recipient lists.
 */
export const queryKeys = {
  broadcasts: {
    all: ["broadcasts"] as const,
    detail: (id: string) => ["broadcasts", id] as const,
    report: (id: string) => ["broadcasts", id, "report"] as const,
    recipients: (id: string, filter: { event: string; position?: number }) => ["broadcasts", id, "recipients", filter] as const,
  },
  segments: {
    all: ["segments"] as const,
  },
  reports: {
    overview: ["reports", "overview"] as const,
    broadcastAverage: ["reports", "broadcast-average"] as const,
  },
};

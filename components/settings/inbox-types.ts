type Connection = { host: string; port: number; secure: boolean; username: string | null; has_password: boolean };

export type Inbox = {
  id: string;
  name: string;
  from_email: string;
  from_name: string | null;
  reply_to: string | null;
  daily_limit: number;
  paused: boolean;
  last_error: string | null;
  verification: {
    status: "verified" | "pending" | "unverified";
    method: "domain" | "confirmation" | null;
    confirmed_at: string | null;
    confirmation_sent_at: string | null;
    confirmation_expires_at: string | null;
  };
  smtp: Connection;
  imap: Connection | null;
  created_at: string;
};

export const inboxesKey = ["inboxes"] as const;

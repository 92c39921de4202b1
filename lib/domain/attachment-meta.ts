/** What the Email record says of an attachment (`attachments`); the engine builds its MIME part from it. */
export type AttachmentMeta = { filename: string; content_type: string; size: number; content_id: string | null };

/** The reply textarea's id in a thread's draft card, which the unified inbox's `r` key focuses (apart, so the inbox need not load the card's forms). */
export const replyFieldId = (threadId: string) => `reply-${threadId}`;

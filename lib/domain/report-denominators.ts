/**
 * The emails each rate of a report is a fraction of, as SQL conditions on a row of `emails` (its
 * columns prefixed with `e`, such as "e." or ""), shared by the broadcast report, the overview,
 * the average and the A/B test's choice of a winner (lib/sending/ab-split.ts) so that they agree. A rate counts only the emails whose outcome could be seen: a
 * rate over emails that could never show it would be a 0 % nobody measured.
 *
 * - Delivery: a delivery report (DSN) was asked of a relay that offers DSN. Mail sent before that
 *   was noted (`dsn_requested` null) goes by its path: relay mail could report, an inbox's never.
 *   An email reported delivered could, whatever was noted.
 * - Opens and clicks: the receiving server accepted the email (one refused at the door can be
 *   neither opened nor clicked) and its HTML carried the open pixel, or a link through a click
 *   redirect. Mail sent before that was noted (null) counts, as reports counted it then.
 */
export const denominatorSql = (e: string) => ({
  delivery: `(${e}delivered_at IS NOT NULL OR coalesce(${e}dsn_requested, ${e}sent_at IS NOT NULL AND ${e}inbox_id IS NULL))`,
  opens: `(${e}sent_at IS NOT NULL AND (${e}opens_tracked IS NOT FALSE OR ${e}opened_at IS NOT NULL))`,
  clicks: `(${e}sent_at IS NOT NULL AND (${e}clicks_tracked IS NOT FALSE OR ${e}clicked_at IS NOT NULL))`,
});

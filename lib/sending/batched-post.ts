import type { TransferListItem } from "node:worker_threads";

type Target = { postMessage: (value: unknown, transferList?: readonly TransferListItem[]) => void };

/**
 * Posts everything queued during one turn of the event loop as one message (an array). Each
 * message wakes the other thread, which cost tens of microseconds on these machines: the relay's
 * jobs start and its replies arrive several per turn, so one message per email was most of what
 * the thread's conversations cost beyond SMTP itself.
 */
export function batchedPost<T>(target: Target): (item: T, transfer?: TransferListItem) => void {
  let items: T[] = [];
  let transfers: TransferListItem[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const [batch, owned] = [items, transfers];
    items = [];
    transfers = [];
    target.postMessage(batch, owned);
  };
  return (item, transfer) => {
    items.push(item);
    if (transfer) transfers.push(transfer);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
}

/** When and how often a request is tried again. */
export type RetryOptions = {
  /** Attempts after the first (default 3): a request is sent at most `maxRetries + 1` times. */
  maxRetries?: number;
  /** The first backoff in milliseconds when the server gives no `Retry-After` (default 500); it doubles per retry. */
  baseDelayMs?: number;
  /** The longest backoff, and the longest `Retry-After` the client waits for (default 60 000): a longer wait is the caller's decision. */
  maxDelayMs?: number;
  /** Waits; replaceable so tests (and callers with their own scheduler) decide how time passes. */
  sleep?: (ms: number, signal?: AbortSignal | null) => Promise<void>;
  /** A number in [0, 1): the jitter. */
  random?: () => number;
};

// Safe to send twice whatever happened to the first: the method says so, or an Idempotency-Key does.
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

function defaultSleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * A fetch that tries again when trying again can help and cannot hurt:
 * - 429 and 503 always: the server refused before doing anything (rate limits, the database briefly
 *   away) and says when to come back (`Retry-After`);
 * - other 5xx answers and network failures only for a request that is safe to repeat (GET, PUT,
 *   DELETE, or one carrying an `Idempotency-Key`): a POST that failed halfway may have happened.
 * Waits are `Retry-After` when the server gives it, otherwise exponential backoff with jitter
 * (half fixed, half random, so clients that failed together do not come back together).
 */
export function retryingFetch(fetchImpl: (request: Request) => Promise<Response>, options: RetryOptions = {}) {
  const { maxRetries = 3, baseDelayMs = 500, maxDelayMs = 60_000, sleep = defaultSleep, random = Math.random } = options;
  const backoff = (retry: number) => {
    const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** retry);
    return Math.round(ceiling / 2 + (random() * ceiling) / 2);
  };

  return async function fetchWithRetries(request: Request): Promise<Response> {
    const repeatable = IDEMPOTENT_METHODS.has(request.method) || request.headers.has("idempotency-key");
    for (let retry = 0; ; retry++) {
      // The body of a Request can be read once: each attempt sends a copy.
      const attempt = retry < maxRetries ? request.clone() : request;
      let response: Response;
      try {
        response = await fetchImpl(attempt);
      } catch (error) {
        if (retry >= maxRetries || !repeatable || request.signal?.aborted) throw error;
        await sleep(backoff(retry), request.signal);
        continue;
      }
      const status = response.status;
      const retryable = status === 429 || status === 503 || (status >= 500 && repeatable);
      if (!retryable || retry >= maxRetries) return response;
      const asked = retryAfterMs(response.headers.get("retry-after"));
      if (asked !== null && asked > maxDelayMs) return response;
      // The answer is not read: release its connection before waiting.
      await response.body?.cancel().catch(() => undefined);
      await sleep(asked ?? backoff(retry), request.signal);
    }
  };
}

/**
 * The engine's sense of time where a test must control it: when a windowed email is due, when an
 * out-of-office hold ends, when the sender claims and records. Production passes nothing and gets
 * the system clock; a test passes a clock it moves itself (lib/testing/manual-clock.ts), so a
 * weekend is tested by moving the clock to Monday, not by sleeping. The same shape as the
 * automations engine's clock (wt/automations: lib/automations/clock.ts), which can re-export this.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

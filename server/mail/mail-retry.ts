/**
 * The wait after a buyer's e-mail was refused for the n-th time: graphile-worker's own back-off (exp(n) s, capped
 * at n = 10), which mail_send used when it retried one job per document, so MAIL_ATTEMPTS keeps its span.
 */
export const mailRetryDelayMs = (attempt: number): number => Math.round(Math.exp(Math.min(attempt, 10)) * 1000);

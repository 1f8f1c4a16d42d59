/**
 * The delivery log's failure texts, written here and only here: English as the API's delivery list shows them
 * (technical, with the address or code that says what happened), and a kind the dashboard says in the reader's
 * language beside them. Pure: the dashboard imports it.
 */
const REFUSED = 'refused: ';
const TIMED_OUT = 'timed out after ';
const ANSWERED = 'answered ';

export const deliveryFailure = {
  invalidUrl: () => `${REFUSED}the endpoint URL is not valid`,
  liveHttps: () => `${REFUSED}live-mode endpoints must use https`,
  notPublic: (host: string) => `${REFUSED}${host} is not a public address`,
  resolvesPrivate: (host: string, address: string) => `${REFUSED}${host} resolves to ${address}, not a public address`,
  timedOut: (ms: number, readingAnswer: boolean) => `${TIMED_OUT}${ms} ms${readingAnswer ? ' reading the answer' : ''}`,
  redirect: (location: string | undefined) => `redirect to ${location ?? '(no Location)'} not followed`,
  answered: (status: number) => `${ANSWERED}${status}`,
  network: (code: string | undefined, message: string) => (code ? `${code}: ${message}` : message),
};

export type DeliveryFailureKind = 'refused' | 'timed_out' | 'redirect' | 'answered' | 'unreachable';

/** Which kind a stored failure text is; anything not written by the other builders is the network failing. */
export function deliveryFailureKind(error: string): DeliveryFailureKind {
  if (error.startsWith(REFUSED)) return 'refused';
  if (error.startsWith(TIMED_OUT)) return 'timed_out';
  if (error.startsWith('redirect to ')) return 'redirect';
  if (error.startsWith(ANSWERED)) return 'answered';
  return 'unreachable';
}

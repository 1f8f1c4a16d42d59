/**
 * The stored ksef_check_error texts the service writes itself (English, as /v1/account shows them); the dashboard
 * reads which kind an error is and shows it in the reader's language.
 */
export const NOT_CONNECTED = 'not connected';
/** ksef_check_error between a save and its check: not a failure (server/attention leaves it out). */
export const NOT_CHECKED_YET = 'not checked yet';
const NO_ANSWER = 'KSeF did not answer: ';

export const noAnswer = (why: string): string => `${NO_ANSWER}${why}`;

export type CheckErrorKind = 'not_connected' | 'not_checked' | 'unavailable' | 'refused';

/** Any other text is KSeF refusing the credential (access-token.ts: CredentialRefusedError). */
export function checkErrorKind(error: string): CheckErrorKind {
  if (error === NOT_CONNECTED) return 'not_connected';
  if (error === NOT_CHECKED_YET) return 'not_checked';
  return error.startsWith(NO_ANSWER) ? 'unavailable' : 'refused';
}

/**
 * Finer causes of dashboard-facing errors, with the English message each one gives; `{name}` is filled from the
 * error's params. Pure (no imports): the English dashboard shows these texts as they are, the Polish one translates them (app/i18n).
 */
export const ERROR_DETAILS = {
  url_not_absolute: '`url` must be an absolute URL.',
  url_live_https: 'Live-mode endpoints must use https.',
  url_scheme: '`url` must use http or https.',
  url_credentials: '`url` must not contain credentials.',
  url_not_public_live: 'The host {host} resolves to {address}, which is not a public address: live mode reaches public addresses only.',
  url_not_public_test:
    'The host {host} resolves to {address}, which is not a public address: test mode reaches private addresses only where the operator sets ALLOW_PRIVATE_TARGETS=1 (`npm start` and `npm run dev` do).',
  endpoint_disabled: 'The webhook endpoint is disabled.',
  endpoint_not_subscribed: 'The webhook endpoint is not subscribed to {type}.',
  email_taken: 'An account with this e-mail already exists.',
  email_taken_sign_in: 'A user with this e-mail already exists: sign in to accept.',
  offline_delay_range: 'The delay must be {min}–{max} seconds.',
  offline_certificate_missing: 'Offline issuing cannot be turned on: No KSeF Offline certificate: upload one or enrol one through KSeF.',
  offline_certificate_expired: 'Offline issuing cannot be turned on: The Offline certificate {serial} expired on {date}.',
  offline_certificate_not_yet_valid: 'Offline issuing cannot be turned on: The Offline certificate {serial} is valid only from {date}.',
  certificate_unreadable: 'The certificate is not a readable X.509 certificate.',
  private_key_mismatch: 'The private key does not belong to the certificate.',
  private_key_unreadable: 'The private key cannot be read (wrong format or password).',
  certificate_expired: 'The certificate expired on {date}.',
  certificate_not_yet_valid: 'The certificate is valid only from {date}.',
  p12_unreadable: 'The .p12/.pfx file cannot be opened: wrong password or not a PKCS#12 file.',
  p12_without_key: 'The .p12/.pfx file has no certificate with a private key.',
  offline_key_type: 'A KSeF Offline certificate has an RSA (2048-bit) or EC P-256 key.',
  offline_serial: 'The serial number {serial} is not a KSeF certificate serial (16 hex digits).',
  offline_key_usage: 'This is not a KSeF certificate of type Offline (Key Usage Non-Repudiation); an Authentication certificate cannot sign KOD II.',
  enrol_needs_connection: 'Connect KSeF first (with a certificate): enrolment goes through your KSeF login.',
  enrol_needs_certificate:
    'KSeF issues certificates only to a login signed with a qualified certificate or seal (XAdES); a KSeF-token connection cannot enrol. Connect KSeF with your certificate, or upload an Offline certificate you already have.',
  enrol_not_under_way: 'No enrolment is under way.',
  enrol_not_returned: 'KSeF did not return certificate {serial}.',
  enrol_refused: 'KSeF refused the enrolment: {reason}',
  enrol_login_refused: 'KSeF refused the login: {reason}',
  enrol_no_answer: 'KSeF did not answer ({reason}); try again later.',
  emulator_not_running: 'The KSeF emulator is not running.',
  emulator_needs_nip: 'Set the seller NIP first: the emulator issues credentials for that NIP.',
  emulator_no_answer: 'No KSeF emulator answered at {url} ({reason}).',
} as const satisfies Record<string, string>;

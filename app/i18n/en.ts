import type { Dictionary } from './pl';

/** English UI text; Polish invoice terms are kept where a merchant meets them on the document itself. */
export const en: Dictionary = {
  lang: 'en',
  brand: 'KSeF Relay',
  nav: { overview: 'Overview', invoices: 'Invoices', seller: 'Seller data', ksef: 'KSeF connection', webhooks: 'Webhooks', apiKeys: 'API keys', events: 'Events', main: 'Main menu' },
  mode: { label: 'Mode', test: 'Test', live: 'Live', earlyAccessTitle: 'Live mode: early access', earlyAccess: 'Live mode is not enabled for this account yet. Write to us to join early access; until then, use test mode.' },
  language: 'Language',
  signOut: 'Sign out',
  common: { save: 'Save', saving: 'Saving…', saved: 'Saved.', loading: 'Loading…', cancel: 'Cancel', delete: 'Delete', copy: 'Copy', copied: 'Copied', none: 'None', yes: 'yes', no: 'no', previous: 'Previous', next: 'Next', page: 'Page', of: 'of', error: 'Error', required: 'This field is required.', showOnce: 'Store it now: it will not be shown again.', close: 'Close' },
  auth: {
    signInTitle: 'Sign in', signUpTitle: 'Create an account', email: 'E-mail', password: 'Password', passwordHint: 'At least 10 characters.',
    signIn: 'Sign in', signUp: 'Sign up', noAccount: 'No account yet?', haveAccount: 'Already have an account?', badCredentials: 'Wrong e-mail or password.',
    createdTitle: 'Account created', testKeyIntro: 'Your test API key:', continue: 'Go to the dashboard', emailTaken: 'An account with this e-mail already exists.', emailInvalid: 'Enter a valid e-mail address.', passwordShort: 'The password needs at least 10 characters.',
  },
  status: { pending: 'Pending', queued: 'Queued', sending: 'Sending', accepted: 'Accepted', rejected: 'Rejected', skipped: 'Skipped', waiting_for_plan_limit: 'Plan limit', error: 'Error' },
  payment: { card: 'card', transfer: 'bank transfer', cash: 'cash', mobile: 'mobile payment' },
  mail: { not_needed: 'not needed', pending: 'queued', sent: 'sent', failed: 'failed' },
  plan: { Unlimited: 'Unlimited' },
  kind: { invoice: 'Invoice', correction: 'Correction (KOR)' },
  overview: {
    title: 'Overview', checklist: 'Getting started', plan: 'Plan', issuedThisMonth: 'Invoices this month', unlimited: 'unlimited', counts: 'Documents by status',
    chart: 'Documents per day (last 30 days)', chartDesc: 'Bar chart of the documents created each day, by status.',
    sending: 'Sending to KSeF', queueDepth: 'Waiting to be sent', environment: 'KSeF environment', connection: 'Connection', connected: 'connected', notConnected: 'not connected',
    requests: 'Requests against KSeF limits', retryAfter: 'Retry-After block', sendingMode: 'Sending method', batch: 'batch (batch session)', noRequests: 'no requests this hour', none: 'none', interactive: 'interactive (online session)',
    steps: { seller: 'Enter the seller data', ksef: 'Connect to KSeF', api_key: 'Call the API with your key', first_invoice: 'Issue the first invoice', webhook: 'Add a webhook endpoint' },
    done: 'done', todo: 'to do',
  },
  seller: {
    title: 'Seller data', intro: 'This goes into the seller section (Sprzedawca, Podmiot1) of every invoice in this mode.', nip: 'NIP (tax number)', name: 'Name', address1: 'Address (street and number)', address2: 'Address (postal code and city)',
    nipInvalid: 'The NIP fails its checksum.', nipOk: 'The NIP is valid.', configured: 'The seller data is complete.', notConfigured: 'The seller data is incomplete: documents will be skipped.',
  },
  ksef: {
    title: 'KSeF connection', environment: 'Environment', env: { test: 'test', demo: 'demo (pre-production)', prod: 'production' }, state: 'State', connected: 'Connected to KSeF', lastCheck: 'Last check', credential: 'Credential', credentialKind: { token: 'KSeF token', certificate: 'certificate' },
    tokenTitle: 'KSeF token', token: 'KSeF token', saveToken: 'Save token', certTitle: 'Certificate', certFormat: 'Format', p12: '.p12 / .pfx file', pem: 'PEM certificate and key', p12File: '.p12 / .pfx file', p12Password: 'File password', certFile: 'Certificate (.pem / .crt)', keyFile: 'Private key (.pem / .key)', keyPassword: 'Key password (if any)', saveCert: 'Save certificate',
    test: 'Test connection', testing: 'Connecting to KSeF…', testOk: 'KSeF authentication succeeded.', emulatorTitle: 'KSeF emulator', emulatorIntro: 'In test mode with the local emulator you can create test credentials for the seller NIP.', emulatorButton: 'Create test credentials', needSeller: 'Enter the seller NIP first.', stored: 'Credentials are stored encrypted. Documents waiting for credentials are sent after a successful save.',
  },
  invoices: {
    title: 'Invoices', filterStatus: 'Status', all: 'All', search: 'Search', searchHint: 'Order ID, number, buyer NIP or KSeF number', empty: 'No documents.', live: 'Live refresh: documents in flight.',
    cols: { kind: 'Kind', number: 'Number', order: 'Order', buyerNip: 'Buyer NIP', date: 'Issue date', total: 'Gross total', status: 'Status', ksef: 'KSeF number' },
    count: 'documents',
  },
  detail: {
    back: 'Back to invoices', number: 'Number', ksefNumber: 'KSeF number', status: 'Status', environment: 'KSeF environment', issueDate: 'Issue date', currency: 'Currency', totalGross: 'Gross total', buyer: 'Buyer (Nabywca)', seller: 'Seller (Sprzedawca)', order: 'Order', orderNumber: 'Order number', paidAt: 'Paid at', payment: 'Payment method', lastError: 'Last error', mail: 'E-mail to the buyer', rate: 'NBP rate', invoice: 'Corrected invoice', refund: 'Refund', reason: 'Reason for correction',
    lines: 'Lines', lineName: 'Name', sku: 'SKU', qty: 'Quantity', unitPrice: 'Unit price (gross)', discount: 'Discount', gross: 'Gross amount', vat: 'VAT rate', shipping: 'Shipping',
    timeline: 'Status timeline', files: 'Files', pdf: 'Download PDF', xml: 'Download XML', upo: 'Download UPO', preview: 'PDF preview', pdfPending: 'The PDF is available once KSeF accepts the document.',
    corrections: 'Corrections', noCorrections: 'No corrections.', events: 'Events', noEvents: 'No events.', deliveries: 'Webhook deliveries', noDeliveries: 'No deliveries.',
    correctionTitle: 'Create a correction', refundId: 'Refund ID', returnQty: 'Quantity returned', refundShipping: 'Shipping refunded', create: 'Create correction', correctionCreated: 'Correction created.', nothingToReturn: 'Choose at least one line or a shipping refund.', max: 'max.',
  },
  webhooks: {
    title: 'Webhooks', url: 'URL', events: 'Events', description: 'Description', add: 'Add endpoint', created: 'Endpoint added. Signing secret:', empty: 'No endpoints.', allEvents: 'All events (*)', deliveryLog: 'Delivery log', confirmDelete: 'Delete this endpoint?',
    cols: { at: 'Time', event: 'Event', attempt: 'Attempt', status: 'Response', duration: 'Duration', result: 'Result', next: 'Next attempt' }, delivered: 'delivered', failed: 'failed', resend: 'Resend', resent: 'Resend scheduled (attempt {n}).', request: 'Request', response: 'Response', back: 'Back to webhooks', pickEvent: 'Choose at least one event.',
  },
  apiKeys: { title: 'API keys', prefix: 'Prefix', mode: 'Mode', created: 'Created', lastUsed: 'Last used', never: 'never', create: 'Create key', revoke: 'Revoke', newKey: 'New API key:', confirmRevoke: 'Revoke this key? Integrations using it will stop working.' },
  events: { title: 'Events', type: 'Type', all: 'All', empty: 'No events.', payload: 'Payload (JSON)', created: 'Created', document: 'Document', more: 'Older' },
};

import type { Page } from '@playwright/test';

/** Locators of the dashboard (Polish UI, the default), by role and label as a person finds them. */
export class DashboardPage {
  constructor(private readonly page: Page) {}
  nav = (name: string) => this.page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name });
  heading = (name: string | RegExp) => this.page.getByRole('heading', { level: 1, name });
  checklist = () => this.page.getByRole('list', { name: 'Pierwsze kroki' }).getByRole('listitem');
  secret = () => this.page.getByTestId('secret-value');
  signOut = () => this.page.getByRole('button', { name: 'Wyloguj' });
  language = () => this.page.getByRole('combobox', { name: /Język|Language/ });
}

export class AuthPage {
  constructor(private readonly page: Page) {}
  email = () => this.page.getByLabel('E-mail');
  password = () => this.page.getByLabel('Hasło');
  signUp = () => this.page.getByRole('button', { name: 'Załóż konto' });
  signIn = () => this.page.getByRole('button', { name: 'Zaloguj się' });
  continue = () => this.page.getByRole('button', { name: 'Przejdź do panelu' });
}

export class SellerPage {
  constructor(private readonly page: Page) {}
  nip = () => this.page.getByLabel('NIP');
  name = () => this.page.getByLabel('Nazwa');
  address1 = () => this.page.getByLabel('Adres (ulica i numer)');
  address2 = () => this.page.getByLabel('Adres (kod pocztowy i miejscowość)');
  save = () => this.page.getByRole('button', { name: 'Zapisz' });
  state = () => this.page.getByTestId('seller-state');
}

export class KsefPage {
  constructor(private readonly page: Page) {}
  createTestCredentials = () => this.page.getByRole('button', { name: 'Utwórz testowe poświadczenia' });
  testConnection = () => this.page.getByRole('button', { name: 'Testuj połączenie' });
  state = () => this.page.getByTestId('ksef-state');
}

export class InvoicesPage {
  constructor(private readonly page: Page) {}
  table = () => this.page.getByRole('table', { name: 'Faktury' });
  row = (text: string) => this.table().getByRole('row').filter({ hasText: text });
  search = () => this.page.getByRole('searchbox', { name: 'Szukaj' });
  statusFilter = () => this.page.getByLabel('Status');
  timeline = () => this.page.getByRole('list', { name: 'Historia dokumentu' }).getByRole('listitem');
  /** The timeline's status changes, without the PDF, e-mail and webhook steps that arrive after them. */
  statusSteps = () => this.timeline().and(this.page.locator('[data-kind="status"]'));
  ksefNumber = () => this.page.getByTestId('ksef-number');
  number = () => this.page.getByTestId('document-number');
  pdfLink = () => this.page.getByRole('link', { name: 'Pobierz PDF' });
  xmlLink = () => this.page.getByRole('link', { name: 'Pobierz XML' });
  upoLink = () => this.page.getByRole('link', { name: 'Pobierz UPO' });
  corrections = () => this.page.getByRole('list', { name: 'Korekty' }).getByRole('listitem');
  returnQuantity = (lineName: string) => this.page.getByLabel(`Zwracana ilość: ${lineName}`);
  createCorrection = () => this.page.getByRole('button', { name: 'Wystaw korektę' });
}

export class WebhooksPage {
  constructor(private readonly page: Page) {}
  url = () => this.page.getByLabel('Adres URL');
  add = () => this.page.getByRole('button', { name: 'Dodaj endpoint' });
  endpoint = (url: string) => this.page.getByRole('link', { name: url });
  deliveries = () => this.page.getByRole('table', { name: 'Dziennik dostarczeń' }).getByRole('row');
  resend = () => this.page.getByRole('button', { name: 'Wyślij ponownie' });
}

export class StorePage {
  constructor(private readonly page: Page) {}
  url = () => this.page.getByLabel('Adres sklepu');
  consumerKey = () => this.page.getByLabel('Klucz klienta (consumer key)');
  consumerSecret = () => this.page.getByLabel('Sekret klienta (consumer secret)');
  connect = () => this.page.getByRole('button', { name: 'Połącz sklep' });
  webhooks = () => this.page.getByRole('table', { name: 'Webhooki w sklepie' }).getByRole('row');
  storeUrl = () => this.page.getByTestId('store-url');
  lastEvent = () => this.page.getByTestId('store-last-event');
  skippedCounts = () => this.page.getByTestId('store-skipped-counts');
}

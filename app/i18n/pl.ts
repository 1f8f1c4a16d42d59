/** Polish UI text (default); en.ts has the same shape. Invoice vocabulary follows the FA(3) visualisation. */
export const pl = {
  lang: 'pl',
  brand: 'KSeF Relay',
  nav: { overview: 'Przegląd', invoices: 'Faktury', seller: 'Dane sprzedawcy', ksef: 'Połączenie z KSeF', webhooks: 'Webhooki', apiKeys: 'Klucze API', events: 'Zdarzenia', main: 'Menu główne' },
  mode: { label: 'Tryb', test: 'Testowy', live: 'Produkcyjny', earlyAccessTitle: 'Tryb produkcyjny: wczesny dostęp', earlyAccess: 'Tryb produkcyjny nie jest jeszcze włączony dla tego konta. Napisz do nas, aby dołączyć do wczesnego dostępu; do tego czasu korzystaj z trybu testowego.' },
  language: 'Język',
  signOut: 'Wyloguj',
  common: { save: 'Zapisz', saving: 'Zapisywanie…', saved: 'Zapisano.', loading: 'Wczytywanie…', cancel: 'Anuluj', delete: 'Usuń', copy: 'Kopiuj', copied: 'Skopiowano', none: 'Brak', yes: 'tak', no: 'nie', previous: 'Poprzednia', next: 'Następna', page: 'Strona', of: 'z', error: 'Błąd', required: 'To pole jest wymagane.', showOnce: 'Zapisz go teraz: nie pokażemy go ponownie.', close: 'Zamknij' },
  auth: {
    signInTitle: 'Zaloguj się', signUpTitle: 'Załóż konto', email: 'E-mail', password: 'Hasło', passwordHint: 'Co najmniej 10 znaków.',
    signIn: 'Zaloguj się', signUp: 'Załóż konto', noAccount: 'Nie masz konta?', haveAccount: 'Masz już konto?', badCredentials: 'Nieprawidłowy e-mail lub hasło.',
    createdTitle: 'Konto założone', testKeyIntro: 'Twój testowy klucz API:', continue: 'Przejdź do panelu', emailTaken: 'Konto z tym adresem e-mail już istnieje.', emailInvalid: 'Podaj poprawny adres e-mail.', passwordShort: 'Hasło musi mieć co najmniej 10 znaków.',
  },
  status: { pending: 'Oczekuje', queued: 'W kolejce', sending: 'Wysyłanie', accepted: 'Zaakceptowana', rejected: 'Odrzucona', skipped: 'Pominięta', waiting_for_plan_limit: 'Limit planu', error: 'Błąd' },
  payment: { card: 'karta płatnicza', transfer: 'przelew', cash: 'gotówka', mobile: 'płatność mobilna' },
  mail: { not_needed: 'nie dotyczy', pending: 'w kolejce', sent: 'wysłany', failed: 'nieudany' },
  plan: { Unlimited: 'bez limitu' } as Record<string, string>,
  kind: { invoice: 'Faktura', correction: 'Korekta' },
  overview: {
    title: 'Przegląd', checklist: 'Pierwsze kroki', plan: 'Plan', issuedThisMonth: 'Faktury w tym miesiącu', unlimited: 'bez limitu', counts: 'Dokumenty według statusu',
    chart: 'Dokumenty dziennie (ostatnie 30 dni)', chartDesc: 'Wykres słupkowy liczby dokumentów utworzonych każdego dnia, według statusu.',
    sending: 'Wysyłka do KSeF', queueDepth: 'W kolejce do wysłania', environment: 'Środowisko KSeF', connection: 'Połączenie', connected: 'połączono', notConnected: 'brak połączenia',
    requests: 'Zapytania do KSeF względem limitów', retryAfter: 'Blokada Retry-After', sendingMode: 'Sposób wysyłki', batch: 'wsadowa (sesja wsadowa)', noRequests: 'w tej godzinie brak zapytań', none: 'brak', interactive: 'interaktywna (sesja online)',
    steps: { seller: 'Uzupełnij dane sprzedawcy', ksef: 'Połącz z KSeF', api_key: 'Wywołaj API swoim kluczem', first_invoice: 'Wystaw pierwszą fakturę', webhook: 'Dodaj webhook' },
    done: 'gotowe', todo: 'do zrobienia',
  },
  seller: {
    title: 'Dane sprzedawcy', intro: 'Te dane trafiają do sekcji Sprzedawca (Podmiot1) każdej faktury w tym trybie.', nip: 'NIP', name: 'Nazwa', address1: 'Adres (ulica i numer)', address2: 'Adres (kod pocztowy i miejscowość)',
    nipInvalid: 'NIP ma niepoprawną sumę kontrolną.', nipOk: 'NIP poprawny.', configured: 'Dane sprzedawcy są kompletne.', notConfigured: 'Dane sprzedawcy są niekompletne: dokumenty zostaną pominięte.',
  },
  ksef: {
    title: 'Połączenie z KSeF', environment: 'Środowisko', env: { test: 'testowe', demo: 'przedprodukcyjne', prod: 'produkcyjne' }, state: 'Stan', connected: 'Połączono z KSeF', lastCheck: 'Ostatni test', credential: 'Poświadczenie', credentialKind: { token: 'token KSeF', certificate: 'certyfikat' },
    tokenTitle: 'Token KSeF', token: 'Token KSeF', saveToken: 'Zapisz token', certTitle: 'Certyfikat', certFormat: 'Format', p12: 'Plik .p12 / .pfx', pem: 'Certyfikat i klucz PEM', p12File: 'Plik .p12 / .pfx', p12Password: 'Hasło do pliku', certFile: 'Certyfikat (.pem / .crt)', keyFile: 'Klucz prywatny (.pem / .key)', keyPassword: 'Hasło klucza (jeśli jest)', saveCert: 'Zapisz certyfikat',
    test: 'Testuj połączenie', testing: 'Łączenie z KSeF…', testOk: 'Uwierzytelnienie w KSeF powiodło się.', emulatorTitle: 'Emulator KSeF', emulatorIntro: 'W trybie testowym z lokalnym emulatorem możesz utworzyć testowe poświadczenia dla NIP sprzedawcy.', emulatorButton: 'Utwórz testowe poświadczenia', needSeller: 'Najpierw uzupełnij NIP sprzedawcy.', stored: 'Poświadczenia są przechowywane w postaci zaszyfrowanej. Dokumenty czekające na poświadczenia zostaną wysłane po udanym zapisie.',
  },
  invoices: {
    title: 'Faktury', filterStatus: 'Status', all: 'Wszystkie', search: 'Szukaj', searchHint: 'ID zamówienia, numer, NIP nabywcy lub numer KSeF', empty: 'Brak dokumentów.', live: 'Odświeżanie na żywo: dokumenty w drodze.',
    cols: { kind: 'Rodzaj', number: 'Numer', order: 'Zamówienie', buyerNip: 'NIP nabywcy', date: 'Data wystawienia', total: 'Kwota brutto', status: 'Status', ksef: 'Numer KSeF' },
    count: 'dokumentów',
  },
  detail: {
    back: 'Wróć do faktur', number: 'Numer', ksefNumber: 'Numer KSeF', status: 'Status', environment: 'Środowisko KSeF', issueDate: 'Data wystawienia', currency: 'Waluta', totalGross: 'Kwota brutto', buyer: 'Nabywca', seller: 'Sprzedawca', order: 'Zamówienie', orderNumber: 'Numer zamówienia', paidAt: 'Data zapłaty', payment: 'Forma płatności', lastError: 'Ostatni błąd', mail: 'E-mail do nabywcy', rate: 'Kurs NBP', invoice: 'Faktura korygowana', refund: 'Zwrot', reason: 'Przyczyna korekty',
    lines: 'Pozycje', lineName: 'Nazwa', sku: 'SKU', qty: 'Ilość', unitPrice: 'Cena jedn. brutto', discount: 'Rabat', gross: 'Wartość brutto', vat: 'Stawka VAT', shipping: 'Dostawa',
    timeline: 'Historia statusów', files: 'Pliki', pdf: 'Pobierz PDF', xml: 'Pobierz XML', upo: 'Pobierz UPO', preview: 'Podgląd PDF', pdfPending: 'PDF będzie dostępny po przyjęciu przez KSeF.',
    corrections: 'Korekty', noCorrections: 'Brak korekt.', events: 'Zdarzenia', noEvents: 'Brak zdarzeń.', deliveries: 'Dostarczenia webhooków', noDeliveries: 'Brak dostarczeń.',
    correctionTitle: 'Wystaw korektę', refundId: 'ID zwrotu', returnQty: 'Zwracana ilość', refundShipping: 'Zwrot za dostawę', create: 'Wystaw korektę', correctionCreated: 'Korekta utworzona.', nothingToReturn: 'Wybierz co najmniej jedną pozycję lub zwrot dostawy.', max: 'maks.',
  },
  webhooks: {
    title: 'Webhooki', url: 'Adres URL', events: 'Zdarzenia', description: 'Opis', add: 'Dodaj endpoint', created: 'Endpoint dodany. Sekret podpisu:', empty: 'Brak endpointów.', allEvents: 'Wszystkie zdarzenia (*)', deliveryLog: 'Dziennik dostarczeń', confirmDelete: 'Usunąć ten endpoint?',
    cols: { at: 'Czas', event: 'Zdarzenie', attempt: 'Próba', status: 'Odpowiedź', duration: 'Czas odpowiedzi', result: 'Wynik', next: 'Następna próba' }, delivered: 'dostarczono', failed: 'nieudane', resend: 'Wyślij ponownie', resent: 'Ponowna wysyłka zaplanowana (próba {n}).', request: 'Żądanie', response: 'Odpowiedź', back: 'Wróć do webhooków', pickEvent: 'Zaznacz co najmniej jedno zdarzenie.',
  },
  apiKeys: { title: 'Klucze API', prefix: 'Prefiks', mode: 'Tryb', created: 'Utworzony', lastUsed: 'Ostatnio użyty', never: 'nigdy', create: 'Utwórz klucz', revoke: 'Unieważnij', newKey: 'Nowy klucz API:', confirmRevoke: 'Unieważnić ten klucz? Integracje, które go używają, przestaną działać.' },
  events: { title: 'Zdarzenia', type: 'Typ', all: 'Wszystkie', empty: 'Brak zdarzeń.', payload: 'Treść (JSON)', created: 'Utworzone', document: 'Dokument', more: 'Starsze' },
};

export type Dictionary = typeof pl;

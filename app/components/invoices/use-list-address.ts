'use client';
import { usePathname, useRouter } from 'next/navigation';
import { useState } from 'react';
import { invoiceListParams, type InvoiceListState } from '../invoice-list-params';

/**
 * The list as last asked for (`draft`), the search box's text, and `go`, which changes the list by pushing a new
 * address (page back to 1 unless the change names one).
 */
export function useListAddress(state: InvoiceListState) {
  const router = useRouter();
  const pathname = usePathname();
  // the list as last asked for: a second change before the address catches up builds on the first
  const [draft, setDraft] = useState(state);
  const [typed, setTyped] = useState(state.query ?? '');
  const address = invoiceListParams(state).toString();
  const [seen, setSeen] = useState(address);
  if (address !== seen) {
    setSeen(address);
    // a new address from elsewhere (back/forward, a link): the list and the search box follow it; our own push
    // arriving leaves alone what was typed since
    if (address !== invoiceListParams(draft).toString()) {
      setDraft(state);
      setTyped(state.query ?? '');
    }
  }
  const go = (change: Partial<InvoiceListState>) => {
    const next = { ...draft, page: 1, ...change };
    setDraft(next);
    const params = invoiceListParams(next);
    router.push(params.size ? `${pathname}?${params}` : pathname, { scroll: false });
  };
  return { draft, typed, setTyped, go };
}

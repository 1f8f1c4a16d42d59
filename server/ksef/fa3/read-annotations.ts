import type { Annotations } from './parts';
import { textAt, xmlTree } from './xml-tree';

/**
 * The Adnotacje an invoice was issued with, read from its FA(3) XML as sent: a correction repeats them (kor-mapping.md
 * §2, "the same values as on the original"), whatever the seller's settings are now. P_16 (cash method, art. 106e
 * ust. 1 pkt 16) and P_18A (split payment, pkt 18a) are the ones this service varies; the rest is fixed in adnotacje.
 */
export function readAnnotations(invoiceXml: string): Annotations {
  const tree = xmlTree(invoiceXml);
  const flag = (name: string): boolean => {
    const value = textAt(tree, `Fa/Adnotacje/${name}`);
    if (value !== '1' && value !== '2') throw new Error(`the corrected invoice's Adnotacje/${name} is ${value ?? 'missing'}`);
    return value === '1';
  };
  return { cashAccounting: flag('P_16'), splitPayment: flag('P_18A') };
}

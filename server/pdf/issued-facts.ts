import { allAt, textAt, xmlTree } from '../ksef/fa3/xml-tree';
import type { Seller } from '../ksef/fa3/parts';

/**
 * What the stored FA(3) XML says that the document row does not keep: the seller as issued (account settings may
 * have changed since, and KOD I must carry the NIP KSeF knows), the place of issue and a correction's reason as sent.
 */
export type IssuedFacts = { seller: Seller; issuePlace: string | null; correctionReason: string | null };

export function readIssuedFacts(fa3Xml: string): IssuedFacts {
  const tree = xmlTree(fa3Xml);
  const [podmiot1] = allAt(tree, 'Podmiot1');
  if (!podmiot1) throw new Error('FA(3) XML without Podmiot1');
  const nip = textAt(podmiot1, 'DaneIdentyfikacyjne/NIP');
  const name = textAt(podmiot1, 'DaneIdentyfikacyjne/Nazwa');
  const address1 = textAt(podmiot1, 'Adres/AdresL1');
  if (!nip || !name || !address1) throw new Error('FA(3) Podmiot1 lacks NIP, name or address');
  return {
    seller: {
      nip,
      name,
      address1,
      address2: textAt(podmiot1, 'Adres/AdresL2'),
      countryCode: textAt(podmiot1, 'Adres/KodKraju') ?? 'PL',
      email: textAt(podmiot1, 'DaneKontaktowe/Email'),
      phone: textAt(podmiot1, 'DaneKontaktowe/Telefon'),
    },
    issuePlace: textAt(tree, 'Fa/P_1M'),
    correctionReason: textAt(tree, 'Fa/PrzyczynaKorekty'),
  };
}

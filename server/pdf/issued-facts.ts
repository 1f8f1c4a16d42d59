import { allAt, textAt, xmlTree, type Tree } from '../ksef/fa3/xml-tree';
import type { Seller } from '../ksef/fa3/parts';
import { parseGrosze } from '../orders/money';

/**
 * What the stored FA(3) XML says that the document row does not keep: the seller as issued (account settings may
 * have changed since, and KOD I must carry the NIP KSeF knows), the place of issue and a correction's reason as sent,
and the totals (P_13_x, P_14_x, P_15) that the printout must repeat.
 */
export type IssuedFacts = {
  seller: Seller;
  issuePlace: string | null;
  correctionReason: string | null;
  totals: { netGrosze: number; vatGrosze: number; grossGrosze: number };
};

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
    totals: {
      netGrosze: sumOf(tree, /^P_13_\d+(_\d+)?$/),
      vatGrosze: sumOf(tree, /^P_14_\d+$/), // not P_14_xW, the PLN copy
      grossGrosze: sumOf(tree, /^P_15$/),
    },
  };
}

function sumOf(tree: Tree, field: RegExp): number {
  const fa = tree.children.find((c) => c.name === 'Fa');
  return (fa?.children ?? [])
    .filter((c) => field.test(c.name))
    .reduce((sum, c) => {
      const grosze = parseGrosze(c.text ?? '');
      if (grosze === null) throw new Error(`FA(3) ${c.name} is not an amount: ${c.text}`);
      return sum + grosze;
    }, 0);
}

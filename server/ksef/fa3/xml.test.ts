import { expect, test } from 'vitest';
import { el, serializeXml } from './xml';

test('text and attributes are escaped where they hold markup characters and written as they are otherwise', () => {
  const xml = serializeXml(el('Faktura', [el('P_7', 'Kubek & <spodek> "duży"'), el('P_8A', 'szt.'), el('Opis', 'x', { typ: 'a"b&c<d>' })]));
  expect(xml).toContain('<P_7>Kubek &amp; &lt;spodek&gt; "duży"</P_7>');
  expect(xml).toContain('<P_8A>szt.</P_8A>');
  expect(xml).toContain('<Opis typ="a&quot;b&amp;c&lt;d&gt;">x</Opis>');
});

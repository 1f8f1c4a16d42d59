'use client';
import type { Dispatch, SetStateAction } from 'react';
import { formatMoney } from '../format';
import { useI18n } from '../i18n';
import type { RouterOutputs } from '../trpc';

type Props = {
  /** The form's useId prefix for the inputs' ids. */
  ids: string;
  data: RouterOutputs['invoices']['correctionForm'];
  quantities: Record<number, string>;
  setQuantities: Dispatch<SetStateAction<Record<number, string>>>;
};

/** The invoice's lines, each with the quantity to return (at most what is left of it). */
export function ReturnLines({ ids, data, quantities, setQuantities }: Props) {
  const { t, locale } = useI18n();
  const d = t.detail;
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">{d.lineName}</th>
            <th scope="col" className="num">
              {d.unitPrice}
            </th>
            <th scope="col" className="num">
              {d.vat}
            </th>
            <th scope="col">{d.returnQty}</th>
          </tr>
        </thead>
        <tbody>
          {data.lines.map((l, i) => (
            <tr key={i}>
              <td>{l.name}</td>
              <td className="num">{formatMoney(l.unitPriceGrosze, data.currency, locale)}</td>
              <td className="num">{l.vatRate}%</td>
              <td>
                <label className="sr-only" htmlFor={`${ids}-q${i}`}>
                  {d.returnQty}: {l.name}
                </label>
                <input
                  id={`${ids}-q${i}`}
                  className="qty"
                  type="number"
                  min={0}
                  max={l.quantity}
                  step={1}
                  inputMode="numeric"
                  value={quantities[i] ?? '0'}
                  disabled={l.quantity === 0}
                  onChange={(e) => setQuantities((q) => ({ ...q, [i]: e.target.value }))}
                />{' '}
                <span className="muted">
                  {d.max} {l.quantity}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

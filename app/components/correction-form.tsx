'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useState, type FormEvent } from 'react';
import { readError } from './error-text';
import { formatMoney, toDecimal } from './format';
import { useI18n } from './i18n';
import { ReturnLines } from './correction/return-lines';
import { useTRPC } from './trpc';

const newRefundId = () => `refund-${Date.now().toString(36)}`;

/** Lines of the invoice with the quantity to return, plus shipping; sent as a /v1 refund (spec 2.5). */
export function CorrectionForm({ invoiceId }: { invoiceId: string }) {
  const { t, locale } = useI18n();
  const d = t.detail;
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const ids = useId();
  const { data } = useQuery(trpc.invoices.correctionForm.queryOptions({ invoiceId }));
  const [quantities, setQuantities] = useState<Record<number, string>>({});
  const [shipping, setShipping] = useState(false);
  const [refundId, setRefundId] = useState(newRefundId);
  const [reason, setReason] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const create = useMutation(
    trpc.invoices.createCorrection.mutationOptions({
      onSuccess: (res) => {
        void queryClient.invalidateQueries({ queryKey: trpc.invoices.pathKey() });
        router.push(`/dashboard/invoices/${res.id}`);
      },
    }),
  );
  if (!data) return null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const lines = data.lines
      .map((l, i) => ({ l, q: Number(quantities[i] ?? 0) }))
      .filter(({ q }) => q > 0)
      .map(({ l, q }) => ({ name: l.name, sku: l.sku ?? undefined, quantity: q, unit_price: toDecimal(l.unitPriceGrosze), vat_rate: String(l.vatRate) }));
    if (lines.length === 0 && !shipping) return setFormError(d.nothingToReturn);
    create.mutate({
      invoiceId,
      refund: { external_id: refundId, reason: reason.trim() || undefined, lines, shipping: shipping ? { price: toDecimal(data.shippingGrosze) } : undefined },
    });
  };
  const failure = readError(create.error, t);
  return (
    <form className="form correction" onSubmit={submit} noValidate aria-labelledby={`${ids}-h`}>
      <h3 id={`${ids}-h`}>{d.correctionTitle}</h3>
      <div className="field">
        <label htmlFor={`${ids}-rid`}>{d.refundId}</label>
        <input id={`${ids}-rid`} value={refundId} onChange={(e) => setRefundId(e.target.value)} required />
      </div>
      <div className="field">
        <label htmlFor={`${ids}-reason`}>{d.reason}</label>
        <input id={`${ids}-reason`} value={reason} onChange={(e) => setReason(e.target.value)} />
      </div>
      <ReturnLines ids={ids} data={data} quantities={quantities} setQuantities={setQuantities} />
      {data.shippingGrosze > 0 ? (
        <label className="check-label">
          <input type="checkbox" checked={shipping} onChange={(e) => setShipping(e.target.checked)} /> {d.refundShipping} (
          {formatMoney(data.shippingGrosze, data.currency, locale)})
        </label>
      ) : null}
      <div className="actions">
        <button type="submit" className="primary" disabled={create.isPending}>
          {d.create}
        </button>
        <span className="field-error" role="alert">
          {formError ?? failure?.message ?? ''}
        </span>
      </div>
    </form>
  );
}

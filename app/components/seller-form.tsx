'use client';
import { useQuery } from '@tanstack/react-query';
import { Field } from './field';
import { useI18n } from './i18n';
import { useSellerForm, type SellerFormValues } from './seller/use-seller-form';
import { useTRPC } from './trpc';

type Loaded = SellerFormValues & { configured: boolean };

/** The form mounts once the stored values are in, so typing never races a late answer. */
export function SellerForm() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const { data } = useQuery(trpc.account.seller.queryOptions());
  return (
    <>
      <h1>{t.seller.title}</h1>
      <p className="muted">{t.seller.intro}</p>
      {data ? <SellerFields initial={data} /> : <div className="card form-placeholder" aria-busy="true" />}
    </>
  );
}

function SellerFields({ initial }: { initial: Loaded }) {
  const { t } = useI18n();
  const s = t.seller;
  const { form, setForm, save, saved, nipValid, nipError, serverError, errorFor, submit, set, configured } = useSellerForm(initial);
  return (
    <>
      <p role="status" className={configured ? 'ok' : 'warn'} data-testid="seller-state">
        {configured ? s.configured : s.notConfigured}
      </p>
      <form className="card form" onSubmit={submit} noValidate aria-label={s.title}>
        <Field
          label={s.nip}
          name="nip"
          inputMode="numeric"
          autoComplete="off"
          value={form.nip}
          onChange={set('nip')}
          error={nipError ?? errorFor('nip')}
          ok={nipValid ? s.nipOk : null}
          required
        />
        <Field label={s.name} name="name" autoComplete="organization" value={form.name} onChange={set('name')} error={errorFor('name')} required />
        <Field
          label={s.address1}
          name="address1"
          autoComplete="address-line1"
          value={form.address1}
          onChange={set('address1')}
          error={errorFor('address1')}
          required
        />
        <Field label={s.address2} name="address2" autoComplete="address-line2" value={form.address2} onChange={set('address2')} />
        <div className="field">
          <label>
            <input
              type="checkbox"
              name="cashAccounting"
              checked={form.cashAccounting}
              onChange={(e) => setForm((prev) => ({ ...prev, cashAccounting: e.target.checked }))}
            />{' '}
            {s.cashAccounting}
          </label>
          <p className="field-hint">{s.cashAccountingHint}</p>
        </div>
        <div className="actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? t.common.saving : t.common.save}
          </button>
          <span role="status" className="ok">
            {saved && !save.isPending ? t.common.saved : ''}
          </span>
          {serverError && !serverError.param ? <span className="field-error">{serverError.message}</span> : null}
        </div>
      </form>
    </>
  );
}

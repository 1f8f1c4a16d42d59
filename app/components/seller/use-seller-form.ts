'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { isValidNip, normalizeNip } from '@/server/orders/nip';
import { readError } from '../error-text';
import { useI18n } from '../i18n';
import { useTRPC } from '../trpc';

export type SellerFormValues = { nip: string; name: string; address1: string; address2: string; cashAccounting: boolean };

/**
 * The seller form's values, checks and save: the NIP checked as typed (once it has 10 digits, or on submit), the
 * required fields on submit, and the server's refusals by field.
 */
export function useSellerForm(initial: SellerFormValues & { configured: boolean }) {
  const { t } = useI18n();
  const s = t.seller;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<SellerFormValues>({
    nip: initial.nip,
    name: initial.name,
    address1: initial.address1,
    address2: initial.address2,
    cashAccounting: initial.cashAccounting,
  });
  const [touched, setTouched] = useState(false);
  const [saved, setSaved] = useState(false);
  const save = useMutation(
    trpc.account.updateSeller.mutationOptions({
      onSuccess: () => {
        setSaved(true);
        void queryClient.invalidateQueries({ queryKey: trpc.account.pathKey() });
      },
    }),
  );
  const nipDigits = normalizeNip(form.nip);
  const nipValid = isValidNip(nipDigits);
  const nipError = form.nip && (nipDigits.length >= 10 || touched) && !nipValid ? s.nipInvalid : null;
  const serverError = readError(save.error, t);
  const errorFor = (f: 'nip' | 'name' | 'address1') => (touched && !form[f].trim() ? t.common.required : serverError?.param === f ? serverError.message : null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    setSaved(false);
    if (!nipValid || !form.name.trim() || !form.address1.trim()) return;
    save.mutate(form);
  };
  const set = (f: 'nip' | 'name' | 'address1' | 'address2') => (e: { target: { value: string } }) => setForm((prev) => ({ ...prev, [f]: e.target.value }));
  const configured = saved ? save.data?.configured : initial.configured;
  return { form, setForm, save, saved, nipValid, nipError, serverError, errorFor, submit, set, configured };
}

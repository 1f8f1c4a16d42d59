import { z } from 'zod';

/**
 * The parts of WooCommerce REST v3 order and refund objects the mapping reads (domain/woocommerce.md §2-6).
 * Unknown keys are ignored; shapes are lenient where shops differ (nulls, numbers as meta values).
 */
const money = z.string();
const optionalText = z
  .string()
  .nullish()
  .transform((v) => v ?? '');
const id = z.number().int();

const ZWcMeta = z.object({ key: z.string(), value: z.unknown() });
const ZWcTax = z.object({ id, total: z.union([z.string(), z.number()]).nullish(), subtotal: z.union([z.string(), z.number()]).nullish() });

export const ZWcLineItem = z.object({
  id,
  name: z.string(),
  quantity: z.number().int(),
  sku: z.string().nullish(),
  subtotal: money.nullish(),
  subtotal_tax: money.nullish(),
  total: money,
  total_tax: money,
  taxes: z.array(ZWcTax).default([]),
  meta_data: z.array(ZWcMeta).default([]),
});

export const ZWcShippingLine = z.object({
  id,
  method_title: z.string(),
  total: money,
  total_tax: money,
  taxes: z.array(ZWcTax).default([]),
  meta_data: z.array(ZWcMeta).default([]),
});

export const ZWcFeeLine = z.object({
  id,
  name: z.string(),
  tax_status: z.string().nullish(),
  total: money,
  total_tax: money,
  taxes: z.array(ZWcTax).default([]),
  meta_data: z.array(ZWcMeta).default([]),
});

export const ZWcTaxLine = z.object({ rate_id: id, rate_percent: z.number().nullish(), label: z.string().nullish() });

export const ZWcOrder = z.object({
  id,
  number: z.union([z.string(), z.number()]).nullish(),
  status: z.string(),
  currency: z.string(),
  date_created_gmt: z.string().nullish(),
  date_paid_gmt: z.string().nullish(),
  total: money,
  customer_id: z.number().int().nullish(),
  payment_method: z.string().nullish(),
  billing: z
    .object({
      first_name: optionalText,
      last_name: optionalText,
      company: optionalText,
      address_1: optionalText,
      address_2: optionalText,
      city: optionalText,
      postcode: optionalText,
      country: optionalText,
      email: optionalText,
    })
    .catchall(z.unknown()),
  meta_data: z.array(ZWcMeta).default([]),
  line_items: z.array(ZWcLineItem),
  shipping_lines: z.array(ZWcShippingLine).default([]),
  fee_lines: z.array(ZWcFeeLine).default([]),
  tax_lines: z.array(ZWcTaxLine).default([]),
});

export const ZWcRefund = z.object({
  id,
  date_created_gmt: z.string().nullish(),
  amount: money.nullish(),
  reason: z.string().nullish(),
  line_items: z.array(ZWcLineItem).default([]),
  shipping_lines: z.array(ZWcShippingLine).default([]),
  fee_lines: z.array(ZWcFeeLine).default([]),
  tax_lines: z.array(ZWcTaxLine).default([]),
});

export type WcOrder = z.infer<typeof ZWcOrder>;
export type WcRefund = z.infer<typeof ZWcRefund>;
export type WcTaxLine = z.infer<typeof ZWcTaxLine>;
export type WcTax = z.infer<typeof ZWcTax>;

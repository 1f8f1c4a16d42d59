/** Values a message template names as `{name}`. */
export type TemplateParams = Record<string, string | number>;

/** A template with its `{name}` placeholders filled; a name without a value stays as written. */
export const fillTemplate = (template: string, params: TemplateParams = {}): string =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));

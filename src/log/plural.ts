/**
 * A count with its noun in the right number: "1 API token", "2 API tokens", "0 invoices". The count
 * may be text as printed ("1,234", or padded to a column): its digits decide.
 */
export function counted(count: number | string, singular: string, plural = `${singular}s`): string {
  return `${count} ${Number(String(count).replace(/[, ]/g, "")) === 1 ? singular : plural}`;
}

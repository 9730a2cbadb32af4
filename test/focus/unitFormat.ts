/**
 * The FOCUS 1.2 Unit Format attribute (FOCUS_Spec at tag v1.2) as one regular expression, the
 * five forms the validator's FormatUnit accepts: a unit, `<unit>-<plural time>`, `<unit>/<singular
 * time>`, `<quantity> <unit>` and `<unit>/<interval> <plural time>`. A count unit is any capitalised
 * or lower-case noun, words separated by spaces, as in the validator.
 */

/** The data size abbreviations of the spec's table, bits then bytes. */
const DATA_SIZE = [
  ...["b", "Kb", "Mb", "Gb", "Tb", "Pb", "Eb", "Kib", "Mib", "Gib", "Tib", "Pib", "Eib"],
  ...["B", "KB", "MB", "GB", "TB", "PB", "EB", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"],
].join("|");
const TIME_SINGULAR = ["Year", "Month", "Day", "Hour", "Minute", "Second"].join("|");
const TIME_PLURAL = ["Years", "Months", "Days", "Hours", "Minutes", "Seconds"].join("|");
const COUNT = String.raw`[A-Za-z][A-Za-z0-9]*(?:\s+[A-Za-z][A-Za-z0-9]*)*`;

const FORMS = [
  `^(${DATA_SIZE}|${TIME_SINGULAR}|${TIME_PLURAL}|${COUNT})$`,
  `^(${DATA_SIZE}|${COUNT})-(${TIME_PLURAL})$`,
  `^(${DATA_SIZE}|${COUNT}|${TIME_PLURAL})/(${TIME_SINGULAR})$`,
  `^[0-9]+ (${DATA_SIZE}|${TIME_SINGULAR}|${TIME_PLURAL}|${COUNT})$`,
  `^(${DATA_SIZE}|${COUNT}|${TIME_PLURAL})/[0-9]+ (${TIME_PLURAL})$`,
];

/** For DuckDB's regexp_matches (RE2): each form is anchored, so a partial match is a full one. */
export const UNIT_FORMAT_PATTERN = FORMS.map((form) => `(${form})`).join("|");

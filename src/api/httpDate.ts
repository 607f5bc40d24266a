// HTTP dates (RFC 9110 5.6.7): `Retry-After`, `Sunset`, `Deprecation`'s older date form. Pure.

const HTTP_DATE = new RegExp(
  [
    // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
    /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/
      .source,
    // obsolete RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
    /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/
      .source,
    // obsolete asctime: Sun Nov  6 08:49:37 1994
    /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/
      .source,
  ].join('|'),
);

/** Epoch ms of an HTTP date in any of its three forms, or undefined for anything else. */
export function parseHttpDate(v: string): number | undefined {
  if (!HTTP_DATE.test(v)) return undefined;
  const date = Date.parse(v.endsWith('GMT') ? v : `${v} GMT`);
  return Number.isNaN(date) ? undefined : date;
}

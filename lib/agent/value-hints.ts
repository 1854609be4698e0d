/**
 * Kinds of values a request may carry, each with the word a tool's parameter that takes one is usually named with
 * ("recipientEmail", "maxPrice", "departureDate", "startTime", "pageUrl"). General patterns of written English and
 * of the web, nothing about one site. "may" is left out of the months: it is far more often the verb.
 */
const KINDS: readonly (readonly [string, RegExp])[] = [
  ['email', /[^\s@]+@[^\s@]+\.[^\s@]+/],
  ['price', /[$€£¥]\s?\d|\d\s?(?:usd|eur|gbp|dollars?|euros?|pounds?)\b/i],
  [
    'date',
    /\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|tonight|yesterday|weekend|january|february|march|april|june|july|august|september|october|november|december)\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\b/i,
  ],
  ['time', /\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b/i],
  ['url', /https?:\/\/|www\./i],
];

/** Longest request read: past this a request's text says nothing more of what it asks. */
const MAX_REQUEST = 2000;

/**
 * The kinds of values in a request, as the parameter words that take them: an e-mail address gives "email", an
 * amount of money "price", a day or a date "date", a clock time "time", a web address "url". A request's values
 * match no tool's words (they are the person's: "alex@example.com", "$800k", "Friday"), but they say which tools
 * it needs: those with a parameter for them.
 */
export function valueHints(request: string): string[] {
  const text = request.slice(0, MAX_REQUEST);
  return KINDS.filter(([, pattern]) => pattern.test(text)).map(([word]) => word);
}

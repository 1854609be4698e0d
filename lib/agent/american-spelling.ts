/**
 * British spellings whose American form the stemmer does not meet ("organise" and "organize" stem apart), by the
 * regular patterns of English spelling: -ise/-isation → -ize/-ization, -yse → -yze, -our → -or, -tre → -ter,
 * -ogue → -og, and a few common words that follow no pattern. Words, lower-case.
 */
const WORDS = new Map(
  Object.entries({
    licence: 'license',
    licences: 'licenses',
    defence: 'defense',
    offence: 'offense',
    pretence: 'pretense',
    programme: 'program',
    programmes: 'programs',
    jewellery: 'jewelry',
    grey: 'gray',
    tyre: 'tire',
    tyres: 'tires',
    cheque: 'check',
    cheques: 'checks',
    mould: 'mold',
    draught: 'draft',
    pyjamas: 'pajamas',
    aluminium: 'aluminum',
    kerb: 'curb',
    enrol: 'enroll',
    enrolment: 'enrollment',
    fulfil: 'fulfill',
    fulfilment: 'fulfillment',
  }),
);

/**
 * Patterns, each needing three letters before its ending so that short words keep theirs ("rise", "four", "hour",
 * "tour", "vogue"). Applied to request and tool words alike, so a word that is not British at all ("promise",
 * "detour") only changes on both sides and still meets itself.
 */
const PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/^([a-z]{3,})is(e|es|ed|ing|er|ers|ation|ations)$/, '$1iz$2'],
  [/^([a-z]{3,})ys(e|es|ed|ing|er|ers)$/, '$1yz$2'],
  [/^([a-z]{3,})our(s|ed|ing|ite|ites|able|ably|er|ers|hood|hoods|ful|less)?$/, '$1or$2'],
  [/^([a-z]{2,})tre(s)?$/, '$1ter$2'],
  [/^([a-z]{3,})ogue(s)?$/, '$1og$2'],
];

/**
 * A word's American spelling, for the ranker to stem: the British and American forms of a word then match as one
 * ("favourite" and "favorite", "catalogue" and "catalog", "customise" and "customize"). Other words as they are.
 */
export function americanSpelling(word: string): string {
  const known = WORDS.get(word);
  if (known) return known;
  // Three letters and a four-letter ending at least: shorter words are left as they are.
  if (word.length < 5) return word;
  for (const [pattern, replacement] of PATTERNS) if (pattern.test(word)) return word.replace(pattern, replacement);
  return word;
}

/**
 * The characters that page text may not carry to a model: the one list, used by every path (see
 * clean-page-text.ts). Each hides text from the person, or reorders what they see, while a model still reads it.
 *
 * - C0 and C1 controls (U+0000–U+001F, U+007F–U+009F). Tab and newline are not listed: text that needs them
 *   (descriptions, results) keeps them, and one-line text turns them into spaces. CR, VT, FF and NEL are line
 *   breaks: cleanPageText turns them into newlines first.
 * - Zero-width characters and direction marks: U+200B–U+200F; line and paragraph separators U+2028/U+2029 (line
 *   breaks, also turned into newlines first); bidi embeddings and overrides U+202A–U+202E; word joiner, invisible
 *   operators, bidi isolates and the deprecated format characters U+2060–U+206F; U+FEFF (zero-width no-break
 *   space); soft hyphen U+00AD; combining grapheme joiner U+034F; Arabic letter mark U+061C; Hangul fillers
 *   U+115F, U+1160, U+3164, U+FFA0; Khmer inherent vowels U+17B4/U+17B5; Mongolian selectors U+180B–U+180F;
 *   interlinear annotation U+FFF9–U+FFFB; musical format characters U+1D173–U+1D17A.
 * - Unicode tag characters U+E0000–U+E007F: an invisible copy of ASCII ("ASCII smuggling"), the known way to hide
 *   instructions in text a person reads as harmless.
 * - Variation selectors U+FE00–U+FE0F and U+E0100–U+E01EF. 256 selectors are enough to encode any byte, one
 *   invisible selector per byte after a visible character. Decision: all of them go. The only loss is the glyph
 *   choice (an emoji drawn as text or as a picture, a rare ideograph variant), which changes nothing a model
 *   needs; keeping "one selector after an emoji" would keep a one-byte channel per emoji.
 * - Lone surrogates (U+D800–U+DFFF not in a pair): not text, and some providers reject the request over them.
 */
export const HIDDEN_CHARACTERS =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each listed character is matched on its own, on purpose
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uD800-\uDFFF\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB\u{1D173}-\u{1D17A}\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;

/** Line breaks other than `\n` (CR LF, CR, VT, FF, NEL, U+2028, U+2029): they become `\n` before the rest goes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
export const LINE_BREAKS = /\r\n|[\r\u000B\u000C\u0085\u2028\u2029]/g;

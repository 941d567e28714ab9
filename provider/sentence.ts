/**
 * The one place a message ends a sentence made of someone else's words (a client's error, a
 * server's messages), which often end in a full stop already, before its own next sentence: so
 * that no message says "..". Beside the layers, not in the client, so that the client and the
 * resources use the same rule.
 */

/**
 * The text as the end of a sentence: with one full stop at its end, unless it already ends in a
 * full stop, a question mark or an exclamation mark.
 *
 * @param text - words that may or may not end their sentence.
 * @returns the text, trailing white space removed, ending in a sentence's punctuation.
 * @example `endSentence("the server is busy.") // "the server is busy."`
 * @internal
 */
export function endSentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** A message for the person, and whether it reports a problem. */
export interface Notice {
  tone: 'info' | 'success' | 'error';
  text: string;
}

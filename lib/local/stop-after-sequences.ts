import { StoppingCriteria } from './transformers-runtime';

/** Stops once the generated ids end with one of the marker sequences (the tool-call end marker). */
export class StopAfterSequences extends StoppingCriteria {
  constructor(
    private readonly sequences: number[][],
    private readonly promptLength: number,
  ) {
    super();
  }

  // Typed number[][] upstream; generate() passes bigint ids, so compare through Number().
  override _call(inputIds: number[][]): boolean[] {
    return inputIds.map((ids) =>
      this.sequences.some(
        (seq) =>
          seq.length > 0 &&
          ids.length - this.promptLength >= seq.length &&
          seq.every((id, i) => Number(ids[ids.length - seq.length + i]) === id),
      ),
    );
  }
}

import { BaseStreamer } from './transformers-runtime';

/** Notes when the first new token arrives (the first put() is the prompt). */
export class FirstTokenStreamer extends BaseStreamer {
  private prompt = true;

  constructor(private readonly onFirst: () => void) {
    super();
  }

  override put(): void {
    if (this.prompt) this.prompt = false;
    else this.onFirst();
  }

  override end(): void {}
}

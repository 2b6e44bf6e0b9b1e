/**
 * The error banner (with an optional action button) and the pending "select the related file"
 * request a banner may own: any banner change cancels that request, so a load can never wait
 * forever on a banner that is gone.
 */
import { el } from './dom';

export class Banner {
  private readonly root = el<HTMLDivElement>('banner');
  private readonly text = el<HTMLSpanElement>('banner-text');
  private readonly action = el<HTMLButtonElement>('banner-action');
  /** Text shown, or null when hidden. */
  error: string | null = null;
  private cancelPending: (() => void) | null = null;

  constructor() {
    el<HTMLButtonElement>('banner-close').addEventListener('click', () => this.hide());
  }

  /** Hands the banner a request to settle as cancelled when the banner changes. */
  own(cancel: () => void): void {
    this.cancelPending = cancel;
  }

  private settle(): void {
    const c = this.cancelPending;
    this.cancelPending = null;
    c?.();
  }

  show(message: string, action?: { label: string; run: () => void }): void {
    this.settle();
    this.error = message;
    this.text.textContent = message;
    this.root.hidden = false;
    if (action) {
      this.action.textContent = action.label;
      this.action.hidden = false;
      this.action.onclick = () => {
        this.cancelPending = null; // the action now owns the request
        this.hide();
        action.run();
      };
    } else {
      this.action.hidden = true;
      this.action.onclick = null;
    }
  }

  hide(): void {
    this.settle();
    this.error = null;
    this.root.hidden = true;
  }
}

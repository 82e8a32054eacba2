/** A request the background refuses before anything is sent: its message is shown as it is. */
export class InputError extends Error {
  constructor(
    message: string,
    readonly kind = 'validation',
  ) {
    super(message);
  }
}

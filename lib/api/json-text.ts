// A value serialized once where it is cached, so each answer of it copies text rather than running
// JSON.stringify again. The type parameter keeps what the text holds: a handler typed by its response
// schema may return JsonText<T> wherever it may return T.
export class JsonText<T> {
  /** Never read: makes JsonText<A> assignable to JsonText<B> only when A is assignable to B. */
  declare private readonly value: T;

  constructor(readonly text: string) {}
}

export function jsonText<T>(value: T): JsonText<T> {
  return new JsonText<T>(JSON.stringify(value));
}

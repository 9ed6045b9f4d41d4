// A success body that is not JSON (a CSV export): a partner endpoint's handler returns it in place of
// its data, and it is answered as it is, with its media type, instead of in the envelope.
export class TextBody {
  constructor(
    readonly contentType: string,
    readonly text: string,
  ) {}
}

/**
 * A byte stream pulled from an async iterable of text or bytes: the next piece is made only when the reader has
 * taken the previous ones (ReadableStream's pull), so an export of any size holds one page of rows at a time.
 */
export function pulledStream(pieces: AsyncIterable<string | Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const it = pieces[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await it.next();
        if (next.done) controller.close();
        else controller.enqueue(typeof next.value === 'string' ? encoder.encode(next.value) : next.value);
      },
      async cancel() {
        await it.return?.();
      },
    },
    { highWaterMark: 1 },
  );
}

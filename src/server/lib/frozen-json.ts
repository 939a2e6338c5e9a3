/**
 * JSON.stringify of a value that is never changed after it is built (a cached product's pack
 * slots and pool rule), remembered by identity. The opening stringified the same slots three
 * times per request (its pool key twice and the statement's parameter once): about 14 µs of the
 * server's 1.1 ms per opening (session 37: `git show 7e84b7c:docs/performance.md`). A value
 * mutated in place after its first call would keep its old text, so only pass values that are
 * replaced, not edited.
 */
const texts = new WeakMap<object, string>();

export function frozenJson(value: object): string {
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}

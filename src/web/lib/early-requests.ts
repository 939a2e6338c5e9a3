/**
 * The answers to a first visit's early API reads (shared/early-requests.ts), sent by the
 * route-preload script while the app's code was still downloading.
 */
type EarlyAnswers = Map<string, [number, Promise<Response>]>;

/** The early answer for a GET of `path`, once, if the route-preload script asked for it lately. */
export function takeEarlyAnswer(path: string): Promise<Response> | undefined {
  const early = (globalThis as { __pvEarly?: EarlyAnswers }).__pvEarly;
  const hit = early?.get(path);
  if (!hit) return undefined;
  early!.delete(path);
  // Only for the first screen: later reads must see current data.
  return performance.now() - hit[0] < 10_000 ? hit[1] : undefined;
}

import { builtinEnvironments, type Environment } from 'vitest/environments';

/**
 * Vitest's jsdom environment, with one difference at its end: a frame or timer a component queued
 * in a file's last moments (focus handling, motion) may run after the window is gone, and then
 * called `cancelAnimationFrame` that teardown had just deleted — an unhandled ReferenceError that
 * failed a whole run on a busy machine (issue 42). Once the window is closed, those names stay
 * defined and do nothing: there is nothing left to draw.
 */
export default {
  name: 'jsdom-settled',
  viteEnvironment: 'client',
  async setup(global, options) {
    const env = await builtinEnvironments.jsdom.setup(global, options);
    return {
      async teardown(g) {
        await env.teardown(g);
        g.requestAnimationFrame ??= () => 0;
        g.cancelAnimationFrame ??= () => undefined;
      },
    };
  },
} satisfies Environment;

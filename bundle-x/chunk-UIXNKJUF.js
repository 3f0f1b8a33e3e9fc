import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// dist/services/wireguard/clock.js
var systemClock = {
  now: () => performance.now(),
  wallNow: () => Date.now(),
  setTimeout(callback, delayMs) {
    const handle = setTimeout(callback, Math.max(0, delayMs));
    handle.unref();
    return handle;
  },
  clearTimeout(handle) {
    clearTimeout(handle);
  }
};

export {
  systemClock
};

import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);

// dist/services/torrent/peer-route.js
function createPeerNetworkRoute() {
  let current;
  const listeners = /* @__PURE__ */ new Set();
  return {
    current: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(network) {
      if (network === current)
        return;
      current = network;
      for (const listener of [...listeners])
        listener();
    }
  };
}

export {
  createPeerNetworkRoute
};

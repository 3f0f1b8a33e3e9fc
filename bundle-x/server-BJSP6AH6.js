import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  ReferenceServer,
  createReferenceServer
} from "./chunk-APP4526X.js";
import "./chunk-POMXLGRL.js";
import "./chunk-ZEVYCYFL.js";
import "./chunk-4XQBZWSZ.js";
import "./chunk-7UR2AQZP.js";
import "./chunk-V4RWK56N.js";
export {
  ReferenceServer,
  createReferenceServer
};

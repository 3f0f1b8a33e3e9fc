import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  createInstaller,
  switchCurrent
} from "./chunk-ZZG6Z4EL.js";
import "./chunk-LW4JBI54.js";
import "./chunk-4XQBZWSZ.js";
import "./chunk-7UR2AQZP.js";
import "./chunk-V4RWK56N.js";
export {
  createInstaller,
  switchCurrent
};
